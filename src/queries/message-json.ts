/**
 * The JSON of message objects for GET /messages, encoded once per message and way of formatting
 * and shared by every reader: a message's object is the same for everyone but its `flags` (and,
 * in a 1:1 conversation, `recipient_id` for the one who did not send it), so the object without
 * flags is kept serialised (as UTF-8) and each reader's flags are appended to it.
 *
 * Validity is checked, not trusted: an entry remembers the records it was encoded from (the
 * message, its sender, its channel or its participants, the realm) and is used only while each
 * of them is still the one in memory. Records are replaced, never mutated, on every write that
 * changes them (edits, moves, reactions, submessages, renames, name and avatar changes, realm
 * settings and linkifiers), and a rollback puts the previous record back, so a stale entry can
 * never be served, whichever write changed what, and nothing must remember to invalidate it.
 * A deleted message is never asked for (its record is gone); its entry ages out.
 */
import type { ChannelRecord } from '../domain/channel-record.js';
import { flagList, type MessageRecord } from '../domain/messages.js';
import type { UserRecord } from '../domain/users.js';
import type { MessageJsonEntry } from '../store/read-caches.js';
import type { Services } from '../services.js';
import { messageObject, type MessageFormat } from './message-format.js';

/**
 * The sender and channel records a list of messages names, each looked up again only when the id
 * changes from the previous message's (a page is mostly one channel, often few senders). For one
 * synchronous answer only: records are replaced on every change, so it must not outlive it.
 */
export class ListLookups {
  private userId = -1;
  private user: UserRecord | undefined = undefined;
  private channelId = -1;
  private channel: ChannelRecord | undefined = undefined;
  /** The last flags' closing bytes (a page mostly has one or two flag values). */
  flags = -1;
  flagsTail: Buffer | undefined = undefined;

  constructor(private readonly services: Services) {}

  userOf(id: number): UserRecord | undefined {
    if (id !== this.userId) {
      this.userId = id;
      this.user = this.services.org.users.get(id);
    }
    return this.user;
  }

  channelOf(id: number): ChannelRecord | undefined {
    if (id !== this.channelId) {
      this.channelId = id;
      this.channel = this.services.org.channels.get(id);
    }
    return this.channel;
  }
}

/** Four bits: the three format options and "a 1:1 direct message read by its recipient". */
function variantOf(record: MessageRecord, viewerId: number, format: MessageFormat): number {
  const otherOfPair = record.type === 'private' && record.dmUserIds!.length === 2 && viewerId !== record.senderId;
  return (+format.applyMarkdown) | (+format.clientGravatar << 1) | (+format.allowEmptyTopicName << 2) | (+otherOfPair << 3);
}

/**
 * The message object as `viewerId` sees it with these flags, as UTF-8 bytes, appended to `out`
 * after a comma unless `first` in its list: the object without flags (shared by every reader,
 * encoded once) and `,"flags":[…]` with `extra` (more fields, `,"a":…`) and the closing brace.
 * Bytes, not text: the answer is then joined by copying (see message-fetch.ts), where a long
 * string had to be flattened and encoded again for every answer.
 */
export function messageBytes(
  services: Services, record: MessageRecord, viewerId: number, flags: number, format: MessageFormat, out: Buffer[], first: boolean, extra = '',
  lookups = new ListLookups(services),
): void {
  const cache = services.readCaches.messages;
  const variant = variantOf(record, viewerId, format);
  const entry = currentEntry(services, record, lookups);
  let form = entry.forms[variant];
  if (form === undefined) {
    form = Buffer.from(',' + JSON.stringify(messageObject(services, record, viewerId, format)).slice(0, -1));
    entry.forms[variant] = form;
    cache.counts.encoded++;
  } else {
    cache.counts.reused++;
  }
  out.push(first ? (entry.firstForms[variant] ??= form.subarray(1)) : form);
  if (extra !== '') {
    out.push(Buffer.from(`,"flags":${JSON.stringify(flagList(flags))}${extra}}`));
    return;
  }
  if (lookups.flags !== flags || lookups.flagsTail === undefined) {
    let tail = cache.flagsJson.get(flags);
    if (tail === undefined) cache.flagsJson.set(flags, (tail = Buffer.from(`,"flags":${JSON.stringify(flagList(flags))}}`)));
    lookups.flags = flags;
    lookups.flagsTail = tail;
  }
  out.push(lookups.flagsTail);
}

/** The entry of this record, emptied if anything it was encoded from has changed since. */
function currentEntry(services: Services, record: MessageRecord, lookups: ListLookups): MessageJsonEntry {
  const { org } = services;
  const cache = services.readCaches.messages;
  const entry = cache.get(record.id);
  if (entry && entry.record === record && entry.realm === org.realm && sameNames(services, entry, record, lookups)) return entry;
  const fresh: MessageJsonEntry = {
    record,
    realm: org.realm,
    sender: lookups.userOf(record.senderId),
    channel: record.type === 'stream' ? lookups.channelOf(record.channelId!) : undefined,
    people: record.type === 'private' ? record.dmUserIds!.map((id) => org.users.get(id)) : undefined,
    forms: [],
    firstForms: [],
  };
  // Kept only beside a kept record: an entry is valid only with its record, and a record read
  // once from the store is not kept (store/record-cache.ts), so its entry would only be churn.
  if (services.messages.cache.peek(record.id) === record) cache.set(record.id, fresh);
  return fresh;
}

function sameNames(services: Services, entry: MessageJsonEntry, record: MessageRecord, lookups: ListLookups): boolean {
  if (entry.sender !== lookups.userOf(record.senderId)) return false;
  if (record.type === 'stream') return entry.channel === lookups.channelOf(record.channelId!);
  const ids = record.dmUserIds!;
  const people = entry.people!;
  const { users } = services.org;
  for (let i = 0; i < ids.length; i++) if (people[i] !== users.get(ids[i]!)) return false;
  return true;
}
