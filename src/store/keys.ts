/**
 * The key layout of the store. Every key starts with the organization (realm) id; numeric
 * parts are zero-padded to a fixed width so that byte order is numeric order and a range
 * scan walks records in id order.
 */

const WIDTH = 12;

/** The zeros that pad a number of each length to WIDTH. */
const ZEROS = Array.from({ length: WIDTH + 1 }, (_, length) => '0'.repeat(WIDTH - length));

/**
 * Fixed-width decimal: ids up to 10^12 keep their order as strings. Written as zeros plus the
 * digits: `padStart` builds its filler anew on every call, and a send builds about ten keys.
 */
export function pad(n: number): string {
  const digits = n.toString();
  return digits.length >= WIDTH ? digits : ZEROS[digits.length] + digits;
}

/** Escapes the separator so that free text (topic names) can sit inside a key. */
export function escapePart(text: string): string {
  // Most topics hold neither character: no pass of either expression over them.
  if (!text.includes('%') && !text.includes('!')) return text;
  return text.replace(/%/g, '%25').replace(/!/g, '%21');
}

/**
 * Smallest string greater than every key that starts with `prefix`, in LevelDB's order (the
 * bytes of the UTF-8 key, which is code point order): the prefix with its last code point
 * incremented. Appending a "high" character instead would cut off keys whose next character
 * lies above it — `prefix + '\xff'` left out every topic from U+00FF on.
 */
export function prefixEnd(prefix: string): string {
  const points = Array.from(prefix);
  while (points.length > 0) {
    const last = points.pop()!.codePointAt(0)!;
    if (last >= 0x10ffff) continue; // nothing above it: the end lies past the character before
    // Surrogates are not characters: UTF-8 has no bytes for them, so U+D7FF is followed by U+E000.
    const next = last === 0xd7ff ? 0xe000 : last + 1;
    return points.join('') + String.fromCodePoint(next);
  }
  throw new Error('an empty prefix has no end: scan without an upper bound');
}

export interface Range {
  gte?: string;
  gt?: string;
  lte?: string;
  lt?: string;
}

/** The range of all keys that start with `prefix`. */
export function prefixRange(prefix: string): Range {
  return { gte: prefix, lt: prefixEnd(prefix) };
}

/** Server-wide keys, outside any organization. */
export const serverKeys = {
  counter: (name: string) => `server!counter!${name}`,
  realmIndex: (realmId: number) => `server!realm!${pad(realmId)}`,
  realmIndexPrefix: 'server!realm!',
  /** An organization's id by its subdomain ('' for the root organization). */
  subdomain: (subdomain: string) => `server!subdomain!${escapePart(subdomain)}`,
  /** Organizations with timed work waiting (scheduled messages, notifications), loaded after the server listens. */
  wake: (realmId: number) => `server!wake!${pad(realmId)}`,
  wakePrefix: 'server!wake!',
  /** Written by the store's recovery to prove that a write reaches the disk again. */
  probe: 'server!probe',
};

/** Keys inside one organization: its records, its messages and their indexes, its books. */
export function realmKeys(realmId: number) {
  const r = `${realmId}!`;
  return { prefix: r, ...recordKeys(r), ...messageKeys(r), ...bookKeys(r) };
}

/** The organization's records: realm, users, groups, channels, actors. */
function recordKeys(r: string) {
  return {
    realm: `${r}realm`,
    counter: (name: string) => `${r}counter!${name}`,
    user: (id: number) => `${r}user!${pad(id)}`,
    userPrefix: `${r}user!`,
    group: (id: number) => `${r}group!${pad(id)}`,
    groupPrefix: `${r}group!`,
    channel: (id: number) => `${r}channel!${pad(id)}`,
    channelPrefix: `${r}channel!`,
    actor: (kind: string, id: string) => `${r}actor!${kind}!${id}`,
    actorPrefix: (kind: string) => `${r}actor!${kind}!`,
  };
}

