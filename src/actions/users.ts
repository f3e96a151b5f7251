/** Administering users: creating one, changing a name, a role, custom profile data or an address, with `realm_user` events. */
import { badRequest } from '../domain/errors.js';
import { adminAccessError, isRole, Role, roleChangeError } from '../domain/roles.js';
import { apiEmail, checkFullName, type UserRecord } from '../domain/users.js';
import { LIMITS } from '../domain/versions.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { changeRole } from './accounts.js';
import { directSystemGroups } from '../domain/system-groups.js';
import { channelVisible } from '../queries/channel-access.js';
import { channelObject } from '../queries/subscription-format.js';
import { everyone, ownerCount } from '../queries/people.js';
import { setValuesIn } from './profile-fields.js';
import { canSeeEmail, formatUser, isValidEmail } from '../domain/users.js';
import { hashPassword, isLongEnoughPassword, PASSWORD_TOO_WEAK } from '../domain/credentials.js';
import { createAccount } from './accounts.js';
import { subscribeUsers } from './subscriptions.js';
import { mayAdministerUsers, mayChangeOthersEmail, refusalError } from '../domain/permissions.js';

export { everyone };

/** What an administrator may change of a user (`PATCH /users/{id}`), as the API names it. */
export interface UserChanges {
  full_name?: string;
  role?: number;
  new_email?: string;
  profile_data?: readonly { id: number; value: unknown }[];
}

/**
 * `PATCH /users/{user_id}` and `{email}`, in Zulip's order: role, name, custom profile data, email.
 * One write: a refused part leaves the others unchanged too.
 */
export async function updateUser(services: Services, actor: UserRecord, target: UserRecord, params: UserChanges) {
  const { org } = services;
  const access = adminAccessError(actor.role, target, true);
  if (access) throw badRequest(access);
  await services.write((tx) => {
    let user = org.users.get(target.id)!;
    const recipients = everyone(services);
    if (params.role !== undefined && params.role !== user.role) {
      const role = params.role;
      if (!isRole(role)) throw badRequest('Invalid role');
      const problem = roleChangeError(actor.role, user.role, role, ownerCount(services));
      if (problem) throw badRequest(problem);
      const before = user;
      const visibleBefore = visibleChannelIds(services, before);
      user = changeRole(org, tx, user, role);
      tx.emit({ type: 'realm_user', op: 'update', person: { user_id: user.id, role } }, recipients);
      roleChangeEvents(services, tx, before, user, visibleBefore);
    }
    // As Zulip: a name of only spaces is ignored (the administrators' form sends one unchanged).
    if (params.full_name !== undefined && params.full_name !== user.fullName && params.full_name.trim() !== '') {
      const fullName = checkFullName(params.full_name, LIMITS.maxFullNameLength);
      if (fullName !== user.fullName) {
        user = { ...user, fullName };
        org.users.save(user, tx);
        tx.emit({ type: 'realm_user', op: 'update', person: { user_id: user.id, full_name: fullName } }, recipients);
      }
    }
    if (params.profile_data !== undefined) {
      if (user.isBot) throw badRequest('Bots cannot have custom profile data');
      setValuesIn(services, tx, actor, user, params.profile_data);
      user = org.users.get(user.id)!;
    }
    if (params.new_email !== undefined) changeEmail(services, tx, actor, user, params.new_email);
  });
  return {};
}

const visibleChannelIds = (services: Services, user: UserRecord) =>
  new Set([...services.org.channels.all()].filter((c) => channelVisible(services, user, c)).map((c) => c.id));

/**
 * What else a role change tells, as Zulip's `do_change_user_role`: the system groups the user
 * left and joined (`user_group` members events, to everyone), and, to the user, the channels
 * they now see or no longer see (a guest's becoming a member, and back).
 */
