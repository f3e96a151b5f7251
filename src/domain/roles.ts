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
  return undefined;
}
