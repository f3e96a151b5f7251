/**
 * The URL table: every route the server serves, one line each, grouped by area, as
 * `route(METHOD, /path below /api/v1, view, schema, auth)`. Views live in their area's file
 * (src/api/<area>.ts), schemas in schemas/; then the routes outside /api/v1 (`ROOT_ROUTES`) and the
 * pages (`PAGE_ROUTES`). `npm run routes` prints this table.
 */
import * as schemas from '../../schemas/index.js';
import * as unsubscribe from './unsubscribe.js';
import * as authentication from './authentication.js';
import * as serverSettings from './server-settings.js';
import * as users from './users.js';
import * as channels from './channels.js';
import * as subscriptions from './subscriptions.js';
import * as messageSend from './message-send.js';
import * as messageFetch from './message-fetch.js';
import * as messageEdit from './message-edit.js';
import * as messageDelete from './message-delete.js';
import * as messageHistory from './message-history.js';
import * as reactions from './reactions.js';
import * as flags from './flags.js';
import * as reports from './reports.js';
import * as events from './events.js';
import * as messageTools from './message-tools.js';
import * as linkifiers from './linkifiers.js';
import * as submessages from './submessages.js';
import * as presence from './presence.js';
import * as typing from './typing.js';
import * as subscriptionSettings from './subscription-settings.js';
import * as userAdmin from './user-admin.js';
import * as deactivation from './deactivation.js';
import * as keyRotation from './key-rotation.js';
import * as profileFields from './profile-fields.js';
import * as scheduledMessages from './scheduled-messages.js';
import * as reminders from './reminders.js';
import * as readReceipts from './read-receipts.js';
import * as drafts from './drafts.js';
import * as navigationViews from './navigation-views.js';
import * as savedSnippets from './saved-snippets.js';
import * as pushDevices from './push-devices.js';
import * as userGroups from './user-groups.js';
import * as invitations from './invitations.js';
import * as userStatus from './user-status.js';
import * as settings from './settings.js';
import * as alertWords from './alert-words.js';
import * as mutedUsers from './muted-users.js';
import * as uploads from './uploads.js';
import * as realmEmoji from './realm-emoji.js';
import * as channelAdmin from './channel-admin.js';
import * as channelFolders from './channel-folders.js';
import * as realm from './realm.js';
import * as bots from './bots.js';
import * as webhooks from './webhooks.js';
import * as presenceRead from './presence-read.js';
import * as videoCalls from './video-calls.js';
import * as realmExport from './realm-export.js';
import { emojiBodyLimit, uploadBodyLimit } from './upload-limits.js';
import * as join from './join.js';
import { page, route, type PageEntry, type RouteEntry } from './route.js';

