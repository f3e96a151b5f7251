/** A server of this process as a fuzz target: pools read from its services, changes from a StateWatch. */
import { ROUTES } from '../../src/api/routes.js';
import { apiEmail } from '../../src/domain/users.js';
import type { RunningServer } from '../../src/server.js';
import type { Services } from '../../src/services.js';
import type { FuzzPools, FuzzRoute } from './fuzz-requests.js';
import type { FuzzTarget } from './fuzz-run.js';
import { StateWatch } from './state-digest.js';

/** Every route of the API's URL table, so that new routes join the fuzz by themselves. */
export function routeList(): FuzzRoute[] {
  return ROUTES.map(({ method, path, schema, auth }) => ({ method, path, schema: schema.$id, auth }));
}

export function poolsOf(services: Services): Pick<FuzzPools, 'routes' | 'users' | 'channels'> {
  const { org } = services;
  return {
    routes: routeList(),
    users: [...org.users.all()].map((u) => ({ id: u.id, email: apiEmail(u, org.host), apiKey: u.apiKey, role: u.role, isBot: u.isBot })),
    channels: [...org.channels.all()].map((c) => ({ id: c.id, name: c.name })),
  };
}

export async function inProcessTarget(server: RunningServer): Promise<FuzzTarget & { watch: StateWatch }> {
  const watch = await StateWatch.start(server.services);
  return {
    url: server.url,
    watch,
    pools: async () => poolsOf(server.services),
    changes: () => watch.changes(),
  };
}
