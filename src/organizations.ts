/**
 * The server's organizations at work, found by host name: each is loaded at its first request
 * (one load per organization, however many requests wait for it), those with timed work waiting
 * are woken after the server listens (a few at a time), and all are stopped together at shutdown.
 * Nothing is done at start for the others, so start-up does not grow with their number. An
 * organization left idle (no request, queue or timed work for PARLEY_ORGANIZATION_IDLE_SECONDS)
 * is unloaded; a request for it meanwhile waits for the unload, then loads it anew.
 */
import { organizationUrl, subdomainOfHost } from './domain/organization-hosts.js';
import type { UserRecord } from './domain/users.js';
import type { Site } from './http/front.js';
import { OrganizationRuntime, type ServerParts } from './organization-runtime.js';
import type { Services } from './services.js';
import { Organization } from './store/organization.js';
import { WakeIndex } from './store/wake-index.js';

/** Organizations woken at once after start: their loads share the two cores with requests. */
const WAKE_CONCURRENCY = 4;

export class Organizations {
  /** Loaded organizations by subdomain. */
  private readonly loaded = new Map<string, OrganizationRuntime>();
  /** Loads under way by subdomain: a second request waits for the same one. */
  private readonly loading = new Map<string, Promise<OrganizationRuntime | undefined>>();
  /** Unloads under way by subdomain: a load waits for it. */
  private readonly unloading = new Map<string, Promise<void>>();
  private stopping = false;
  /** The first organization started (the root): never unloaded. */
  private root: string | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  /** Organizations unloaded since start (metrics, tests). */
  unloads = 0;
  /** Cluster mode only: the refusal to load an organization this node does not serve (undefined: it may). */
  gate: ((subdomain: string) => Error | undefined) | undefined;

  constructor(private readonly parts: ServerParts) {}

  /** Whether the organization at `subdomain` is loaded now. */
  isLoaded(subdomain: string): boolean {
    return this.loaded.has(subdomain);
  }

  /** How many organizations are loaded now. */
  get loadedCount(): number {
    return this.loaded.size;
  }

  /** Looks for idle organizations a few times per idle period (at most every 30 s). */
  startIdleSweep(): void {
    const idleMs = this.parts.config.organizationIdleSeconds * 1000;
    this.sweeper = setInterval(() => this.unloadIdle(idleMs), Math.min(30_000, Math.max(100, idleMs / 4)));
    this.sweeper.unref();
  }

  /** Unloads every loaded organization but the root that is idle for `idleMs`. */
  unloadIdle(idleMs: number): void {
    if (this.stopping) return;
    for (const [subdomain, runtime] of this.loaded) {
      if (subdomain !== this.root && runtime.idle(idleMs)) void this.unload(subdomain, runtime);
    }
  }

  /**
   * Drops the organization from the registry at once (so the next request loads it anew, after
   * this unload), then stops its work and closes it as at shutdown; the database stays open.
   */
  private unload(subdomain: string, runtime: OrganizationRuntime): Promise<void> {
    this.loaded.delete(subdomain);
    const done = (async () => {
      try {
        await runtime.stopWork();
        await runtime.close();
        this.unloads++;
        this.parts.logger.info({ realmId: runtime.services.org.id, subdomain }, 'idle organization unloaded');
      } catch (error) {
        this.parts.logger.error({ err: error, subdomain }, 'unloading an idle organization failed');
      }
    })().finally(() => this.unloading.delete(subdomain));
    this.unloading.set(subdomain, done);
    return done;
  }

  /** Cluster mode: unloads an organization this node no longer serves (after a load under way). */
  async release(subdomain: string): Promise<void> {
    await this.loading.get(subdomain)?.catch(() => undefined);
    const runtime = this.loaded.get(subdomain);
    if (runtime) await this.unload(subdomain, runtime);
  }

  /**
   * Cluster mode, a graceful hand-over of one organization (as a SIGTERM does for all): no new
   * request reaches it (the gate refuses loads; handlers not started are refused with `refusal`),
   * its background work stops (parked polls answered, acknowledgements written), the requests
   * under way end, then it closes. Its last writes are appended while the node still holds it.
   */
  async handOff(subdomain: string, refusal: Error): Promise<void> {
    await this.loading.get(subdomain)?.catch(() => undefined);
    const runtime = this.loaded.get(subdomain);
    if (!runtime) return;
    this.loaded.delete(subdomain);
    runtime.refuseNew(refusal);
    const done = (async () => {
      // Writes under way end first, so that their events reach the queues before these close.
      await runtime.settled(false, 10_000);
      await runtime.stopWork();
      await runtime.settled(true, 10_000);
      await runtime.close();
    })().finally(() => this.unloading.delete(subdomain));
    this.unloading.set(subdomain, done);
    await done;
  }

