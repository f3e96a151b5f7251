/**
 * Messages read elsewhere leave the phone: when a user reads messages whose push stands on their
 * devices, a `remove` push is queued in the same write (Zulip's handle_remove_push_notification,
 * queued by do_update_message_flags and do_mark_*_as_read).
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
