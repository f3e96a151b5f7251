/** Who is in the organization, as the audiences of user events and the owner rules count them. */
import { Role } from '../domain/roles.js';
import type { Services } from '../services.js';

/** Every active user and bot but the system's own bots: who hears about users and fields. */
export function everyone(services: Services): number[] {
  return [...services.org.users.all()].filter((u) => u.isActive && !u.isSystemBot).map((u) => u.id);
}

/** Active human owners: the ones an organization must keep at least one of. */
export function ownerCount(services: Services): number {
  let owners = 0;
  for (const user of services.org.users.all()) if (user.isActive && !user.isBot && user.role === Role.OWNER) owners++;
  return owners;
}
