/**
 * More organizations on a test server: another demo organization at a subdomain (the same people
 * and emails, keys of their own, the same channels), and clients that reach it by its host while
 * connecting to the server's address, as a browser at `a.localhost` would.
 */
import { createNewOrganization } from '../../src/actions/organization-create.js';
import { demoSpec } from '../../src/bootstrap.js';
import { DEMO_ORGANIZATION_NAME } from '../../src/demo-organization.js';
import { apiEmail } from '../../src/domain/users.js';
import type { RunningServer } from '../../src/server.js';
import type { Services } from '../../src/services.js';
import { Api } from './client.js';

/** Creates a demo organization at `subdomain` (as the CLI's create-organization does) and starts it; its services. */
export async function addDemoOrganization(server: RunningServer, subdomain: string, name = `${DEMO_ORGANIZATION_NAME} ${subdomain}`): Promise<Services> {
  const { counters, config, clock } = server.services;
  const spec = demoSpec(config.externalUrl, clock.now(), subdomain, name);
  const { services } = await createNewOrganization(counters, spec, async (org, seed) => (await server.organizations.start(org, seed)).services);
  return services;
}

/** The services of the organization at `subdomain`, loading it as its first request would. */
export async function organizationAt(server: RunningServer, subdomain: string): Promise<Services> {
  const runtime = await server.organizations.load(subdomain);
  if (!runtime) throw new Error(`no organization at '${subdomain}'`);
  return runtime.services;
}

/** The Host header of an organization, with the server's port. */
export function hostOf(server: RunningServer, services: Services): string {
  return `${new URL(services.org.url).hostname}:${server.port}`;
}

/** A client of `email` in the organization of `services`, reaching it by its host. */
export function orgClient(server: RunningServer, services: Services, email: string): Api {
  const user = services.org.users.byEmail(email);
  if (!user) throw new Error(`no user ${email} in ${services.org.url}`);
  return new Api(server.url, apiEmail(user, services.org.host), user.apiKey, hostOf(server, services));
}

/** An anonymous client of the organization of `services`. */
export function orgAnonymous(server: RunningServer, services: Services): Api {
  return new Api(server.url, undefined, undefined, hostOf(server, services));
}