function roleChangeEvents(services: Services, tx: Transaction, before: UserRecord, after: UserRecord, visibleBefore: ReadonlySet<number>): void {
  const { org } = services;
  const left = directSystemGroups(before.role).filter((name) => !directSystemGroups(after.role).includes(name));
  const joined = directSystemGroups(after.role).filter((name) => !directSystemGroups(before.role).includes(name));
  for (const name of left) tx.emit({ type: 'user_group', op: 'remove_members', group_id: org.realm.systemGroups[name], user_ids: [after.id] }, everyone(services));
  for (const name of joined) tx.emit({ type: 'user_group', op: 'add_members', group_id: org.realm.systemGroups[name], user_ids: [after.id] }, everyone(services));
  const visibleAfter = visibleChannelIds(services, after);
  const gained = [...visibleAfter].filter((id) => !visibleBefore.has(id)).sort((a, b) => a - b);
  const lost = [...visibleBefore].filter((id) => !visibleAfter.has(id)).sort((a, b) => a - b);
  if (gained.length > 0) tx.emit({ type: 'stream', op: 'create', streams: gained.map((id) => channelObject(services, org.channels.get(id)!)) }, [after.id]);
  if (lost.length > 0) tx.emit({ type: 'stream', op: 'delete', streams: lost.map((id) => ({ stream_id: id })), stream_ids: lost }, [after.id]);
}

/** `new_email`: an owner holding `can_change_user_emails` sets another address. */
function changeEmail(services: Services, tx: Transaction, actor: UserRecord, user: UserRecord, newEmail: string): void {
  const { org } = services;
  const refusal = mayChangeOthersEmail(actor);
  if (refusal) throw refusalError(refusal);
  if (!actor.canChangeUserEmails) throw badRequest('User not authorized to change user emails');
  const email = newEmail.trim();
  if (email === user.deliveryEmail) return;
  if (!isValidEmail(email)) throw badRequest('Invalid address.');
  const holder = org.users.byEmail(email);
  if (holder && holder.id !== user.id) throw badRequest(`Email '${email}' already in use`);
  const before = apiEmail(user, org.host);
  const updated = { ...user, deliveryEmail: email };
  org.users.save(updated, tx);
  const viewers = everyone(services).map((id) => org.users.get(id)!);
  tx.emit({ type: 'realm_user', op: 'update', person: { user_id: user.id, delivery_email: email } }, viewers.filter((v) => canSeeEmail(v, updated)).map((v) => v.id));
  const after = apiEmail(updated, org.host);
  if (after !== before) tx.emit({ type: 'realm_user', op: 'update', person: { user_id: user.id, new_email: after } }, viewers.map((v) => v.id));
}

export interface NewUserRequest {
  email: string;
  fullName: string;
  password?: string;
}

/**
 * The rules every new account meets, whoever creates it (POST /users, the admin CLI): an address
 * of valid syntax not yet in use, a valid name, and a password (when one is given) of the minimum length.
 */
export function checkNewUser(org: Services['org'], request: NewUserRequest): { email: string; fullName: string } {
  const email = request.email.trim();
  if (!isValidEmail(email)) throw badRequest(`Invalid address: ${email}`);
  if (org.users.byEmail(email)) throw badRequest(`Email '${email}' already in use`);
  const fullName = checkFullName(request.fullName, LIMITS.maxFullNameLength);
  if (request.password && !isLongEnoughPassword(request.password)) throw badRequest(PASSWORD_TOO_WEAK);
  return { email, fullName };
}

/** `POST /users`: an administrator creates an account, subscribed to the default channels. */
export async function createUser(services: Services, actor: UserRecord, request: NewUserRequest): Promise<UserRecord> {
  const { org } = services;
  const refusal = mayAdministerUsers(actor);
  if (refusal) throw refusalError(refusal);
  const { email, fullName } = checkNewUser(services.org, request);
  const passwordHash = request.password ? await hashPassword(request.password) : null;
  return services.write((tx) => {
    const user = createAccount(org, services.counters, tx, { email, fullName, role: Role.MEMBER, passwordHash, nowMs: services.clock.now() });
    subscribeUsers(services, tx, [user], [...org.channels.all()].filter((channel) => channel.isDefault));
    announceNewUser(services, tx, user);
    return user;
  });
}

/** The `realm_user` `add` event of a new account, to everyone (POST /users, joining by invitation). */
export function announceNewUser(services: Services, tx: Transaction, user: UserRecord): void {
  const { org } = services;
  // Two audiences at most: those who may see the new user's real address and those who may not.
  const person = formatUser(user, user, { host: org.host, realmUrl: org.url, clientGravatar: false, includeProfileData: true });
  const viewers = everyone(services).map((id) => org.users.get(id)!);
  tx.emit({ type: 'realm_user', op: 'add', person }, viewers.filter((v) => canSeeEmail(v, user)).map((v) => v.id));
  tx.emit({ type: 'realm_user', op: 'add', person: { ...person, delivery_email: null } }, viewers.filter((v) => !canSeeEmail(v, user)).map((v) => v.id));
}
