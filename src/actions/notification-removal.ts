/**
 * Notifications leave the phone when their message is read elsewhere or deleted: a `remove` push
 * is queued in the same write for every user on whose devices a push of those messages stands
 * (Zulip's handle_remove_push_notification, queued by do_update_message_flags, do_mark_*_as_read
 * and, for deletions, do_delete_messages).
 */
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';

/** `ids`: the messages just marked read, or 'all' (mark everything as read). */
export function removeReadPushes(services: Services, tx: Transaction, userId: number, ids: readonly number[] | 'all'): void {
  const active = services.notifications.activePushes(userId);
  if (active.size === 0) return;
  const read = ids === 'all' ? [...active] : ids.filter((id) => active.has(id));
  if (read.length === 0) return;
  for (const id of read) services.notifications.setActivePush(userId, id, false, tx);
  services.notifications.addJob({ kind: 'remove', userId, messageIds: read }, tx);
}

/** Deleted messages: one `remove` job per user whose devices show any of them. */
export function removeDeletedPushes(services: Services, tx: Transaction, messageIds: readonly number[]): void {
  const { notifications } = services;
  const byUser = new Map<number, number[]>();
  for (const messageId of messageIds) {
    for (const userId of notifications.activePushHolders(messageId)) {
      let ids = byUser.get(userId);
      if (!ids) byUser.set(userId, (ids = []));
      ids.push(messageId);
    }
  }
  for (const [userId, ids] of byUser) {
    for (const id of ids) notifications.setActivePush(userId, id, false, tx);
    notifications.addJob({ kind: 'remove', userId, messageIds: ids }, tx);
  }
}