  /** The site a Host header names: at once when loaded, a promise while it loads, undefined for a host not ours. */
  siteFor(host: string): Site<UserRecord> | Promise<Site<UserRecord> | undefined> | undefined {
    const subdomain = this.subdomainOf(host);
    if (subdomain === undefined) return undefined;
    const runtime = this.loaded.get(subdomain);
    if (runtime) {
      runtime.touch();
      return runtime.site;
    }
    return this.load(subdomain).then((loaded) => loaded?.site);
  }

  /** Host headers seen and what they name: a server hears few, so each is parsed once (bounded). */
  private readonly hosts = new Map<string, string | undefined>();

  private subdomainOf(host: string): string | undefined {
    if (this.hosts.has(host)) return this.hosts.get(host);
    const subdomain = subdomainOfHost(this.parts.config.externalUrl, host);
    if (this.hosts.size >= 10_000) this.hosts.clear();
    this.hosts.set(host, subdomain);
    return subdomain;
  }

  /** The organization at `subdomain` at work, loading it if needed; undefined when there is none. */
  load(subdomain: string): Promise<OrganizationRuntime | undefined> {
    const loaded = this.loaded.get(subdomain);
    if (loaded) return Promise.resolve(loaded);
    let loading = this.loading.get(subdomain);
    if (!loading) {
      const unloading = this.unloading.get(subdomain);
      const opened = unloading ? unloading.then(() => this.open(subdomain)) : this.open(subdomain);
      loading = opened.finally(() => this.loading.delete(subdomain));
      this.loading.set(subdomain, loading);
    }
    return loading;
  }

  /** Starts an organization already read (or just created, with `seed` writing its first records). */
  async start(org: Organization, seed?: (services: Services) => Promise<void>): Promise<OrganizationRuntime> {
    const runtime = await OrganizationRuntime.start(this.parts, org, seed);
    this.root ??= org.realm.subdomain;
    this.loaded.set(org.realm.subdomain, runtime);
    return runtime;
  }

  /** The loaded organizations' services (metrics, tests). */
  services(): Services[] {
    return [...this.loaded.values()].map((runtime) => runtime.services);
  }

  private async open(subdomain: string): Promise<OrganizationRuntime | undefined> {
    const { db, config } = this.parts;
    if (this.stopping) return undefined;
    const refusal = this.gate?.(subdomain);
    if (refusal) throw refusal;
    const id = await Organization.idBySubdomain(db, subdomain);
    if (id === undefined) return undefined;
    const org = await Organization.load(db, id, config.externalUrl);
    if (!org || this.stopping) return undefined;
    this.parts.logger.info({ realmId: id, subdomain }, 'organization loaded');
    return this.start(org);
  }

  /** Loads the organizations marked as having timed work, a few at a time; returns how many were woken. */
  async wake(): Promise<number> {
    const ids = await WakeIndex.list(this.parts.db);
    let next = 0;
    let woken = 0;
    const worker = async () => {
      while (next < ids.length && !this.stopping) {
        const id = ids[next++]!;
        const subdomain = Organization.subdomainOf(this.parts.db, id);
        if (subdomain === undefined) continue;
        const runtime = await this.load(subdomain).catch((error: unknown) => {
          this.parts.logger.error({ err: error, realmId: id }, 'organization with timed work failed to load');
          return undefined;
        });
        if (runtime) woken++;
        else if (!this.stopping) this.parts.logger.warn({ realmId: id }, 'an organization marked with timed work is not there');
      }
    };
    await Promise.all(Array.from({ length: Math.min(WAKE_CONCURRENCY, ids.length) }, worker));
    if (woken > 0) this.parts.logger.info({ woken }, 'organizations with timed work loaded');
    return woken;
  }

  /** Stops every organization's background work (loads under way finish first; no new ones start). */
  async stopWork(): Promise<void> {
    this.stopping = true;
    clearInterval(this.sweeper);
    await Promise.allSettled([...this.loading.values(), ...this.unloading.values()]);
    await Promise.all([...this.loaded.values()].map((runtime) => runtime.stopWork()));
  }

  /** Closes every organization, once no request runs. */
  async close(): Promise<void> {
    await Promise.all([...this.loaded.values()].map((runtime) => runtime.close()));
    this.loaded.clear();
  }
}
