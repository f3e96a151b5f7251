/**
 * Where one organization keeps the serialised answers of its hottest reads (held by its
 * `Services`, never by a module, so that organizations sharing a process share nothing). Only
 * the storage lives here; what is kept and when it is still right is decided by its readers:
 * queries/message-json.ts (message objects without flags), queries/user-list-json.ts (the user
 * list per role), queries/group-list-json.ts (the user groups of POST /register) and
 * queries/scheduled-render.ts (scheduled messages' Markdown).
 */
import type { ChannelRecord } from '../domain/channel-record.js';
import type { MessageRecord } from '../domain/messages.js';
import type { RealmRecord } from '../domain/realm.js';
import type { UserRecord } from '../domain/users.js';
import type { EncodedAnswer } from '../shared/handler-result.js';
import type { RenderedMessage } from '../domain/markdown/index.js';

/** A message's serialised forms, with the records they were made from. */
export interface MessageJsonEntry {
  record: MessageRecord;
  realm: RealmRecord;
  sender: UserRecord | undefined;
  channel: ChannelRecord | undefined;
  /** Direct messages: the participants' records, in `dmUserIds` order. */
  people: readonly (UserRecord | undefined)[] | undefined;
  /** By variant: a comma, then the object's JSON without its closing brace and without flags, as UTF-8. */
  forms: (Buffer | undefined)[];
  /** The same without the comma, for the first message of a list (made when first asked). */
  firstForms: (Buffer | undefined)[];
}

export class MessageJsonEntries {
  private readonly entries = new Map<number, MessageJsonEntry>();
  /** `,"flags":[…]}` (with the object's closing brace) by flag bitfield, as UTF-8: a handful of distinct values. */
  readonly flagsJson = new Map<number, Buffer>();
  /** Encodings made and reused (tests and benches see the cache at work). */
  readonly counts = { encoded: 0, reused: 0 };

  /** As many as the message store keeps decoded records (store/messages.ts): an entry is valid only with its record. */
  constructor(private readonly maxEntries = 100_000) {}

  get(id: number): MessageJsonEntry | undefined {
    return this.entries.get(id);
  }

  /** Keeps an entry (replacing the message's previous one); the oldest go past the bound. */
  set(id: number, entry: MessageJsonEntry): void {
    this.entries.delete(id);
    this.entries.set(id, entry);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}

/** One way of listing the users: `"members":[…]`, where each member lies in it, the encoded answer. */
export interface UserListForm {
  json: string;
  spans: Map<number, readonly [number, number]>;
  encoded: EncodedAnswer;
  /** When (unix seconds) a form that depends on the clock (who is long-term idle) must be rebuilt. */
  expiresAt?: number;
}

export class UserListForms {
  /** The user directory's version the forms were made at. */
  version = -1;
  readonly forms = new Map<string, UserListForm>();
  /** Lists built and reused (tests and benches see the cache at work). */
  readonly counts = { built: 0, reused: 0 };
}

/** Serialised lists of POST /register, each with the stamp of the versions it was made at. */
export class StampedTexts {
  readonly texts = new Map<string, { stamp: string; json: Buffer }>();
  /** Texts built and reused (tests and benches see the cache at work). */
  readonly counts = { built: 0, reused: 0 };
}

export class ReadCaches {
  readonly messages = new MessageJsonEntries();
  readonly userLists = new UserListForms();
  readonly registerTexts = new StampedTexts();
  /** Scheduled messages' renders by id, with their stamps (queries/scheduled-render.ts). */
  readonly scheduledRenders = new Map<number, { content: string; stamp: string; rendered: RenderedMessage }>();
}
