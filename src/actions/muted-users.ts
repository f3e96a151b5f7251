/**
 * Muting and unmuting users: the list on the muter's record, the `muted_users` event to the
 * muter's clients, and (as Zulip) the muted user's unread messages marked read for the muter.
 * New messages from a muted user arrive read (message-send.ts asks the attention index).
 */
import { mutedUsersObject, withMutedUser, withoutMutedUser, type MutedUser } from '../domain/muted-users.js';
import { LIMITS } from '../domain/versions.js';
import { LARGER_THAN_MAX_MESSAGE_ID } from '../domain/messages.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { unixSeconds } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { MessageQuery } from '../queries/message-query.js';
import { changeFlags, readAhead } from './message-flags.js';

/** Any user of the organization but the notification bot may be muted, bots and deactivated users included (as Zulip). */
const mutable = (services: Services, userId: number) => {
  const user = services.org.users.get(userId);
  return user !== undefined && !user.isSystemBot;
};

function saveList(services: Services, tx: Transaction, userId: number, list: MutedUser[]): void {
  services.org.users.save({ ...services.org.users.get(userId)!, mutedUsers: list }, tx);
  tx.emit({ type: 'muted_users', muted_users: mutedUsersObject(list) }, [userId]);
}

/** The muter's unread messages from `senderId` (the newest `maxMessagesPerFetch`, to bound one write). */
async function unreadFrom(services: Services, user: UserRecord, senderId: number): Promise<number[]> {
  const query = new MessageQuery(services, user, [
    { kind: 'sender', userId: senderId, negated: false },
    { kind: 'is', what: 'unread', negated: false },
  ]);
  const range = await query.range({ anchor: LARGER_THAN_MAX_MESSAGE_ID, numBefore: LIMITS.maxMessagesPerFetch, numAfter: 0, includeAnchor: true });
  return range.messages.map((m) => m.record.id);
}

/** `POST /users/me/muted_users/{muted_user_id}` */
export async function muteUser(services: Services, user: UserRecord, targetId: number): Promise<void> {
  const now = unixSeconds(services.clock);
  // Refused requests are refused before anything is read.
  withMutedUser(user.id, user.mutedUsers ?? [], targetId, mutable(services, targetId), now);
  const unread = await unreadFrom(services, user, targetId);
  const ahead = await readAhead(services, user, unread, 'add', 'read');
  await services.write((tx) => {
    const current = services.org.users.get(user.id)!;
    saveList(services, tx, user.id, withMutedUser(user.id, current.mutedUsers ?? [], targetId, mutable(services, targetId), now));
    if (unread.length > 0) changeFlags(services, tx, current, unread, 'add', 'read', false, ahead);
  });
}

/** `DELETE /users/me/muted_users/{muted_user_id}` */
export async function unmuteUser(services: Services, user: UserRecord, targetId: number): Promise<void> {
  await services.write((tx) => {
    const current = services.org.users.get(user.id)!;
    saveList(services, tx, user.id, withoutMutedUser(current.mutedUsers ?? [], targetId, mutable(services, targetId)));
  });
}
