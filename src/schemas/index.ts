/**
 * Every endpoint schema by name: what validation.ts compiles at start and what the fuzzer draws
 * requests from. Each schema is a module of its own, `as const`, so that handlers take their
 * parameter types from it (src/api/route.ts). `SCHEMAS` (registry.ts) lists them all.
 */
export { addReaction } from './add-reaction.js';
export { createUser } from './create-user.js';
export { createReminder } from './create-reminder.js';
export { createScheduledMessage } from './create-scheduled-message.js';
export { deleteMessage } from './delete-message.js';
export { deleteQueue } from './delete-queue.js';
export { deleteReminder } from './delete-reminder.js';
export { deleteScheduledMessage } from './delete-scheduled-message.js';
export { fetchApiKey } from './fetch-api-key.js';
export { getEvents } from './get-events.js';
export { getMessageHistory } from './get-message-history.js';
export { getMessage } from './get-message.js';
export { getMessages } from './get-messages.js';
export { getOwnUser } from './get-own-user.js';
export { getReminders } from './get-reminders.js';
export { getScheduledMessages } from './get-scheduled-messages.js';
export { getServerSettings } from './get-server-settings.js';
export { getStreamById } from './get-stream-by-id.js';
export { getStreamId } from './get-stream-id.js';
export { getStreamTopics } from './get-stream-topics.js';
export { getStreams } from './get-streams.js';
export { getSubscriptions } from './get-subscriptions.js';
export { getUserByEmail } from './get-user-by-email.js';
export { getUser } from './get-user.js';
export { getUsers } from './get-users.js';
export { markAllAsRead } from './mark-all-as-read.js';
export { markStreamAsRead } from './mark-stream-as-read.js';
export { markTopicAsRead } from './mark-topic-as-read.js';
export { muteTopic } from './mute-topic.js';
export { registerQueue } from './register-queue.js';
export { removeReaction } from './remove-reaction.js';
export { reportMessage } from './report-message.js';
export { sendMessage } from './send-message.js';
export { setTypingStatus } from './set-typing-status.js';
export { subscribe } from './subscribe.js';
export { unsubscribe } from './unsubscribe.js';
export { updateMessageFlagsForNarrow } from './update-message-flags-for-narrow.js';
export { updateMessageFlags } from './update-message-flags.js';
export { updateMessage } from './update-message.js';
export { updatePresence } from './update-presence.js';
export { updateScheduledMessage } from './update-scheduled-message.js';
export { updateSubscriptionSettings } from './update-subscription-settings.js';
export { updateSubscriptions } from './update-subscriptions.js';
export { updateUserTopic } from './update-user-topic.js';
export { updateUser } from './update-user.js';
export { uploadFile } from './upload-file.js';
export { userUploadPath } from './user-upload-path.js';
export { getAttachments } from './get-attachments.js';
export { removeAttachment } from './remove-attachment.js';
export { uploadCustomEmoji } from './upload-custom-emoji.js';
export { getCustomEmoji } from './get-custom-emoji.js';
export { deactivateCustomEmoji } from './deactivate-custom-emoji.js';