export const ROUTES: readonly RouteEntry[] = [
  // Authentication
  route('POST',   '/fetch_api_key',                       authentication.fetchApiKey,                       schemas.fetchApiKey,                  'none'),

  // Server settings
  route('GET',    '/server_settings',                     serverSettings.getServerSettings,                 schemas.getServerSettings,            'none'),

  // Users (reading)
  route('GET',    '/users',                               users.getUsers,                                   schemas.getUsers,                     'optional'),
  route('GET',    '/users/me',                            users.getOwnUser,                                 schemas.getOwnUser,                   'user'),
  route('GET',    '/users/{user_id:int}',                 users.getUser,                                    schemas.getUser,                      'user'),
  route('GET',    '/users/{email:email}',                 users.getUserByEmail,                             schemas.getUserByEmail,               'user'),

  // Channels
  route('GET',    '/streams',                             channels.getStreams,                              schemas.getStreams,                   'user'),
  route('GET',    '/streams/{stream_id:int}',             channels.getStreamById,                           schemas.getStreamById,                'user'),
  route('GET',    '/get_stream_id',                       channels.getStreamId,                             schemas.getStreamId,                  'user'),
  route('GET',    '/users/me/{stream_id:int}/topics',     channels.getStreamTopics,                         schemas.getStreamTopics,              'user'),

  // Subscriptions
  route('GET',    '/users/me/subscriptions',              subscriptions.getSubscriptions,                   schemas.getSubscriptions,             'user'),
  route('POST',   '/users/me/subscriptions',              subscriptions.subscribe,                          schemas.subscribe,                    'user'),
  route('DELETE', '/users/me/subscriptions',              subscriptions.unsubscribe,                        schemas.unsubscribe,                  'user'),
  route('PATCH',  '/users/me/subscriptions',              subscriptions.updateSubscriptions,                schemas.updateSubscriptions,          'user'),

  // Sending messages
  route('POST',   '/messages',                            messageSend.sendMessage,                          schemas.sendMessage,                  'user', { incomingWebhookBots: true }),

  // Scheduled messages and reminders
  route('GET',    '/scheduled_messages',                  scheduledMessages.getScheduledMessages,           schemas.getScheduledMessages,         'user'),
  route('POST',   '/scheduled_messages',                  scheduledMessages.createScheduledMessage,         schemas.createScheduledMessage,       'user'),
  route('PATCH',  '/scheduled_messages/{scheduled_message_id:int}', scheduledMessages.updateScheduledMessage, schemas.updateScheduledMessage,     'user'),
  route('DELETE', '/scheduled_messages/{scheduled_message_id:int}', scheduledMessages.deleteScheduledMessage, schemas.deleteScheduledMessage,     'user'),
  route('GET',    '/reminders',                           reminders.getReminders,                           schemas.getReminders,                 'user'),
  route('POST',   '/reminders',                           reminders.createReminder,                         schemas.createReminder,               'user'),
  route('DELETE', '/reminders/{reminder_id:int}',         reminders.deleteReminder,                         schemas.deleteReminder,               'user'),

  // Reading messages
  route('GET',    '/messages',                            messageFetch.getMessages,                         schemas.getMessages,                  'user'),
  route('GET',    '/messages/{message_id:int}',           messageFetch.getMessage,                          schemas.getMessage,                   'user'),

  // Editing messages
  route('PATCH',  '/messages/{message_id:int}',           messageEdit.updateMessage,                        schemas.updateMessage,                'user'),

  // Deleting messages
  route('DELETE', '/messages/{message_id:int}',           messageDelete.deleteMessage,                      schemas.deleteMessage,                'user'),

  // Edit history
  route('GET',    '/messages/{message_id:int}/history',   messageHistory.getMessageHistory,                 schemas.getMessageHistory,            'user'),

  // Read receipts
  route('GET',    '/messages/{message_id:int}/read_receipts', readReceipts.getReadReceipts,                 schemas.getReadReceipts,              'user'),

  // Reactions
  route('POST',   '/messages/{message_id:int}/reactions', reactions.addReaction,                            schemas.addReaction,                  'user'),
  route('DELETE', '/messages/{message_id:int}/reactions', reactions.removeReaction,                         schemas.removeReaction,               'user'),

  // Message flags and read state
  route('POST',   '/messages/flags',                      flags.updateMessageFlags,                         schemas.updateMessageFlags,           'user'),
  route('POST',   '/messages/flags/narrow',               flags.updateMessageFlagsForNarrow,                schemas.updateMessageFlagsForNarrow,  'user'),
  route('POST',   '/mark_all_as_read',                    flags.markAllAsRead,                              schemas.markAllAsRead,                'user'),
  route('POST',   '/mark_stream_as_read',                 flags.markStreamAsRead,                           schemas.markStreamAsRead,             'user'),
  route('POST',   '/mark_topic_as_read',                  flags.markTopicAsRead,                            schemas.markTopicAsRead,              'user'),

  // Reports
  route('POST',   '/messages/{message_id:int}/report',    reports.reportMessage,                            schemas.reportMessage,                'user'),

  // Event queues
  route('POST',   '/register',                            events.registerQueue,                             schemas.registerQueue,                'user'),
  route('GET',    '/events',                              events.getEvents,                                 schemas.getEvents,                    'user'),
  route('DELETE', '/events',                              events.deleteQueue,                               schemas.deleteQueue,                  'user'),

  // Presence
  route('POST',   '/users/me/presence',                   presence.updatePresence,                          schemas.updatePresence,               'user'),

  // Typing notifications
  route('POST',   '/typing',                              typing.setTypingStatus,                           schemas.setTypingStatus,              'user'),

  // Subscription settings and topic visibility
  route('POST',   '/users/me/subscriptions/properties',   subscriptionSettings.updateSubscriptionSettings,  schemas.updateSubscriptionSettings,   'user'),
  route('PATCH',  '/users/me/subscriptions/muted_topics', subscriptionSettings.muteTopic,                   schemas.muteTopic,                    'user'),
  route('POST',   '/user_topics',                         subscriptionSettings.updateUserTopic,             schemas.updateUserTopic,              'user'),

  // Users (administration)
  route('POST',   '/users',                               userAdmin.createUser,                             schemas.createUser,                   'user'),
  route('PATCH',  '/users/{user_id:int}',                 userAdmin.updateUser,                             schemas.updateUser,                   'user'),
  route('PATCH',  '/users/{email:email}',                 userAdmin.updateUserByEmail,                      schemas.updateUser,                   'user'),

  // Drafts
  route('GET',    '/drafts',                              drafts.getDrafts,                                 schemas.getDrafts,                    'user'),
  route('POST',   '/drafts',                              drafts.createDrafts,                              schemas.createDrafts,                 'user'),
  route('PATCH',  '/drafts/{draft_id:int}',               drafts.editDraft,                                 schemas.editDraft,                    'user'),
  route('DELETE', '/drafts/{draft_id:int}',               drafts.deleteDraft,                               schemas.deleteDraft,                  'user'),

  // Navigation views (the fragment may contain slashes: it is the rest of the path)
  route('GET',    '/navigation_views',                    navigationViews.getNavigationViews,               schemas.getNavigationViews,           'user'),
  route('POST',   '/navigation_views',                    navigationViews.addNavigationView,                schemas.addNavigationView,            'user'),
  route('PATCH',  '/navigation_views/{fragment:path}',    navigationViews.updateNavigationView,             schemas.updateNavigationView,         'user'),
  route('DELETE', '/navigation_views/{fragment:path}',    navigationViews.removeNavigationView,             schemas.removeNavigationView,         'user'),

  // Saved snippets
  route('GET',    '/saved_snippets',                      savedSnippets.getSavedSnippets,                   schemas.getSavedSnippets,             'user'),
  route('POST',   '/saved_snippets',                      savedSnippets.createSavedSnippet,                 schemas.createSavedSnippet,           'user'),
  route('PATCH',  '/saved_snippets/{saved_snippet_id:int}', savedSnippets.editSavedSnippet,                 schemas.editSavedSnippet,             'user'),
  route('DELETE', '/saved_snippets/{saved_snippet_id:int}', savedSnippets.deleteSavedSnippet,               schemas.deleteSavedSnippet,           'user'),

  // Push devices
  route('POST',   '/mobile_push/register',                pushDevices.registerPushDevice,                   schemas.registerPushDevice,           'user'),
  route('POST',   '/users/me/apns_device_token',          pushDevices.addApnsToken,                         schemas.addApnsToken,                 'user'),
  route('DELETE', '/users/me/apns_device_token',          pushDevices.removeApnsToken,                      schemas.deviceToken,                  'user'),
  route('POST',   '/users/me/android_gcm_reg_id',         pushDevices.addFcmToken,                          schemas.deviceToken,                  'user'),
  route('DELETE', '/users/me/android_gcm_reg_id',         pushDevices.removeFcmToken,                       schemas.deviceToken,                  'user'),
  route('POST',   '/mobile_push/test_notification',       pushDevices.testNotify,                           schemas.testNotify,                   'user'),
  // User groups
  route('POST',   '/user_groups/create',                  userGroups.createUserGroup,                       schemas.createUserGroup,              'user'),
  route('GET',    '/user_groups',                         userGroups.getUserGroups,                         schemas.getUserGroups,                'user'),
  route('PATCH',  '/user_groups/{user_group_id:int}',     userGroups.updateUserGroup,                       schemas.updateUserGroup,              'user'),
  route('POST',   '/user_groups/{user_group_id:int}/deactivate', userGroups.deactivateUserGroup,            schemas.deactivateUserGroup,          'user'),
  route('POST',   '/user_groups/{user_group_id:int}/members', userGroups.updateUserGroupMembers,            schemas.updateUserGroupMembers,       'user'),
  route('GET',    '/user_groups/{user_group_id:int}/members', userGroups.getUserGroupMembers,               schemas.getUserGroupMembers,          'user'),
  route('GET',    '/user_groups/{user_group_id:int}/members/{user_id:int}', userGroups.getIsUserGroupMember, schemas.getUserGroupMembers,         'user'),
  route('POST',   '/user_groups/{user_group_id:int}/subgroups', userGroups.updateUserGroupSubgroups,        schemas.updateUserGroupSubgroups,     'user'),
  route('GET',    '/user_groups/{user_group_id:int}/subgroups', userGroups.getUserGroupSubgroups,           schemas.getUserGroupSubgroups,        'user'),
  route('DELETE', '/users/{user_id:int}',                 deactivation.deactivateUser,                      schemas.deactivateUser,               'user'),
  route('POST',   '/users/{user_id:int}/reactivate',      deactivation.reactivateUser,                      schemas.reactivateUser,               'user'),
  route('DELETE', '/users/me',                            deactivation.deactivateOwnUser,                   schemas.deactivateOwnUser,            'user'),

  // API keys
  route('POST',   '/users/me/api_key/regenerate',         keyRotation.regenerateApiKey,                     schemas.regenerateApiKey,             'user'),

  // Custom profile fields
  route('GET',    '/realm/profile_fields',                profileFields.getProfileFields,                   schemas.getProfileFields,             'user'),
  route('POST',   '/realm/profile_fields',                profileFields.createProfileField,                 schemas.createProfileField,           'user'),
  route('PATCH',  '/realm/profile_fields',                profileFields.reorderProfileFields,               schemas.reorderProfileFields,         'user'),
  route('PATCH',  '/realm/profile_fields/{field_id:int}', profileFields.updateProfileField,                 schemas.updateProfileField,           'user'),
  route('DELETE', '/realm/profile_fields/{field_id:int}', profileFields.deleteProfileField,                 schemas.deleteProfileField,           'user'),
  route('PATCH',  '/users/me/profile_data',               profileFields.updateProfileData,                  schemas.updateProfileData,            'user'),
  route('DELETE', '/users/me/profile_data',               profileFields.deleteProfileData,                  schemas.deleteProfileData,            'user'),
  // Invitations
  route('GET',    '/invites',                             invitations.getInvites,                           schemas.getInvites,                   'user'),
  route('POST',   '/invites',                             invitations.sendInvites,                          schemas.sendInvites,                  'user'),
  route('DELETE', '/invites/{invite_id:int}',             invitations.revokeInvite,                         schemas.revokeInvite,                 'user'),
  route('POST',   '/invites/{invite_id:int}/resend',      invitations.resendInvite,                         schemas.resendInvite,                 'user'),
  route('POST',   '/invites/multiuse',                    invitations.createInviteLink,                     schemas.createInviteLink,             'user'),
  route('DELETE', '/invites/multiuse/{invite_id:int}',    invitations.revokeInviteLink,                     schemas.revokeInviteLink,             'user'),
  // User status
  route('POST',   '/users/me/status',                     userStatus.updateStatus,                          schemas.updateStatus,                 'user'),
  route('POST',   '/users/{user_id:int}/status',          userStatus.updateStatusForUser,                   schemas.updateStatusForUser,          'user'),
  route('GET',    '/users/{user_id:int}/status',          userStatus.getUserStatus,                         schemas.getUserStatus,                'user'),

  // Personal settings
  route('PATCH',  '/settings',                            settings.updateSettings,                          schemas.updateSettings,               'user'),

  // Alert words
  route('GET',    '/users/me/alert_words',                alertWords.getAlertWords,                         schemas.getAlertWords,                'user'),
  route('POST',   '/users/me/alert_words',                alertWords.addAlertWords,                         schemas.addAlertWords,                'user'),
  route('DELETE', '/users/me/alert_words',                alertWords.removeAlertWords,                      schemas.removeAlertWords,             'user'),

  // Muted users
  route('POST',   '/users/me/muted_users/{muted_user_id:int}', mutedUsers.muteUser,                        schemas.muteUser,                     'user'),
  route('DELETE', '/users/me/muted_users/{muted_user_id:int}', mutedUsers.unmuteUser,                      schemas.unmuteUser,                   'user'),
  // Uploaded files and attachments
  route('POST',   '/user_uploads',                        uploads.uploadFile,                               schemas.uploadFile,                   'user', { files: true, bodyLimit: uploadBodyLimit }),
  route('GET',    '/user_uploads/{realm_id_str}/{filename:path}', uploads.getFileTemporaryUrl,              schemas.userUploadPath,               'user'),
  route('GET',    '/attachments',                         uploads.getAttachments,                           schemas.getAttachments,               'user'),
  route('DELETE', '/attachments/{attachment_id:int}',     uploads.removeAttachment,                         schemas.removeAttachment,             'user'),

  // Custom emoji
  route('GET',    '/realm/emoji',                         realmEmoji.getCustomEmoji,                        schemas.getCustomEmoji,               'user'),
  route('POST',   '/realm/emoji/{emoji_name}',            realmEmoji.uploadCustomEmoji,                     schemas.uploadCustomEmoji,            'user', { files: true, bodyLimit: emojiBodyLimit }),
  route('DELETE', '/realm/emoji/{emoji_name}',            realmEmoji.deactivateCustomEmoji,                 schemas.deactivateCustomEmoji,        'user'),

  // Channel administration, default channels and channel folders
  route('PATCH',  '/streams/{stream_id:int}',             channelAdmin.updateStream,                        schemas.updateStream,                 'user'),
  route('DELETE', '/streams/{stream_id:int}',             channelAdmin.archiveStream,                       schemas.archiveStream,                'user'),
  route('POST',   '/streams/{stream_id:int}/delete_topic', channelAdmin.deleteTopic,                        schemas.deleteTopic,                  'user'),
  route('GET',    '/streams/{stream_id:int}/members',     channelAdmin.getSubscribers,                      schemas.getSubscribers,               'user'),
  route('GET',    '/streams/{stream_id:int}/email_address', channelAdmin.getStreamEmailAddress,             schemas.getStreamEmailAddress,        'user'),
  route('GET',    '/users/{user_id:int}/subscriptions/{stream_id:int}', channelAdmin.getSubscriptionStatus, schemas.getSubscriptionStatus,        'user'),
  route('POST',   '/default_streams',                     channelAdmin.addDefaultStream,                    schemas.defaultStream,                'user'),
  route('DELETE', '/default_streams',                     channelAdmin.removeDefaultStream,                 schemas.defaultStream,                'user'),
  route('POST',   '/channel_folders/create',              channelFolders.createChannelFolder,               schemas.createChannelFolder,          'user'),
  route('GET',    '/channel_folders',                     channelFolders.getChannelFolders,                 schemas.getChannelFolders,            'user'),
  route('PATCH',  '/channel_folders',                     channelFolders.reorderChannelFolders,             schemas.reorderChannelFolders,        'user'),
  route('PATCH',  '/channel_folders/{channel_folder_id:int}', channelFolders.updateChannelFolder,           schemas.updateChannelFolder,          'user'),

  // Organization settings
  route('PATCH',  '/realm',                               realm.updateRealm,                                schemas.updateRealm,                  'user'),
  route('PATCH',  '/realm/user_settings_defaults',        realm.updateRealmUserSettingsDefaults,            schemas.updateRealmUserSettingsDefaults, 'user'),
  route('POST',   '/realm/test_welcome_bot_custom_message', realm.testWelcomeBotCustomMessage,              schemas.testWelcomeBotCustomMessage,  'user'),
  // Bots
  route('GET',    '/bots',                                bots.getBots,                                     schemas.getBots,                      'user'),
  route('POST',   '/bots',                                bots.createBot,                                   schemas.createBot,                    'user'),
  route('PATCH',  '/bots/{bot_id:int}',                   bots.updateBot,                                   schemas.updateBot,                    'user'),
  route('DELETE', '/bots/{bot_id:int}',                   bots.deactivateBot,                               schemas.botId,                        'user'),
  route('POST',   '/bots/{bot_id:int}/api_key/regenerate', bots.regenerateBotApiKey,                       schemas.botId,                        'user'),

  // Presence (reading)
  route('GET',    '/users/{user_id_or_email}/presence',   presenceRead.getUserPresence,                     schemas.getUserPresence,              'user'),
  route('GET',    '/realm/presence',                      presenceRead.getRealmPresence,                    schemas.getRealmPresence,             'user'),

  // Data exports
  route('POST',   '/export/realm',                        realmExport.exportRealm,                          schemas.exportRealm,                  'user'),
  route('GET',    '/export/realm',                        realmExport.getRealmExports,                      schemas.getRealmExports,              'user'),
  route('DELETE', '/export/realm/{export_id:int}',        realmExport.deleteRealmExport,                    schemas.getRealmExports,              'user'),
  route('GET',    '/export/realm/consents',               realmExport.getExportConsents,                    schemas.getRealmExports,              'user'),

  // Video calls
  route('GET',    '/calls/bigbluebutton/create',          videoCalls.createBigBlueButtonCall,               schemas.createBigBlueButtonVideoCall, 'user'),

  // Incoming webhooks (the bot's key is the `api_key` parameter, checked by the view)
  route('POST',   '/external/slack_incoming',             webhooks.slackIncoming,                           schemas.slackIncomingWebhook,         'none', { raw: true }),
  route('POST',   '/external/github',                     webhooks.github,                                  schemas.githubWebhook,                'none', { raw: true }),
  // Message tools: preview, narrow checks, edit typing (issue 24, part C)
  route('POST',   '/messages/render',                     messageTools.renderMessage,                       schemas.renderMessage,                'user'),
  route('GET',    '/messages/matches_narrow',             messageTools.checkMessagesMatchNarrow,            schemas.checkMessagesMatchNarrow,     'user'),
  route('POST',   '/messages/{message_id:int}/typing',    typing.setTypingStatusForMessageEdit,             schemas.setTypingStatusForMessageEdit, 'user'),
  route('POST',   '/submessage',                          submessages.processSubmessage,                    schemas.processSubmessage,            'user'),
  // Linkifiers and code playgrounds (issue 24, part C)
  route('GET',    '/realm/linkifiers',                    linkifiers.getLinkifiers,                         schemas.getLinkifiers,                'user'),
  route('PATCH',  '/realm/linkifiers',                    linkifiers.reorderLinkifiers,                     schemas.reorderLinkifiers,            'user'),
  route('POST',   '/realm/filters',                       linkifiers.addLinkifier,                          schemas.addLinkifier,                 'user'),
  route('PATCH',  '/realm/filters/{filter_id:int}',       linkifiers.updateLinkifier,                       schemas.updateLinkifier,              'user'),
  route('DELETE', '/realm/filters/{filter_id:int}',       linkifiers.removeLinkifier,                       schemas.removeLinkifier,              'user'),
  route('POST',   '/realm/playgrounds',                   linkifiers.addCodePlayground,                     schemas.addCodePlayground,            'user'),
  route('DELETE', '/realm/playgrounds/{playground_id:int}', linkifiers.removeCodePlayground,                schemas.removeCodePlayground,         'user'),
];

