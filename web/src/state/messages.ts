/**
 * Messages known to the client and the lists that show them: one list per narrow, each a sorted
 * run of ids with whether its oldest and newest ends were reached. Fetched pages, live events
 * and local echoes all go through here, so that no message is shown twice or lost.
 */
import { matches, narrowKey, type MutedTest, type Narrow } from './narrow.js';
import type { Message, Reaction } from './types.js';

export interface MessageList {
  narrow: Narrow;
  ids: number[];
  foundOldest: boolean;
  foundNewest: boolean;
}

export interface FetchedPage {
  messages: Message[];
  found_oldest: boolean;
  found_newest: boolean;
}

/** Fields of an `update_message` event this store applies. */
export interface MessageUpdate {
  message_id?: number;
  message_ids: number[];
  rendered_content?: string;
  edit_timestamp?: number;
  subject?: string;
  new_stream_id?: number;
}

export class MessageStore {
  readonly byId = new Map<number, Message>();
  private readonly lists = new Map<string, MessageList>();
  /** Local echoes by the `local_id` they were sent with. */
  private readonly echoes = new Map<string, number>();
  /** Echoes the server acknowledged (its id → the local id) whose event has not arrived yet. */
  private readonly acknowledged = new Map<number, string>();
  private echoCount = 0;
  private changes = 0;

  /** Bumped when messages are added or removed (what lists derived from all messages are keyed on). */
  get version(): number {
    return this.changes;
  }

  /** `muted` tells which messages the combined feed (`in:home`) leaves out. */
  constructor(private readonly selfId: number, private readonly muted?: MutedTest) {}

  list(narrow: Narrow): MessageList | undefined {
    return this.lists.get(narrowKey(narrow));
  }

  /** Forgets every list and message (after a re-registration: the server's answer is the truth again). */
  clear(): void {
    this.changes++;
    this.byId.clear();
    this.lists.clear();
    this.echoes.clear();
    this.acknowledged.clear();
  }

  /**
   * Forgets the lists whose narrows depend on what is muted (`in:home`), after a topic or channel
   * was muted or unmuted: they are fetched again when shown, as Zulip's client does.
   */
  forgetMuteDependent(): void {
    for (const [key, list] of this.lists) if (list.narrow.some((t) => t.operator === 'in')) this.lists.delete(key);
  }

  /** Adds a page from GET /messages to the narrow's list (older pages, newer pages, or the first). */
  addPage(narrow: Narrow, page: FetchedPage, direction: 'older' | 'newer' | 'around'): MessageList {
    this.changes++;
    const key = narrowKey(narrow);
    let list = this.lists.get(key);
    if (!list) {
      list = { narrow, ids: [], foundOldest: false, foundNewest: false };
      this.lists.set(key, list);
    }
    for (const message of page.messages) this.byId.set(message.id, { ...message, reactions: message.reactions ?? [] });
    list.ids = mergeSorted(list.ids, page.messages.map((m) => m.id));
    if (direction !== 'newer') list.foundOldest ||= page.found_oldest;
    if (direction !== 'older') list.foundNewest ||= page.found_newest;
    return list;
  }

  /** A message event: stored, placed in every list it matches whose newest end is loaded; replaces its echo. */
  addLive(message: Message, flags: readonly string[], localId?: string): void {
    this.changes++;
    if (localId !== undefined) this.dropEcho(localId);
    // An event without the local id (another queue's, or a queue lost and restored) still replaces an acknowledged echo.
    const acknowledged = this.acknowledged.get(message.id);
    if (acknowledged !== undefined) {
      this.acknowledged.delete(message.id);
      this.dropEcho(acknowledged);
    }
    if (this.byId.has(message.id)) return;
    const stored: Message = { ...message, flags: [...flags], reactions: message.reactions ?? [] };
    this.byId.set(stored.id, stored);
    for (const list of this.lists.values()) {
      if (list.foundNewest && matches(list.narrow, stored, this.selfId, this.muted)) list.ids = mergeSorted(list.ids, [stored.id]);
    }
  }

  /** Shows a message being sent at once, below the newest; `addLive` with the same local id replaces it. */
  addEcho(draft: Omit<Message, 'id' | 'flags' | 'reactions' | 'local_id'>): Message {
    this.changes++;
    const localId = `${Date.now().toString(36)}.${++this.echoCount}`;
    let newest = 0;
    for (const id of this.byId.keys()) if (id > newest) newest = id;
    const echo: Message = { ...draft, id: Math.floor(newest) + this.echoCount / 1000 + 0.0001, flags: ['read'], reactions: [], local_id: localId };
    this.echoes.set(localId, echo.id);
    this.byId.set(echo.id, echo);
    for (const list of this.lists.values()) {
      if (list.foundNewest && matches(list.narrow, echo, this.selfId, this.muted)) list.ids = mergeSorted(list.ids, [echo.id]);
    }
    return echo;
  }

