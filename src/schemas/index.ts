/**
 * Every endpoint schema by name: what validation.ts compiles at start and what the fuzzer draws
 * requests from. Each schema is a module of its own, `as const`, so that handlers take their
 * parameter types from it (src/api/route.ts).
 */
import type { EndpointSchema } from '../http/validation.js';
import { addReaction } from './add-reaction.js';
import { createUser } from './create-user.js';
import { deleteMessage } from './delete-message.js';
import { deleteQueue } from './delete-queue.js';
import { fetchApiKey } from './fetch-api-key.js';
import { getEvents } from './get-events.js';
import { getMessageHistory } from './get-message-history.js';
import { getMessage } from './get-message.js';
import { getMessages } from './get-messages.js';
import { getOwnUser } from './get-own-user.js';
import { getServerSettings } from './get-server-settings.js';
import { getStreamById } from './get-stream-by-id.js';
import { getStreamId } from './get-stream-id.js';
import { getStreamTopics } from './get-stream-topics.js';
import { getStreams } from './get-streams.js';
import { getSubscriptions } from './get-subscriptions.js';
import { getUserByEmail } from './get-user-by-email.js';
import { getUser } from './get-user.js';
import { getUsers } from './get-users.js';
import { markAllAsRead } from './mark-all-as-read.js';
import { markStreamAsRead } from './mark-stream-as-read.js';
import { markTopicAsRead } from './mark-topic-as-read.js';
import { muteTopic } from './mute-topic.js';
import { registerQueue } from './register-queue.js';
import { removeReaction } from './remove-reaction.js';
import { reportMessage } from './report-message.js';
import { sendMessage } from './send-message.js';
import { setTypingStatus } from './set-typing-status.js';
import { subscribe } from './subscribe.js';
import { unsubscribe } from './unsubscribe.js';
import { updateMessageFlagsForNarrow } from './update-message-flags-for-narrow.js';
import { updateMessageFlags } from './update-message-flags.js';
import { updateMessage } from './update-message.js';
import { updatePresence } from './update-presence.js';
import { updateSubscriptionSettings } from './update-subscription-settings.js';
import { updateSubscriptions } from './update-subscriptions.js';
import { updateUserTopic } from './update-user-topic.js';
import { updateUser } from './update-user.js';

export {
  addReaction,
  createUser,
  deleteMessage,
  deleteQueue,
  fetchApiKey,
  getEvents,
  getMessageHistory,
  getMessage,
  getMessages,
  getOwnUser,
  getServerSettings,
  getStreamById,
  getStreamId,
  getStreamTopics,
  getStreams,
  getSubscriptions,
  getUserByEmail,
  getUser,
  getUsers,
  markAllAsRead,
  markStreamAsRead,
  markTopicAsRead,
  muteTopic,
  registerQueue,
  removeReaction,
  reportMessage,
  sendMessage,
  setTypingStatus,
  subscribe,
  unsubscribe,
  updateMessageFlagsForNarrow,
  updateMessageFlags,
  updateMessage,
  updatePresence,
  updateSubscriptionSettings,
  updateSubscriptions,
  updateUserTopic,
  updateUser,
};

/** Every schema, each under its `$id`. */
export const SCHEMAS: readonly EndpointSchema[] = [
  addReaction,
  createUser,
  deleteMessage,
  deleteQueue,
  fetchApiKey,
  getEvents,
  getMessageHistory,
  getMessage,
  getMessages,
  getOwnUser,
  getServerSettings,
  getStreamById,
  getStreamId,
  getStreamTopics,
  getStreams,
  getSubscriptions,
  getUserByEmail,
  getUser,
  getUsers,
  markAllAsRead,
  markStreamAsRead,
  markTopicAsRead,
  muteTopic,
  registerQueue,
  removeReaction,
  reportMessage,
  sendMessage,
  setTypingStatus,
  subscribe,
  unsubscribe,
  updateMessageFlagsForNarrow,
  updateMessageFlags,
  updateMessage,
  updatePresence,
  updateSubscriptionSettings,
  updateSubscriptions,
  updateUserTopic,
  updateUser,
];