/** Routes outside /api/v1, their paths from the root: the files themselves, as Zulip serves them. */
export const ROOT_ROUTES: readonly RouteEntry[] = [
  route('GET',    '/user_uploads/{realm_id_str}/{filename:path}', uploads.serveUpload,                      schemas.userUploadPath,               'user'),
  route('GET',    '/user_uploads/temporary/{token}/{filename}', uploads.serveTemporaryUpload,               schemas.userUploadPath,               'none'),
  route('GET',    '/user_uploads/thumbnail/{realm_id_str}/{rest:path}', uploads.serveThumbnail,             schemas.userUploadPath,               'user'),
  route('GET',    '/user_avatars/{realm_id_str}/emoji/images/{file}', realmEmoji.serveEmojiImage,           schemas.getCustomEmoji,               'none'),
  route('GET',    '/user_avatars/{realm_id_str}/emoji/images/still/{file}', realmEmoji.serveStillEmojiImage, schemas.getCustomEmoji,              'none'),
  route('GET',    '/user_avatars/exports/{realm_id}/{token}/{file}', realmExport.serveExport,                schemas.getRealmExports,              'user'),
  route('GET',    '/calls/bigbluebutton/join',            videoCalls.joinBigBlueButtonCall,                 schemas.joinBigBlueButtonVideoCall,   'user'),
];

/** Pages outside /api/v1, their paths from the root: no credentials, a form in, HTML out. */
export const PAGE_ROUTES: readonly PageEntry[] = [
  page('GET',  '/join/{key}', join.showJoinForm),
  page('POST', '/join/{key}', join.submitJoinForm),
  page('GET',  '/accounts/unsubscribe/missed_messages/{token}', unsubscribe.unsubscribe),
  page('POST', '/accounts/unsubscribe/missed_messages/{token}', unsubscribe.unsubscribe),
];
