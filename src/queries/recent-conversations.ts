/**
 * `recent_private_conversations` of POST /register: the user's direct-message conversations among
 * their newest 1,000 direct messages (Zulip's cap), each with its newest message id and the other
 * participants, newest conversation first. Every direct message has a per-user row (see
 * "Per-user message state" in docs/architecture.md), so the user's row index, walked from the
 * newest, holds them all; channel rows met on the way (mentions, stars) are skipped.
 */
import type { Services } from '../services.js';

/** Zulip's RECENT_CONVERSATIONS_LIMIT: direct messages looked at, not conversations returned. */
export const RECENT_CONVERSATIONS_MESSAGE_LIMIT = 1000;

export interface RecentConversation {
  max_message_id: number;
  /** The other participants, ascending; empty for the conversation with oneself. */
  user_ids: number[];
}

export async function recentPrivateConversations(services: Services, userId: number): Promise<RecentConversation[]> {
  const conversations = new Map<string, RecentConversation>();
  let seen = 0;
  for await (const id of services.messages.ids({ of: 'rows', userId }, { reverse: true })) {
    const record = services.messages.get(id);
    if (record?.type !== 'private' || !record.dmUserIds) continue;
    const key = record.dmUserIds.join(',');
    // The walk is newest first, so the first message met is the conversation's newest.
    if (!conversations.has(key)) {
      const others = record.dmUserIds.filter((other) => other !== userId).sort((a, b) => a - b);
      conversations.set(key, { max_message_id: id, user_ids: others });
    }
    if (++seen === RECENT_CONVERSATIONS_MESSAGE_LIMIT) break;
  }
  return [...conversations.values()];
}
