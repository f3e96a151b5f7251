/**
 * The narrow predicate: whether one message matches a narrow's terms for one reader, as Zulip's
 * narrow_predicate. GET /messages (queries/message-query.ts) runs it on stored records, event
 * queues (events/queue-filter.ts) on each event's message with the narrow given to POST /register.
 */
import { badRequest } from './errors.js';
import { Flag, MENTION_BITS, conversationKey, type MessageRecord } from './messages.js';
import type { ChannelRecord } from './channel-record.js';
import type { Term } from './narrow.js';
import { RESOLVED_TOPIC_PREFIX, topicKey } from './topics.js';
import { topicMuted, VisibilityPolicy } from './topic-visibility.js';

/**
 * A term the predicate checks: a resolved term of GET /messages, or one of an event narrow,
 * which names its channel and sender as sent (compared without case, as the event's message says them).
 */
export type PredicateTerm =
  | Term
  | { kind: 'channel-name'; name: string; negated: boolean }
  | { kind: 'sender-email'; email: string; negated: boolean };

/** A message as the predicate sees it: a stored record, or an event's message in the same shape (with the names it carries). */
export type NarrowMessage = Pick<MessageRecord, 'id' | 'type' | 'channelId' | 'topic' | 'senderId' | 'dmUserIds' | 'content' | 'renderedContent' | 'reactions'> & {
  channelName?: string;
  senderEmail?: string;
};

/** What the predicate asks about the reader and the organization (only GET /messages has terms that ask). */
export interface NarrowReader {
  topicPolicy(channelId: number, topicKey: string): number;
  channelMuted(channelId: number): boolean;
  channel(channelId: number): Pick<ChannelRecord, 'isWebPublic' | 'inviteOnly' | 'historyPublicToSubscribers'> | undefined;
  /** Whether the message's text matches a `search` term (the full-text rules live with the index). */
  matchesSearch(term: Extract<Term, { kind: 'search' }>, message: NarrowMessage): boolean;
}

/** Every term holds (a negated one does not match). */
export function narrowMatches(terms: readonly PredicateTerm[], message: NarrowMessage, flags: number, reader: NarrowReader): boolean {
  for (const term of terms) if (termMatches(term, message, flags, reader) === term.negated) return false;
  return true;
}

/** In a muted channel (unless the topic is unmuted or followed) or a muted topic. */
export function messageMuted(message: NarrowMessage, reader: NarrowReader): boolean {
  if (message.type !== 'stream') return false;
  return topicMuted(reader.topicPolicy(message.channelId!, topicKey(message.topic!)), reader.channelMuted(message.channelId!));
}

/** Whether the message matches the term, negation aside. */
export function termMatches(term: PredicateTerm, message: NarrowMessage, flags: number, reader: NarrowReader): boolean {
  switch (term.kind) {
    case 'channel':
      return message.type === 'stream' && message.channelId === term.channelId;
    case 'channel-name':
      return message.type === 'stream' && String(message.channelName).toLowerCase() === term.name.toLowerCase();
    case 'channels': {
      if (message.type !== 'stream') return false;
      const channel = reader.channel(message.channelId!);
      return channel !== undefined && (term.which === 'web-public' ? channel.isWebPublic : !channel.inviteOnly && channel.historyPublicToSubscribers);
    }
    case 'topic':
      // The same text is the same topic: no lowercased copies for a page of one topic.
      return message.type === 'stream' && (message.topic === term.topic || topicKey(message.topic!) === topicKey(term.topic));
    case 'sender':
      return message.senderId === term.userId;
    case 'sender-email':
      return String(message.senderEmail).toLowerCase() === term.email.toLowerCase();
    case 'dm':
      return message.type === 'private' && term.key !== undefined && conversationKey(message.dmUserIds!) === term.key;
    case 'dm-including':
      return message.type === 'private' && message.dmUserIds!.includes(term.userId);
    case 'group-dm-with':
      return message.type === 'private' && message.dmUserIds!.length > 2 && message.dmUserIds!.includes(term.userId);
    case 'is':
      return isMatches(term.what, message, flags, reader);
    case 'has':
      return hasMatches(term.what, message);
    case 'in':
      return term.what === 'all' || !messageMuted(message, reader);
    case 'id':
      return message.id === term.id;
    case 'search':
      return reader.matchesSearch(term, message);
    case 'with':
      return true;
  }
}

