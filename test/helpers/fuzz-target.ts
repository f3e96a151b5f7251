/** A server of this process as a fuzz target: pools read from its services, changes from a StateWatch. */
import { ROOT_ROUTES, ROUTES } from '../../src/api/routes.js';
import { reactivateUser } from '../../src/actions/deactivation.js';
import { Role } from '../../src/domain/roles.js';
import { apiEmail } from '../../src/domain/users.js';
import type { RunningServer } from '../../src/server.js';
import type { Services } from '../../src/services.js';
import type { FuzzPools, FuzzRoute } from './fuzz-requests.js';
import type { FuzzTarget } from './fuzz-run.js';
import { StateWatch } from './state-digest.js';

/** Every route of the URL table, root routes included, so that new routes join the fuzz by themselves. */
export function routeList(): FuzzRoute[] {
  return [
    ...ROUTES.map(({ method, path, schema, auth }) => ({ method, path, schema: schema.$id, auth })),
    ...ROOT_ROUTES.map(({ method, path, schema, auth }) => ({ method, path, schema: schema.$id, auth, root: true })),
  ];
}

export function poolsOf(services: Services): Pick<FuzzPools, 'routes' | 'users' | 'channels'> {
  const { org } = services;
  return {
    routes: routeList(),
    users: [...org.users.all()].map((u) => ({ id: u.id, email: apiEmail(u, org.host), apiKey: u.apiKey, role: u.role, isBot: u.isBot })),
    channels: [...org.channels.all()].map((c) => ({ id: c.id, name: c.name })),
  };
}

/** Reactivates every deactivated human user and bot, as an owner would. */
export async function reactivateEveryone(services: Services): Promise<void> {
  const owner = { ...[...services.org.users.all()][0]!, role: Role.OWNER };
  for (const user of [...services.org.users.all()]) {
    if (!user.isActive && !user.isSystemBot) await reactivateUser(services, owner, user);
  }
}

export async function inProcessTarget(server: RunningServer): Promise<FuzzTarget & { watch: StateWatch }> {
  const watch = await StateWatch.start(server.services);
  return {
    url: server.url,
    watch,
    pools: async () => {
      // Fuzzed requests deactivate users (DELETE /users/me succeeds for most): bring them back between
      // requests, or the run soon speaks only through 401s. The watch takes the change in, so it is
      // not blamed on the next request.
      await reactivateEveryone(server.services);
      await watch.changes();
      return poolsOf(server.services);
    },
    changes: () => watch.changes(),
  };
}
