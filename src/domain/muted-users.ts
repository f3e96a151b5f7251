/** Muted users: who a user muted and when, and Zulip's refusals for muting and unmuting. */
import { badRequest } from './errors.js';

export interface MutedUser {
  id: number;
  /** Unix seconds. */
  timestamp: number;
}

/** The list after muting `targetId`, or Zulip's refusal. `targetExists`: a user of the organization (bots and deactivated users included). */
export function withMutedUser(muterId: number, current: readonly MutedUser[], targetId: number, targetExists: boolean, now: number): MutedUser[] {
  if (targetId === muterId) throw badRequest('Cannot mute self');
  if (!targetExists) throw badRequest('No such user');
  if (current.some((m) => m.id === targetId)) throw badRequest('User already muted');
  return [...current, { id: targetId, timestamp: now }];
}

export function withoutMutedUser(current: readonly MutedUser[], targetId: number, targetExists: boolean): MutedUser[] {
  if (!targetExists) throw badRequest('No such user');
  if (!current.some((m) => m.id === targetId)) throw badRequest('User is not muted');
  return current.filter((m) => m.id !== targetId);
}

/** The API's list (`muted_users` in register and events). */
export const mutedUsersObject = (list: readonly MutedUser[] | undefined) => (list ?? []).map((m) => ({ id: m.id, timestamp: m.timestamp }));