function isMatches(what: Extract<Term, { kind: 'is' }>['what'], message: NarrowMessage, flags: number, reader: NarrowReader): boolean {
  switch (what) {
    case 'dm':
      return message.type === 'private';
    case 'starred':
      return (flags & Flag.starred) !== 0;
    case 'unread':
      return (flags & Flag.read) === 0;
    case 'mentioned':
      return (flags & MENTION_BITS) !== 0;
    case 'alerted':
      return (flags & Flag.has_alert_word) !== 0;
    case 'resolved':
      return message.type === 'stream' && message.topic!.startsWith(RESOLVED_TOPIC_PREFIX);
    case 'followed':
      return message.type === 'stream' && reader.topicPolicy(message.channelId!, topicKey(message.topic!)) === VisibilityPolicy.FOLLOWED;
    case 'muted':
      return messageMuted(message, reader);
  }
}

function hasMatches(what: Extract<Term, { kind: 'has' }>['what'], message: NarrowMessage): boolean {
  switch (what) {
    case 'link':
      return message.renderedContent.includes('<a ');
    case 'image':
      return message.renderedContent.includes('<img') && !message.renderedContent.includes('class="emoji"');
    case 'attachment':
      return message.content.includes('/user_uploads/');
    case 'reaction':
      return message.reactions.length > 0;
  }
}

const EVENT_NARROW_OPERATORS = new Set(['channel', 'stream', 'topic', 'sender', 'is']);

/** Zulip's check for narrows given to POST /register: only these operators filter events. */
export function checkEventNarrow(narrow: unknown): [string, string][] {
  if (!Array.isArray(narrow)) throw badRequest('narrow is not a list');
  return narrow.map((term, index) => {
    if (!Array.isArray(term) || term.length !== 2 || typeof term[0] !== 'string' || typeof term[1] !== 'string') {
      throw badRequest(`narrow[${index}] is not a list of two strings`);
    }
    const [operator, operand] = term as [string, string];
    if (!EVENT_NARROW_OPERATORS.has(operator)) throw badRequest(`Operator ${operator} not supported.`);
    if (operator === 'is' && operand === 'followed') throw badRequest(`Operand ${operand} not supported.`);
    return [operator, operand];
  });
}

/** The `is` operands an event narrow filters by; the others pass every message, as before. */
const EVENT_IS_OPERANDS: Readonly<Record<string, Extract<Term, { kind: 'is' }>['what']>> = {
  dm: 'dm', private: 'dm', starred: 'starred', unread: 'unread', mentioned: 'mentioned', alerted: 'alerted', resolved: 'resolved',
};

/** An event narrow (checked by `checkEventNarrow`) as predicate terms: channels and senders by name, as the event's message names them. */
export function eventNarrowTerms(narrow: readonly (readonly [string, string])[]): PredicateTerm[] {
  const terms: PredicateTerm[] = [];
  for (const [operator, operand] of narrow) {
    if (operator === 'channel' || operator === 'stream') terms.push({ kind: 'channel-name', name: operand, negated: false });
    else if (operator === 'topic') terms.push({ kind: 'topic', topic: operand, negated: false });
    else if (operator === 'sender') terms.push({ kind: 'sender-email', email: operand, negated: false });
    else if (operator === 'is' && Object.hasOwn(EVENT_IS_OPERANDS, operand)) terms.push({ kind: 'is', what: EVENT_IS_OPERANDS[operand], negated: false });
  }
  return terms;
}
