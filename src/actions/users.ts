/** Administering users: creating one, changing a name or a role, with `realm_user` events. */
import { badRequest } from '../domain/errors.js';
import { isAdmin, isRole, Role, roleChangeError } from '../domain/roles.js';
import { type UserRecord } from '../domain/users.js';
import { LIMITS } from '../domain/versions.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { changeRole } from './accounts.js';
import { canSeeEmail, formatUser, isValidEmail } from '../domain/users.js';
import { hashPassword } from '../domain/credentials.js';
import { createAccount } from './accounts.js';
import { subscribeUsers } from './subscriptions.js';

export function everyone(services: Services): number[] {
  return [...services.org.users.all()].filter((u) => u.isActive && !u.isSystemBot).map((u) => u.id);
}

export function checkFullName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw badRequest('Name too short!');
  if (trimmed.length > LIMITS.maxFullNameLength) throw badRequest('Name too long!');
  return trimmed;
}

/** What an administrator may change of a user (`PATCH /users/{id}`), as the API names it. */
export interface UserChanges {
  full_name?: string;
  role?: number;
  new_email?: string;
  profile_data?: readonly Record<string, unknown>[];
}

export async function updateUser(services: Services, actor: UserRecord, target: UserRecord, params: UserChanges) {
  const { org } = services;
  if (!isAdmin(actor.role)) throw badRequest('Insufficient permission');
  if (params.new_email !== undefined) throw badRequest('Insufficient permission');
  if (params.profile_data !== undefined && params.profile_data.length > 0) {
    throw badRequest(`Invalid custom profile field ID: ${params.profile_data[0]?.id}`);
  }
  await services.write((tx) => {
    let user = target;
    const recipients = everyone(services);
    if (params.full_name !== undefined) {
      const fullName = checkFullName(params.full_name);
      if (fullName !== user.fullName) {
        user = { ...user, fullName };
        org.users.save(user, tx);
        tx.emit({ type: 'realm_user', op: 'update', person: { user_id: user.id, full_name: fullName } }, recipients);
      }
    }
    if (params.role !== undefined && params.role !== user.role) {
      const role = params.role as number;
      if (!isRole(role)) throw badRequest('Invalid role');
      const owners = [...org.users.all()].filter((u) => u.isActive && u.role === Role.OWNER).length;
      const problem = roleChangeError(actor.role, user.role, role, owners);
      if (problem) throw badRequest(problem);
      if (user.role === Role.GUEST && (role === Role.ADMINISTRATOR || role === Role.OWNER)) {
        throw badRequest('A guest cannot be made an organization administrator; make them a member first.');
      }
      user = changeRole(org, tx, user, role);
      tx.emit({ type: 'realm_user', op: 'update', person: { user_id: user.id, role } }, recipients);
    }
  });
  return {};
}

export interface NewUserRequest {
  email: string;
  fullName: string;
  password?: string;
}

/** `POST /users`: an administrator creates an account, subscribed to the default channels. */
export async function createUser(services: Services, actor: UserRecord, request: NewUserRequest): Promise<UserRecord> {
  const { org } = services;
  if (!isAdmin(actor.role)) throw badRequest('Insufficient permission');
  const email = request.email.trim();
  if (!isValidEmail(email)) throw badRequest(`Invalid address: ${email}`);
  if (org.users.byEmail(email)) throw badRequest(`Email '${email}' already in use`);
  const fullName = checkFullName(request.fullName);
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