  /** The send was refused or never reached the server: the echo stays, marked failed. */
  failEcho(localId: string): void {
    const id = this.echoes.get(localId);
    const echo = id === undefined ? undefined : this.byId.get(id);
    if (echo) this.byId.set(echo.id, { ...echo, failed: true });
  }

  /**
   * The server acknowledged the echo's message with its id. Its event replaces the echo, whichever
   * comes first: if the message is here already, the echo goes now.
   */
  confirmEcho(localId: string, messageId: number): void {
    if (!this.echoes.has(localId)) return;
    if (this.byId.has(messageId)) this.dropEcho(localId);
    else this.acknowledged.set(messageId, localId);
  }

  dropEcho(localId: string): void {
    const id = this.echoes.get(localId);
    if (id === undefined) return;
    this.echoes.delete(localId);
    this.remove([id]);
  }

  remove(ids: readonly number[]): void {
    this.changes++;
    const gone = new Set(ids);
    for (const id of ids) this.byId.delete(id);
    for (const list of this.lists.values()) if (list.ids.some((id) => gone.has(id))) list.ids = list.ids.filter((id) => !gone.has(id));
  }

  /** An edit or a move: new content, topic or channel; lists the message no longer matches drop it. */
  update(event: MessageUpdate): void {
    const ids = event.message_ids.length ? event.message_ids : event.message_id !== undefined ? [event.message_id] : [];
    for (const id of ids) {
      const old = this.byId.get(id);
      if (!old) continue;
      const changed: Message = { ...old };
      if (id === event.message_id && event.rendered_content !== undefined) {
        changed.content = event.rendered_content;
        if (event.edit_timestamp !== undefined) changed.last_edit_timestamp = event.edit_timestamp;
      }
      if (event.subject !== undefined) changed.subject = event.subject;
      if (event.new_stream_id !== undefined) changed.stream_id = event.new_stream_id;
      this.byId.set(id, changed);
    }
    if (event.subject === undefined && event.new_stream_id === undefined) return;
    for (const list of this.lists.values()) {
      list.ids = list.ids.filter((id) => {
        const m = this.byId.get(id);
        return !m || !ids.includes(id) || matches(list.narrow, m, this.selfId, this.muted) !== false;
      });
    }
  }

  react(op: 'add' | 'remove', messageId: number, reaction: Reaction): void {
    const m = this.byId.get(messageId);
    if (!m) return;
    const same = (r: Reaction) => r.user_id === reaction.user_id && r.emoji_code === reaction.emoji_code && r.reaction_type === reaction.reaction_type;
    const others = m.reactions.filter((r) => !same(r));
    this.byId.set(messageId, { ...m, reactions: op === 'add' ? [...others, reaction] : others });
  }

  /** Flags changed (the user's own, on any of their devices); `all` covers every message known. How many messages changed. */
  flag(op: 'add' | 'remove', flag: string, ids: readonly number[], all = false): number {
    const targets = all ? [...this.byId.keys()] : ids;
    let changed = 0;
    for (const id of targets) {
      const m = this.byId.get(id);
      if (!m) continue;
      const has = m.flags.includes(flag);
      if (op === 'add' && !has) this.byId.set(id, { ...m, flags: [...m.flags, flag] });
      if (op === 'remove' && has) this.byId.set(id, { ...m, flags: m.flags.filter((f) => f !== flag) });
      if (has !== (op === 'add')) changed++;
    }
    // A list of starred (or unread) messages follows the flag when its newest end is loaded.
    if (flag !== 'starred' || all) return changed;
    for (const list of this.lists.values()) {
      if (!list.narrow.some((t) => t.operator === 'is' && t.operand === 'starred')) continue;
      const keep = ids.filter((id) => this.byId.has(id) && matches(list.narrow, this.byId.get(id)!, this.selfId, this.muted));
      list.ids = mergeSorted(list.ids.filter((id) => !ids.includes(id)), keep);
    }
    return changed;
  }

  messagesOf(list: MessageList): Message[] {
    return list.ids.map((id) => this.byId.get(id)).filter((m): m is Message => m !== undefined);
  }
}

/** Two ascending id lists merged, without duplicates. */
export function mergeSorted(a: readonly number[], b: readonly number[]): number[] {
  const sortedB = [...b].sort((x, y) => x - y);
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < sortedB.length) {
    const next = j >= sortedB.length || (i < a.length && a[i]! <= sortedB[j]!) ? a[i++]! : sortedB[j++]!;
    if (out[out.length - 1] !== next) out.push(next);
  }
  return out;
}
