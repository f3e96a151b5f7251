/**
 * Deactivating and reactivating accounts (`DELETE /users/{id}`, `DELETE /users/me`,
 * `POST /users/{id}/reactivate`). A deactivated user's key stops working at once (credentials
 * check `isActive`), their event queues go, and their reception intervals close so that nothing
 * sent while they are away becomes theirs; reactivation reopens them. They leave and rejoin the
 * subscriber lists (peer events). Group memberships stay, as in Zulip: readers leave inactive users out.
 */
import { deactivationMail } from '../domain/deactivation-mail.js';
import { ApiError, badRequest } from '../domain/errors.js';
import { adminAccessError, deactivationError, ownDeactivationError } from '../domain/roles.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { everyone, ownerCount } from '../queries/people.js';
import { sendMail } from './mail.js';
import { peersOf } from './subscriptions.js';
import { botCreationRefusal, mayAdministerBot } from '../domain/bots.js';
import { refusalError } from '../domain/permissions.js';
import { botUpdate } from './bot-events.js';

/** Zulip's checks before a bot comes back: its owner could create it now, and its name is free. */
function checkBotReactivation(services: Services, actor: UserRecord, bot: UserRecord): void {
  const refusal = botCreationRefusal(actor, services.org.realm, services.org.groups, bot.botType ?? 1);
  if (refusal) throw refusalError(refusal);
  const taken = [...services.org.users.all()].some((u) => u.isActive && u.id !== bot.id && u.fullName === bot.fullName);
  if (taken) {
    throw badRequest(`There is already an active bot named "${bot.fullName}" in this organization. To reactivate this bot, you must rename or deactivate the other one first.`);
  }
}

/** The channels the user is in a subscriber list of. */
const subscribedChannels = (services: Services, userId: number) =>
  Object.keys(services.subscriptions.channelsOf(userId)).map(Number).filter((id) => services.subscriptions.isSubscribed(userId, id));

/** Tells those who see each channel's subscribers that the user left or rejoined them (one event per channel). */
function peerEvents(services: Services, tx: Transaction, op: 'peer_add' | 'peer_remove', userId: number, channelIds: readonly number[]): void {
  for (const channelId of channelIds) {
    const channel = services.org.channels.get(channelId);
    if (!channel) continue;
    tx.emit({ type: 'subscription', op, stream_ids: [channelId], user_ids: [userId] }, peersOf(services, channel).filter((id) => id !== userId));
  }
}

/**
 * Deactivates one account in `tx`: its record and its subscriptions' intervals, with Zulip's
 * events (level 377 on): `peer_remove` for its subscriptions, then `realm_user`.
 */
function deactivateIn(services: Services, tx: Transaction, user: UserRecord): void {
  const { org } = services;
  const channels = subscribedChannels(services, user.id);
  services.subscriptions.suspend(user.id, tx);
  org.users.save({ ...user, isActive: false }, tx);
  peerEvents(services, tx, 'peer_remove', user.id, channels);
  tx.emit({ type: 'realm_user', op: 'update', person: { user_id: user.id, is_active: false } }, everyone(services));
  if (user.isBot && !user.isSystemBot) botUpdate(services, tx, user, { is_active: false });
}

/** Deactivates one account and removes its queues (`DELETE /bots/{bot_id}`). */
export function deactivateAccount(services: Services, tx: Transaction, user: UserRecord): void {
  deactivateIn(services, tx, user);
  removeQueues(services, tx, [user.id]);
}

/** Removes the queues of users just deactivated; last in a change, as it cannot be undone in memory. */
function removeQueues(services: Services, tx: Transaction, userIds: readonly number[]): void {
  for (const userId of userIds) {
    for (const queue of [...services.queues.queuesOf(userId)]) services.queues.remove(queue, tx);
  }
}

/** Deactivates `user` and, first, the bots they own (as Zulip's `do_deactivate_user`). */
function deactivateWithBots(services: Services, tx: Transaction, user: UserRecord): void {
  const bots = [...services.org.users.all()].filter((u) => u.isBot && u.isActive && u.botOwnerId === user.id);
  for (const bot of bots) deactivateIn(services, tx, bot);
  deactivateIn(services, tx, user);
  removeQueues(services, tx, [...bots.map((b) => b.id), user.id]);
}

/**
 * `DELETE /users/{user_id}`. With a `comment` (even ''), the user is told by mail, as Zulip does;
 * the mail goes with the write (the outbox) or after it is durable (SMTP).
 */
export async function deactivateUser(services: Services, actor: UserRecord, target: UserRecord, comment?: string): Promise<Record<string, never>> {
  await services.write((tx) => {
    const current = services.org.users.get(target.id)!;
    const refusal = deactivationError(actor.role, current, ownerCount(services));
    if (refusal) throw badRequest(refusal);
    deactivateWithBots(services, tx, current);
    if (comment !== undefined) {
      const { org, config } = services;
      const mail = deactivationMail({ to: current.deliveryEmail, from: config.mailFrom, realmName: org.realm.name, realmUrl: org.url, comment: comment.trim() });
      sendMail(services, tx, mail, `deactivation of user ${current.id}`);
    }
  });
  return {};
}

/** `DELETE /users/me`: anyone but the last user or the only owner. */
export async function deactivateOwnUser(services: Services, actor: UserRecord): Promise<Record<string, never>> {
  await services.write((tx) => {
    // As Zulip, bots count: the last account is the last active one of any kind.
    const active = [...services.org.users.all()].filter((u) => u.isActive && !u.isSystemBot).length;
    const refusal = ownDeactivationError(actor, active, ownerCount(services));
    if (refusal) {
      throw new ApiError('CANNOT_DEACTIVATE_LAST_USER', `Cannot deactivate the only ${refusal.entity}`, 400, { entity: refusal.entity, is_last_owner: refusal.isLastOwner });
    }
    deactivateWithBots(services, tx, services.org.users.get(actor.id)!);
  });
  return {};
}

/** `POST /users/{user_id}/reactivate`. */
export async function reactivateUser(services: Services, actor: UserRecord, target: UserRecord): Promise<Record<string, never>> {
  await services.write((tx) => {
    const current = services.org.users.get(target.id)!;
    // A bot's owner administers it as an administrator would (Zulip's can_admin_user).
    const refusal = current.isBot && mayAdministerBot(actor, current) ? undefined : adminAccessError(actor.role, current, true);
    if (refusal) throw badRequest(refusal);
    if (current.isBot) checkBotReactivation(services, actor, current);
    // Zulip answers success; nothing changes, so nothing is said.
    if (current.isActive) return;
    services.subscriptions.resume(current.id, tx);
    services.org.users.save({ ...current, isActive: true }, tx);
    tx.emit({ type: 'realm_user', op: 'update', person: { user_id: current.id, is_active: true } }, everyone(services));
    if (current.isBot) botUpdate(services, tx, current, { is_active: true });
    peerEvents(services, tx, 'peer_add', current.id, subscribedChannels(services, current.id));
  });
  return {};
}
