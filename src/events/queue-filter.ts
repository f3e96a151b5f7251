/** Which events a queue accepts: its event types, its capabilities, and (for messages) its narrow. */
import { badRequest } from '../domain/errors.js';
import { Flag, MENTION_BITS } from '../domain/messages.js';
import { RESOLVED_TOPIC_PREFIX } from '../domain/topics.js';
import type { QueueDescriptor } from './event-queue.js';

const NARROW_OPERATORS = new Set(['channel', 'stream', 'topic', 'sender', 'is']);

/** Zulip's check for narrows given to POST /register: only these operators filter events. */
export function checkEventNarrow(narrow: unknown): [string, string][] {
  if (!Array.isArray(narrow)) throw badRequest('narrow is not a list');
  return narrow.map((term, index) => {
    if (!Array.isArray(term) || term.length !== 2 || typeof term[0] !== 'string' || typeof term[1] !== 'string') {
      throw badRequest(`narrow[${index}] is not a list of two strings`);
    }
    const [operator, operand] = term as [string, string];
    if (!NARROW_OPERATORS.has(operator)) throw badRequest(`Operator ${operator} not supported.`);
    if (operator === 'is' && operand === 'followed') throw badRequest(`Operand ${operand} not supported.`);
    return [operator, operand];
  });
}

function messageMatches(narrow: readonly [string, string][], message: Record<string, unknown>, flags: number): boolean {
  const lower = (value: unknown) => String(value).toLowerCase();
  for (const [operator, operand] of narrow) {
    switch (operator) {
      case 'channel':
      case 'stream':
        if (message.type !== 'stream' || lower(message.display_recipient) !== operand.toLowerCase()) return false;
        break;
      case 'topic':
        if (message.type !== 'stream' || lower(message.subject) !== operand.toLowerCase()) return false;
        break;
      case 'sender':
        if (lower(message.sender_email) !== operand.toLowerCase()) return false;
        break;
      case 'is':
        if ((operand === 'dm' || operand === 'private') && message.type !== 'private') return false;
        if (operand === 'starred' && !(flags & Flag.starred)) return false;
        if (operand === 'unread' && flags & Flag.read) return false;
        if (operand === 'mentioned' && !(flags & MENTION_BITS)) return false;
        if (operand === 'alerted' && !(flags & Flag.has_alert_word)) return false;
        if (operand === 'resolved' && !(message.type === 'stream' && String(message.subject).startsWith(RESOLVED_TOPIC_PREFIX))) return false;
        break;
    }
  }
  return true;
}

/**
 * Deactivating a group is an update for queues that know deactivated groups and a `remove` for
 * the others; reactivating it, an update for the first and an `add` again for the others.
 */
function acceptsGroupEvent(d: QueueDescriptor, event: Record<string, unknown>): boolean {
  const knowsDeactivated = d.capabilities.includeDeactivatedGroups === true;
  if (event.op === 'remove' || event.for_reactivation === true) return !knowsDeactivated;
  if (event.op === 'update' && 'deactivated' in (event.data as Record<string, unknown>)) return knowsDeactivated;
  return true;
}

export function acceptsEvent(d: QueueDescriptor, event: Record<string, unknown>, flags: number | undefined): boolean {
  const type = event.type as string;
  if (d.eventTypes !== null && !d.eventTypes.includes(type)) return false;
  // The legacy muted_topics event is for clients that do not know user_topic.
  if (type === 'muted_topics' && d.eventTypes?.includes('user_topic')) return false;
  if (type === 'typing' && 'stream_id' in event && !d.capabilities.streamTypingNotifications) return false;
  if (type === 'user_group') return acceptsGroupEvent(d, event);
  // Linkifiers hold URL templates since feature level 176: only for clients that say they read them.
  if (type === 'realm_linkifiers' && d.capabilities.linkifierUrlTemplate !== true) return false;
  // Clients that take the `user_settings` object get `user_settings` events, not the legacy ones.
  if ((type === 'update_display_settings' || type === 'update_global_notifications') && d.capabilities.userSettingsObject) return false;
  if (type === 'message' && d.narrow.length > 0) return messageMatches(d.narrow, event.message as Record<string, unknown>, flags ?? 0);
  return true;
}
