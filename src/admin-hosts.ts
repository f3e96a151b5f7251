/**
 * Where the organization commands (organization-admin.ts) run: in the CLI on a stopped server's
 * data directory (services built per organization for the one command, closed after), or in the
 * running server (its own services, loaded by its registry). Both build a new organization's
 * services for its creation only, and close them once it is written.
 */
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { StartOrganization } from './actions/organization-create.js';
import type { OrganizationHost } from './organization-admin.js';
import type { Clock, Services } from './services.js';
import type { Counters } from './store/counters.js';
import type { Database } from './store/database.js';
import type { UploadStores } from './store/backup-files.js';
import type { FileReplicas } from './store/file-replica.js';
import { FileStore, uploadsDir } from './store/files.js';
import { Organization } from './store/organization.js';
import { buildServices } from './wiring.js';

export interface HostParts {
  config: Config;
  db: Database;
  counters: Counters;
  logger: Logger;
  clock: Clock;
}

/** Stops what building services started (the queues' rider on the database, thumbnailing, actors, the search index's database). */
export async function closeServices(services: Services): Promise<void> {
  await services.queues.close();
  await services.thumbnails.idle();
  services.actors.stopAll();
  await services.search.close();
}

/** Services built for one command (not served): a new organization's are seeded first; a failure closes them. */
export function buildFor(parts: HostParts): StartOrganization {
  return async (org, seed) => {
    const services = await buildServices({ ...parts, org });
    try {
      if (seed) await seed(services);
    } catch (error) {
      await closeServices(services);
      throw error;
    }
    return services;
  };
}

function newOrganizationParts(parts: HostParts) {
  return { buildServices: buildFor(parts), created: closeServices };
}

/** The running server: `servicesOf` is its registry's (an organization it has not served yet is loaded). */
export function serverHost(parts: HostParts, servicesOf: (id: number) => Promise<Services>): OrganizationHost {
  return { ...parts, ...newOrganizationParts(parts), servicesOf };
}

/**
 * The upload stores of a running server: a loaded organization's own (a backup holds its
 * removals), or one opened on the directory of an organization not loaded (nothing removes there),
 * with its replica in cluster mode.
 */
export function serverUploads(dataDir: string, loaded: () => Services[], replicas?: FileReplicas): UploadStores {
  return {
    // Cluster mode: an organization this node only follows has its replica too (a backup fetches what it never held).
    of: (realmId, subdomain) => loaded().find((services) => services.org.id === realmId)?.files ?? new FileStore(uploadsDir(dataDir, realmId, subdomain), replicas?.(realmId)),
    hold() {
      const releases = loaded().map((services) => services.files.holdRemovals());
      return () => releases.forEach((release) => release());
    },
  };
}

/** The CLI on a stopped server's data directory; `close` stops the services it built. */
export function standaloneHost(parts: HostParts): OrganizationHost & { close(): Promise<void> } {
  const built = new Map<number, Promise<Services>>();
  const extra = newOrganizationParts(parts);
  const servicesOf = (id: number): Promise<Services> => {
    let services = built.get(id);
    if (!services) {
      services = (async () => {
        const org = await Organization.load(parts.db, id, parts.config.externalUrl);
        if (!org) throw new Error(`organization ${id} is listed but its record is missing`);
        return buildFor(parts)(org);
      })();
      built.set(id, services);
    }
    return services;
  };
  return {
    ...parts,
    ...extra,
    servicesOf,
    async close() {
      for (const services of built.values()) await closeServices(await services);
    },
  };
}
