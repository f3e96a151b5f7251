/**
 * Message records as the cache keeps them (store/messages.ts): built field by field, in one order
 * per kind, so that V8 gives every cached record the same hidden class with its fields inside the
 * object; msgpackr's decoded objects grow theirs one by one and carry a separate property array.
 * Empty lists are one shared frozen list, and the client name is shared between records. At 2,000
 * people with 100,000 records cached, records were about a third of the 3.5 million objects each
 * major collection marks (a property array, a `type` and a `client` string and up to three empty
 * lists each); on one core that marking is what stalls the server longest.
 */
import type { MessageRecord } from '../domain/messages.js';
import { Interner } from '../shared/interner.js';
import { withOtherFields } from '../shared/other-fields.js';

/** Frozen: a reader that tried to change a record's list in place would fail loudly, not change every record's. */
const EMPTY = Object.freeze([]) as unknown as never[];

/** Client names (a handful in practice: the apps and bots of an organization). */
const clients = new Interner(256);

const listOrEmpty = <T>(list: T[]): T[] => (list.length === 0 ? EMPTY : list);

/**
 * The record in its cached shape: the same fields and values, fewer objects. Two literals, not
 * one built up: a literal with every field is what gets the fields inside the object.
 */
export function compactRecord(r: MessageRecord): MessageRecord {
  const compact: MessageRecord =
    r.type === 'stream'
      ? {
          id: r.id,
          senderId: r.senderId,
          type: 'stream',
          channelId: r.channelId,
          topic: r.topic,
          recipientId: r.recipientId,
          content: r.content,
          renderedContent: r.renderedContent,
          timestamp: r.timestamp,
          client: clients.get(r.client),
          userIds: listOrEmpty(r.userIds),
          reactions: listOrEmpty(r.reactions),
          editHistory: listOrEmpty(r.editHistory),
        }
      : {
          id: r.id,
          senderId: r.senderId,
          type: 'private',
          recipientId: r.recipientId,
          dmUserIds: r.dmUserIds,
          content: r.content,
          renderedContent: r.renderedContent,
          timestamp: r.timestamp,
          client: clients.get(r.client),
          userIds: listOrEmpty(r.userIds),
          reactions: listOrEmpty(r.reactions),
          editHistory: listOrEmpty(r.editHistory),
        };
  // Rare fields (`explicit`, `submessages`), and any this version does not know, added only where
  // present: a record never shows a key it did not have, nor loses one when it is saved again.
  return withOtherFields(compact, r);
}
