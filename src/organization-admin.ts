/**
 * The administration of organizations (`npm run cli -- create-organization`, `list-organizations`,
 * `deactivate-organization`, `reactivate-organization`, and `backup` of one): each command runs against an
 * OrganizationHost, which is either the running server (asked through its control socket, since
 * it holds the store's lock) or the CLI's own opening of a stopped server's data directory.
 * A command answers with the lines to print, or throws (an ApiError's message is the refusal).
 */
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { checkOrganizationSpec, createNewOrganization, type StartOrganization } from './actions/organization-create.js';
import { deactivateOrganization, reactivateOrganization } from './actions/organization-deactivation.js';
import { badRequest } from './domain/errors.js';
import { Role } from './domain/roles.js';
import type { Clock, Services } from './services.js';
import { writeBackup, type BackupResult } from './store/backup.js';
import type { Counters } from './store/counters.js';
import type { Database } from './store/database.js';
import type { UploadStores } from './store/backup-files.js';
import { Organization } from './store/organization.js';
import type { OrganizationCommand } from './domain/organization-commands.js';

export interface OrganizationHost {
  readonly config: Config;
  readonly db: Database;
  readonly counters: Counters;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Services of an organization the store lists: the server's own (loaded if need be), or built for one command. */
  servicesOf(id: number): Promise<Services>;
  /** Services for an organization being created (not listed yet), seeded first; `created` closes them after. */
  buildServices: StartOrganization;
  /** Called once a created organization is in the store, with the services `buildServices` made. */
  created(services: Services): Promise<void>;
}

/** What the commands take: the CLI's options, passed as they are through the control socket. */
export interface AdminOptions {
  subdomain?: string;
  organization?: string;
  name?: string;
  description?: string;
  ownerEmail?: string;
  ownerName?: string;
  password?: string;
}

/** The commands a running server takes through its control socket (and `backup`, which has its own request). */
export { isOrganizationCommand, ORGANIZATION_COMMANDS, type OrganizationCommand } from './domain/organization-commands.js';

/** Runs one command; resolves with the lines to print. */
export async function runOrganizationCommand(host: OrganizationHost, command: OrganizationCommand, options: AdminOptions): Promise<string[]> {
  switch (command) {
    case 'create-organization':
      return createOrganizationCommand(host, options);
    case 'list-organizations':
      return listOrganizations(host);
    case 'deactivate-organization':
    case 'reactivate-organization':
      return setDeactivated(host, options.organization, command === 'deactivate-organization');
  }
}

/** The id of the organization at `subdomain` ('' or absent: the root organization), or a refusal naming it. */
export async function organizationId(db: Database, subdomain: string | undefined): Promise<number> {
  const id = await Organization.idBySubdomain(db, subdomain ?? '');
  if (id === undefined) throw badRequest(subdomain ? `There is no organization '${subdomain}'.` : 'There is no root organization.');
  return id;
}

async function createOrganizationCommand(host: OrganizationHost, options: AdminOptions): Promise<string[]> {
  if (options.subdomain === undefined || !options.name || !options.ownerEmail) throw badRequest('--subdomain, --name and --owner-email are required');
  const spec = {
    subdomain: options.subdomain,
    name: options.name,
    description: options.description,
    rootUrl: host.config.externalUrl,
    nowMs: host.clock.now(),
    users: [{ email: options.ownerEmail.trim(), fullName: options.ownerName ?? 'Owner', role: Role.OWNER, password: options.password }],
  };
  await checkOrganizationSpec(host.db, spec, false);
  const { org, services, users } = await createNewOrganization(host.counters, spec, host.buildServices);
  await host.created(services);
  const [{ user: owner, password }] = users;
  return [
    `created organization ${org.id} '${org.realm.subdomain}' (${org.realm.name}) at ${org.url}`,
    `owner:    ${owner!.deliveryEmail}`,
    ...(options.password === undefined ? [`password: ${password}`] : []),
    `API key:  ${owner!.apiKey}`,
  ];
}

async function listOrganizations(host: OrganizationHost): Promise<string[]> {
  const lines = ['id\tsubdomain\turl\tname\tusers\tdeactivated'];
  for (const { id, subdomain } of await Organization.list(host.db)) {
    // The store's records (not a server's loaded ones): every write reaches them before it is acknowledged.
    const org = await Organization.load(host.db, id, host.config.externalUrl);
    if (!org) continue;
    const users = [...org.users.all()].filter((user) => user.isActive && !user.isBot).length;
    lines.push([id, subdomain || '(root)', org.url, org.realm.name, users, org.realm.deactivated ? 'yes' : 'no'].join('\t'));
  }
  return lines;
}

async function setDeactivated(host: OrganizationHost, subdomain: string | undefined, deactivated: boolean): Promise<string[]> {
  if (subdomain === undefined) throw badRequest('--organization is required (the subdomain; "" for the root organization)');
  const services = await host.servicesOf(await organizationId(host.db, subdomain));
  const changed = services.org.realm.deactivated !== deactivated;
  await (deactivated ? deactivateOrganization(services) : reactivateOrganization(services));
  const what = `organization '${subdomain}' (${services.org.realm.name})`;
  return [changed ? `${what} is now ${deactivated ? 'deactivated' : 'active again'}` : `${what} was already ${deactivated ? 'deactivated' : 'active'}`];
}

/** A backup of every organization, or (`organization` given) of that one. */
export async function backup(db: Database, uploads: UploadStores, dir: string, organization: string | undefined): Promise<BackupResult> {
  if (organization === undefined) return writeBackup(db, dir, uploads);
  return writeBackup(db, dir, uploads, { realmId: await organizationId(db, organization), subdomain: organization });
}