/** Messages, per-user rows and read state, and the indexes messages are walked by. */
function messageKeys(r: string) {
  return {
    /** A message record. */
    message: (id: number) => `${r}msg!${pad(id)}`,
    /** A user's messages by id; the value is that user's flags bitfield. */
    userMessage: (userId: number, messageId: number) => `${r}um!${pad(userId)}!${pad(messageId)}`,
    userMessagePrefix: (userId: number) => `${r}um!${pad(userId)}!`,
    /** A user's unread rows by id (the messages unread that the read marks do not tell). */
    unread: (userId: number, messageId: number) => `${r}unread!${pad(userId)}!${pad(messageId)}`,
    unreadPrefix: (userId: number) => `${r}unread!${pad(userId)}!`,
    /** Read state per user and channel: the id through which delivered messages are read. */
    readMark: (userId: number, channelId: number) => `${r}rmark!${pad(userId)}!${pad(channelId)}`,
    /** Read state per channel, topic and user: the id through which the topic's delivered messages are read. */
    topicReadMark: (channelId: number, topicKey: string, userId: number) => `${r}tmark!${pad(channelId)}!${escapePart(topicKey)}!${pad(userId)}`,
    topicReadMarkPrefix: (channelId: number, topicKey: string) => `${r}tmark!${pad(channelId)}!${escapePart(topicKey)}!`,
    /** Every topic read mark of the organization: `tmark!{channel}!{topic}!{user}`. */
    topicReadMarksPrefix: `${r}tmark!`,
    /** When the organization moved to read marks: `{ explicitBelow }` (older messages keep per-user rows). */
    readStateCutOver: `${r}readstate`,
    /** A user's starred messages by id. */
    starred: (userId: number, messageId: number) => `${r}star!${pad(userId)}!${pad(messageId)}`,
    starredPrefix: (userId: number) => `${r}star!${pad(userId)}!`,
    /** A user's messages that mention them (personally, by group or wildcard), by id. */
    mention: (userId: number, messageId: number) => `${r}ment!${pad(userId)}!${pad(messageId)}`,
    mentionPrefix: (userId: number) => `${r}ment!${pad(userId)}!`,
    /** The recipient id of a group direct-message conversation, by its participants. */
    conversationRecipient: (conversation: string) => `${r}huddle!${conversation}`,
    conversationRecipientPrefix: `${r}huddle!`,
    /** A channel's messages by id. */
    channelMessage: (channelId: number, messageId: number) => `${r}cm!${pad(channelId)}!${pad(messageId)}`,
    channelMessagePrefix: (channelId: number) => `${r}cm!${pad(channelId)}!`,
    /** A topic's messages by id (topic compared case-insensitively, as Zulip does). */
    topicMessage: (channelId: number, topicKey: string, messageId: number) =>
      `${r}tm!${pad(channelId)}!${escapePart(topicKey)}!${pad(messageId)}`,
    topicMessagePrefix: (channelId: number, topicKey: string) => `${r}tm!${pad(channelId)}!${escapePart(topicKey)}!`,
    /** A channel's topics: the value is the topic's display name and its newest message id. */
    topic: (channelId: number, topicKey: string) => `${r}topic!${pad(channelId)}!${escapePart(topicKey)}`,
    topicPrefix: (channelId: number) => `${r}topic!${pad(channelId)}!`,
    /** A direct-message conversation's messages by id, keyed by its sorted participant ids. */
    conversationMessage: (conversation: string, messageId: number) => `${r}dm!${conversation}!${pad(messageId)}`,
    conversationMessagePrefix: (conversation: string) => `${r}dm!${conversation}!`,
    /** Messages a user sent, by id. */
    sentMessage: (userId: number, messageId: number) => `${r}sent!${pad(userId)}!${pad(messageId)}`,
    sentMessagePrefix: (userId: number) => `${r}sent!${pad(userId)}!`,
  };
}

/** The event log, queues, and the books of scheduled messages, invitations, mail, uploads and notifications. */
function bookKeys(r: string) {
  return {
    /** The event log: one entry per event with the users it is for. */
    event: (id: number) => `${r}ev!${pad(id)}`,
    eventPrefix: `${r}ev!`,
    /** Scheduled messages and reminders by id (Zulip's ScheduledMessage). */
    scheduledMessage: (id: number) => `${r}sched!${pad(id)}`,
    scheduledMessagePrefix: `${r}sched!`,
    /** Invitations by kind (`email`, `multiuse`) and id (Zulip's PreregistrationUser and MultiuseInvite). */
    invitation: (kind: string, id: number) => `${r}invite!${kind}!${pad(id)}`,
    invitationPrefix: `${r}invite!`,
    /** Mail kept for `npm run cli -- outbox` when no SMTP server is configured, by id. */
    outbox: (id: number) => `${r}outbox!${pad(id)}`,
    outboxPrefix: `${r}outbox!`,
    /** Uploaded files' records (Zulip's Attachment) by id. */
    attachment: (id: number) => `${r}attach!${pad(id)}`,
    attachmentPrefix: `${r}attach!`,
    /** Custom emoji of the organization by id (Zulip's RealmEmoji). */
    realmEmoji: (id: number) => `${r}remoji!${pad(id)}`,
    realmEmojiPrefix: `${r}remoji!`,
    /** A message edited, moved or deleted that the search index may not have taken in yet (search-index.ts). */
    searchDirty: (messageId: number) => `${r}sdirty!${pad(messageId)}`,
    searchDirtyPrefix: `${r}sdirty!`,
    /** Registered event queue descriptors, written once when the queue is registered. */
    queue: (id: string) => `${r}queue!${id}`,
    queuePrefix: `${r}queue!`,
    /** A queue's newest acknowledged event id (a few bytes, rewritten as polls acknowledge; the descriptor is not). */
    queueAck: (id: string) => `${r}qack!${id}`,
    queueAckPrefix: `${r}qack!`,
    /** Mobile pushes decided and not yet delivered, by id (actions/notification-delivery.ts). */
    pushJob: (id: number) => `${r}npush!${pad(id)}`,
    pushJobPrefix: `${r}npush!`,
    /** Missed messages waiting for a user's email batch, by user and message. */
    missedMail: (userId: number, messageId: number) => `${r}nmail!${pad(userId)}!${pad(messageId)}`,
    missedMailPrefix: `${r}nmail!`,
    /** Messages whose push is on a user's device (to be removed when read), by user and message. */
    activePush: (userId: number, messageId: number) => `${r}nactive!${pad(userId)}!${pad(messageId)}`,
    activePushPrefix: `${r}nactive!`,
    /** The secret that signs unsubscribe links. */
    notificationSecret: `${r}nsecret`,
  };
}

export type RealmKeys = ReturnType<typeof realmKeys>;
