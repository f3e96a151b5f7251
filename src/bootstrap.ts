/**
 * First start: on an empty data directory, create the root organization — the demo one with
 * PARLEY_DEMO=1, otherwise an empty one with an owner whose credentials are printed once
 * (through actions/organization-create.ts, as `create-organization` does). Later starts load
 * the root organization that is there.
 */
import type { Config } from './config.js';
import { createNewOrganization, type OrganizationSpec, type StartOrganization } from './actions/organization-create.js';
import { Role } from './domain/roles.js';
import { DEMO_CHANNELS, DEMO_ORGANIZATION_DESCRIPTION, DEMO_ORGANIZATION_NAME, DEMO_PASSWORD, DEMO_USERS, NOTIFICATION_BOT } from './demo-organization.js';
import type { Services } from './services.js';
import type { Counters } from './store/counters.js';
import type { Database } from './store/database.js';
import { Organization } from './store/organization.js';

export interface Bootstrapped {
  org: Organization;
  services: Services;
  /** Whether this start created the organization. */
  created: boolean;
}

export async function loadOrCreateOrganization(
  db: Database,
  counters: Counters,
  config: Config,
  nowMs: number,
  print: (line: string) => void,
  start: StartOrganization,
): Promise<Bootstrapped> {
  // The root organization; a server whose organizations all have subdomains starts the first of them.
  const existing = (await Organization.idBySubdomain(db, '')) ?? (await Organization.firstId(db));
  if (existing !== undefined) {
    const org = await Organization.load(db, existing, config.externalUrl);
    if (!org) throw new Error(`organization ${existing} is listed but its record is missing`);
    if (config.demo) print(`PARLEY_DEMO=1 is ignored: ${config.dataDir} already holds the organization '${org.realm.name}' (the demo is created only in an empty data directory).`);
    return { org, services: await start(org), created: false };
  }
  const spec = config.demo ? demoSpec(config.externalUrl, nowMs) : ownerSpec(config, nowMs);
  const { org, services, users } = await createNewOrganization(counters, spec, start);
  if (config.demo) {
    print(`Created the demo organization '${DEMO_ORGANIZATION_NAME}'; every user's password is '${DEMO_PASSWORD}'.`);
  } else {
    const [{ user: owner, password }] = users;
    print('Created a new organization. Its owner (shown only this once):');
    print(`  email:    ${owner!.deliveryEmail}`);
    print(`  password: ${password}`);
    print(`  API key:  ${owner!.apiKey}`);
  }
  return { org, services, created: true };
}

/** The demo organization (its people, bot and channels): the root one with PARLEY_DEMO=1, or another at a subdomain (tests). */
export function demoSpec(rootUrl: string, nowMs: number, subdomain = '', name = DEMO_ORGANIZATION_NAME): OrganizationSpec {
  return {
    subdomain,
    name,
    description: DEMO_ORGANIZATION_DESCRIPTION,
    rootUrl,
    nowMs,
    users: DEMO_USERS.map((u) => ({ email: u.email, fullName: u.fullName, role: u.role, password: DEMO_PASSWORD })),
    botEmail: NOTIFICATION_BOT.email,
    channels: DEMO_CHANNELS.map((channel) => ({ ...channel, moderationRequests: channel.name === 'moderation' })),
  };
}

/** An empty organization whose owner has an address at the server's host (or the reserved example domain). */
function ownerSpec(config: Config, nowMs: number): OrganizationSpec {
  const host = new URL(config.externalUrl).hostname;
  const domain = /^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i.test(host) ? host : 'example.com';
  return { subdomain: '', name: 'Parley', rootUrl: config.externalUrl, nowMs, users: [{ email: `owner@${domain}`, fullName: 'Owner', role: Role.OWNER }] };
}
