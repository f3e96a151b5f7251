/** What the server says about itself: version, feature level, and the limits clients read. */

export const ZULIP_VERSION = '11.0-parley';
export const ZULIP_FEATURE_LEVEL = 416;
export const ZULIP_MERGE_BASE = '11.0';

export const LIMITS = {
  maxMessageLength: 10000,
  maxTopicLength: 60,
  maxStreamNameLength: 60,
  maxStreamDescriptionLength: 1024,
  maxStatusTextLength: 60,
  maxReportDescriptionLength: 1000,
  maxWelcomeMessageLength: 8000,
  maxFullNameLength: 100,
  maxUserGroupNameLength: 100,
  /** How many messages GET /messages and the flags endpoints handle at most per call. */
  maxMessagesPerFetch: 5000,
  /** Long-poll timeout clients are told to expect; heartbeats come well before it. */
  eventQueueLongpollTimeoutSeconds: 90,
  maxQueueLifespanSeconds: 7 * 24 * 3600,
} as const;
