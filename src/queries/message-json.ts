/**
 * The JSON of message objects for GET /messages, encoded once per message and way of formatting
 * and shared by every reader: a message's object is the same for everyone but its `flags` (and,
 * in a 1:1 conversation, `recipient_id` for the one who did not send it), so the object without
 * flags is kept serialised and each reader's flags are appended to it.
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
import type { RealmRecord } from '../domain/realm.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { messageObject, type MessageFormat } from './message-format.js';

interface Entry {
  record: MessageRecord;
  realm: RealmRecord;
  sender: UserRecord | undefined;
  channel: ChannelRecord | undefined;
  /** Direct messages: the participants' records, in `dmUserIds` order. */
  people: readonly (UserRecord | undefined)[] | undefined;
  /** By variant (see `variantOf`): the object's JSON without its closing brace and without flags. */
  forms: (string | undefined)[];
}

/** Four bits: the three format options and "a 1:1 direct message read by its recipient". */
function variantOf(record: MessageRecord, viewerId: number, format: MessageFormat): number {
  const otherOfPair = record.type === 'private' && record.dmUserIds!.length === 2 && viewerId !== record.senderId;
  return (+format.applyMarkdown) | (+format.clientGravatar << 1) | (+format.allowEmptyTopicName << 2) | (+otherOfPair << 3);
}

export class MessageJsonCache {
  private readonly entries = new Map<number, Entry>();
  /** `,"flags":[…]` by flag bitfield: a handful of distinct values. */
  private readonly flagsJson = new Map<number, string>();
  /** Encodings made and reused (tests and benches see the cache at work). */
  readonly counts = { encoded: 0, reused: 0 };

  constructor(private readonly maxEntries = 20000) {}

  /** The message object as `viewerId` sees it with these flags, as JSON (`extra`: more fields, `,"a":…`). */
  json(services: Services, record: MessageRecord, viewerId: number, flags: number, format: MessageFormat, extra = ''): string {
    const variant = variantOf(record, viewerId, format);
    const entry = this.current(services, record);
    let form = entry.forms[variant];
    if (form === undefined) {
      form = JSON.stringify(messageObject(services, record, viewerId, format)).slice(0, -1);
      entry.forms[variant] = form;
      this.counts.encoded++;
    } else {
      this.counts.reused++;
    }
    return form + this.flagsOf(flags) + extra + '}';
  }

  private flagsOf(flags: number): string {
    let json = this.flagsJson.get(flags);
    if (json === undefined) {
      json = `,"flags":${JSON.stringify(flagList(flags))}`;
      this.flagsJson.set(flags, json);
    }
    return json;
  }

  /** The entry of this record, emptied if anything it was encoded from has changed since. */
  private current(services: Services, record: MessageRecord): Entry {
    const { org } = services;
    const entry = this.entries.get(record.id);
    if (entry && entry.record === record && entry.realm === org.realm && this.sameNames(services, entry, record)) return entry;
    const fresh: Entry = {
      record,
      realm: org.realm,
      sender: org.users.get(record.senderId),
      channel: record.type === 'stream' ? org.channels.get(record.channelId!) : undefined,
      people: record.type === 'private' ? record.dmUserIds!.map((id) => org.users.get(id)) : undefined,
      forms: [],
    };
    if (entry) this.entries.delete(record.id);
    this.entries.set(record.id, fresh);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return fresh;
  }

  private sameNames(services: Services, entry: Entry, record: MessageRecord): boolean {
    const { users, channels } = services.org;
    if (entry.sender !== users.get(record.senderId)) return false;
    if (record.type === 'stream') return entry.channel === channels.get(record.channelId!);
    const ids = record.dmUserIds!;
    const people = entry.people!;
    for (let i = 0; i < ids.length; i++) if (people[i] !== users.get(ids[i]!)) return false;
    return true;
  }
}
