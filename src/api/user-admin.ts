/** Administering users: `POST /users` (create) and `PATCH /users/{user_id}` / `{email}` (name, role), with `realm_user` events. */
import { hashPassword } from '../domain/credentials.js';
import { badRequest } from '../domain/errors.js';
import { isAdmin, isRole, Role, roleChangeError } from '../domain/roles.js';
import { canSeeEmail, formatUser, isValidEmail, type UserRecord } from '../domain/users.js';
import { LIMITS } from '../domain/versions.js';
import type { Services } from '../services.js';
import { Transaction } from '../store/transaction.js';
import { changeRole, createAccount } from '../actions/accounts.js';
import { me, type ApiRoute } from './route.js';
import { subscribeUsers } from '../actions/subscriptions.js';

function everyone(services: Services): number[] {
  return [...services.org.users.all()].filter((u) => u.isActive && !u.isSystemBot).map((u) => u.id);
}

function checkFullName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw badRequest('Name too short!');
  if (trimmed.length > LIMITS.maxFullNameLength) throw badRequest('Name too long!');
  return trimmed;
}

export async function updateUser(services: Services, actor: UserRecord, target: UserRecord, params: Record<string, any>) {
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

export function userAdminRoutes(services: Services): ApiRoute[] {
  const { org } = services;
  const target = (id: number) => {
    const user = org.users.get(id);
    if (!user || user.isSystemBot) throw badRequest('No such user');
    return user;
  };
  return [
    {
      method: 'POST',
      path: '/users',
      schema: 'create-user',
      auth: 'user',
      handler: async (request) => {
        const actor = me(request);
        if (!isAdmin(actor.role)) throw badRequest('Insufficient permission');
        const p = request.params;
        const email = (p.email as string).trim();
        if (!isValidEmail(email)) throw badRequest(`Invalid address: ${email}`);
        if (org.users.byEmail(email)) throw badRequest(`Email '${email}' already in use`);
        const fullName = checkFullName(p.full_name);
        const passwordHash = p.password ? await hashPassword(p.password) : null;
        const user = await services.write((tx) => {
          const user = createAccount(org, services.counters, tx, { email, fullName, role: Role.MEMBER, passwordHash, nowMs: services.clock.now() });
          subscribeUsers(services, tx, [user], [...org.channels.all()].filter((channel) => channel.isDefault));
          // Two audiences at most: those who may see the new user's real address and those who may not.
          const person = formatUser(user, user, { host: org.host, realmUrl: org.url, clientGravatar: false, includeProfileData: true });
          const viewers = everyone(services).map((id) => org.users.get(id)!);
          tx.emit({ type: 'realm_user', op: 'add', person }, viewers.filter((v) => canSeeEmail(v, user)).map((v) => v.id));
          tx.emit({ type: 'realm_user', op: 'add', person: { ...person, delivery_email: null } }, viewers.filter((v) => !canSeeEmail(v, user)).map((v) => v.id));
          return user;
        });
        return { user_id: user.id };
      },
    },
    {
      method: 'PATCH',
      path: '/users/{user_id:int}',
      schema: 'update-user',
      auth: 'user',
      handler: (request) => updateUser(services, me(request), target(request.params.user_id), request.params),
    },
    {
      method: 'PATCH',
      path: '/users/{email:email}',
      schema: 'update-user',
      auth: 'user',
      handler: (request) => {
        const actor = me(request);
        const email = request.params.email as string;
        const user = org.users.byEmail(email);
        const visible = user && (user.deliveryEmail.toLowerCase() !== email.toLowerCase() || canSeeEmail(actor, user));
        if (!user || !visible || user.isSystemBot) throw badRequest('No such user');
        return updateUser(services, actor, user, request.params);
      },
    },
  ];
}
