/** User roles and the permission questions that depend on role alone. */

export const Role = {
  OWNER: 100,
  ADMINISTRATOR: 200,
  MODERATOR: 300,
  MEMBER: 400,
  GUEST: 600,
} as const;

export type Role = (typeof Role)[keyof typeof Role];

export const ROLES: readonly Role[] = [Role.OWNER, Role.ADMINISTRATOR, Role.MODERATOR, Role.MEMBER, Role.GUEST];

export const isRole = (value: unknown): value is Role => ROLES.includes(value as Role);

export const isOwner = (role: Role) => role === Role.OWNER;
export const isAdmin = (role: Role) => role <= Role.ADMINISTRATOR;
export const isModerator = (role: Role) => role <= Role.MODERATOR;
export const isGuest = (role: Role) => role === Role.GUEST;

/**
 * May `actor` give `target` the role `next`? Owners alone grant or take away ownership, and an
 * organization keeps at least one owner.
 */
export function roleChangeError(actorRole: Role, currentRole: Role, next: Role, ownerCount: number): string | undefined {
  if (!isAdmin(actorRole)) return 'Insufficient permission';
  if ((next === Role.OWNER || currentRole === Role.OWNER) && actorRole !== Role.OWNER) return 'Must be an organization owner';
  if (currentRole === Role.OWNER && next !== Role.OWNER && ownerCount <= 1) {
    return 'The owner permission cannot be removed from the only organization owner.';
  }
  // The spec's example of a rule violation (Zulip's message from when roles were two flags).
  if (currentRole === Role.GUEST && isAdmin(next)) return 'Guests cannot be organization administrators';
  return undefined;
}

/** What an administrator's action on another account needs, as Zulip's `access_user_by_id(for_admin=True)`. */
export function adminAccessError(actorRole: Role, target: { isActive: boolean }, allowDeactivated: boolean): string | undefined {
  if (!target.isActive && !allowDeactivated) return 'User is deactivated';
  if (!isAdmin(actorRole)) return 'Insufficient permission';
  return undefined;
}

/**
 * May `actor` deactivate `target` (`DELETE /users/{id}`)? Owners alone deactivate owners, and
 * the only owner stays. `ownerCount` counts active human owners.
 */
export function deactivationError(actorRole: Role, target: { role: Role; isActive: boolean; isBot: boolean }, ownerCount: number): string | undefined {
  const access = adminAccessError(actorRole, target, false);
  if (access) return access;
  if (target.role === Role.OWNER && actorRole !== Role.OWNER) return 'Must be an organization owner';
  if (target.role === Role.OWNER && !target.isBot && ownerCount <= 1) return 'Cannot deactivate the only organization owner';
  return undefined;
}

/** Why a user may not deactivate their own account (`DELETE /users/me`): the last user, or the only owner. */
export function ownDeactivationError(self: { role: Role; isBot: boolean }, activeUsers: number, ownerCount: number): { entity: string; isLastOwner: boolean } | undefined {
  if (activeUsers <= 1) return { entity: 'user', isLastOwner: false };
  if (self.role === Role.OWNER && !self.isBot && ownerCount <= 1) return { entity: 'organization owner', isLastOwner: true };
  return undefined;
}

/** Zulip's `require_realm_admin`: its refusal for a role below administrator. */
export const realmAdminError = (role: Role): string | undefined => (isAdmin(role) ? undefined : 'Must be an organization administrator');
