/** The sidebar's direct message conversations: the registered recent ones and those seen since, newest first, kept until what they depend on changes. */
import { dmKey, type Message } from './types.js';

export interface RecentConversation {
  user_ids: number[];
  max_message_id: number;
}

/** Conversations (each its other people, or oneself alone) newest first, at most `limit`. */
export function recentDms(registered: readonly RecentConversation[], messages: Iterable<Message>, selfId: number, limit = 20): number[][] {
  const seen = new Map<string, { ids: number[]; latest: number }>();
  const note = (ids: number[], latest: number) => {
    const key = dmKey(ids);
    const known = seen.get(key);
    if (!known || known.latest < latest) seen.set(key, { ids, latest });
  };
  for (const c of registered) note(c.user_ids.length ? c.user_ids : [selfId], c.max_message_id);
  for (const m of messages) {
    if (m.type !== 'private' || typeof m.display_recipient === 'string') continue;
    const ids = m.display_recipient.map((r) => r.id).filter((id) => id !== selfId);
    note(ids.length ? ids.sort((a, b) => a - b) : [selfId], m.id);
  }
  return [...seen.values()].sort((a, b) => b.latest - a.latest).slice(0, limit).map((c) => c.ids);
}

/**
 * `recentDms` computed again only when its inputs change: the registered list (a new registration),
 * the message store (replaced after a lost queue) or the store's version (messages added or removed).
 * Walking every loaded message on every render cost milliseconds per render after a long scroll.
 */
export class RecentDmsMemo {
  private last: { registered: unknown; store: unknown; version: number; value: number[][] } | undefined;

  get(registered: readonly RecentConversation[], store: { byId: Map<number, Message>; version: number }, selfId: number): number[][] {
    const last = this.last;
    if (last && last.registered === registered && last.store === store && last.version === store.version) return last.value;
    const value = recentDms(registered, store.byId.values(), selfId);
    this.last = { registered, store, version: store.version, value };
    return value;
  }
}
