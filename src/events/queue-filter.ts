/** Which events a queue accepts: its event types, its capabilities, and (for messages) its narrow, by the one narrow predicate (domain/narrow-predicate.ts). */
import { eventNarrowTerms, narrowMatches, type NarrowMessage, type NarrowReader, type PredicateTerm } from '../domain/narrow-predicate.js';
import type { QueueDescriptor } from './event-queue.js';

/** An event narrow as predicate terms, once per narrow (descriptors keep the narrow as sent). */
const termsOfNarrow = new WeakMap<readonly [string, string][], PredicateTerm[]>();

/** Event narrows have no terms that ask about the reader (checkEventNarrow refuses them). */
const NO_READER: NarrowReader = {
  topicPolicy: () => 0,
  channelMuted: () => false,
  channel: () => undefined,
  // Event narrows have no `search` operator (checkEventNarrow refuses it).
  matchesSearch: () => true,
};

/** The event's message as the narrow predicate sees it. */
function narrowMessage(message: Record<string, unknown>): NarrowMessage {
  const recipient = message.display_recipient;
  return {
    id: message.id as number,
    type: message.type === 'stream' ? 'stream' : 'private',
    channelId: message.stream_id as number | undefined,
    channelName: typeof recipient === 'string' ? recipient : undefined,
    topic: message.subject as string | undefined,
    senderId: message.sender_id as number,
    senderEmail: message.sender_email as string,
    dmUserIds: Array.isArray(recipient) ? recipient.map((user: { id: number }) => user.id) : undefined,
    content: String(message.content ?? ''),
    renderedContent: String(message.content ?? ''),
    reactions: [],
  };
}

function messageMatches(narrow: readonly [string, string][], message: Record<string, unknown>, flags: number): boolean {
  let terms = termsOfNarrow.get(narrow);
  if (!terms) termsOfNarrow.set(narrow, (terms = eventNarrowTerms(narrow)));
  return narrowMatches(terms, narrowMessage(message), flags, NO_READER);
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
  // A deletion of several messages: one event for queues that take bulk deletions, one per message for the others.
  if (type === 'delete_message' && typeof event.for_bulk_message_deletion === 'boolean') return event.for_bulk_message_deletion === d.capabilities.bulkMessageDeletion;
  // Archiving and unarchiving a channel: an update for queues that know archived channels, a deletion or creation for the others.
  if (type === 'stream' && typeof event.for_archived_channels === 'boolean') return event.for_archived_channels === (d.capabilities.archivedChannels === true);
  // Linkifiers hold URL templates since feature level 176: only for clients that say they read them.
  if (type === 'realm_linkifiers' && d.capabilities.linkifierUrlTemplate !== true) return false;
  // Clients that take the `user_settings` object get `user_settings` events, not the legacy ones.
  if ((type === 'update_display_settings' || type === 'update_global_notifications') && d.capabilities.userSettingsObject) return false;
  if (type === 'message' && d.narrow.length > 0) return messageMatches(d.narrow, event.message as Record<string, unknown>, flags ?? 0);
  return true;
}
