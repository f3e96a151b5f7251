/**
 * The cluster's list of organizations: a KV bucket (3 replicas, no expiry) where each
 * organization's id and subdomain are claimed once, with `create`, so that two nodes never make
 * two organizations with one id or one subdomain. Nodes read it to learn of organizations made
 * elsewhere (they then follow their streams from the first entry).
 */
import { StorageType } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';

export const REGISTRY_BUCKET = 'parley_organizations';
const REALM_PREFIX = 'realm_';

export function openRegistry(nc: NatsConnection): Promise<KV> {
  return new Kvm(nc).create(REGISTRY_BUCKET, { replicas: 3, history: 1, storage: StorageType.File });
}

/** KV keys allow letters, digits and `-_=.`: a subdomain is letters, digits and `-` ('' is the root). */
function subdomainKey(subdomain: string): string {
  return `subdomain_${subdomain === '' ? '=root' : subdomain}`;
}

/**
 * Claims an organization's id and subdomain. Resolves when both are this organization's (claimed
 * now, or already, by it: a node registering the organizations of its seed); refuses otherwise.
 */
export async function register(registry: KV, realm: number, subdomain: string): Promise<void> {
  for (const [key, value] of [
    [`${REALM_PREFIX}${realm}`, subdomain],
    [subdomainKey(subdomain), String(realm)],
  ] as const) {
    try {
      await registry.create(key, value);
    } catch (error) {
      const existing = await registry.get(key);
      if (existing?.operation !== 'PUT' || existing.string() !== value) throw error;
    }
  }
}

/** The organizations the cluster lists that are not `known` yet: id → subdomain. */
export async function registered(registry: KV, known: (realm: number) => boolean): Promise<Map<number, string>> {
  const found = new Map<number, string>();
  // (A KV filter's wildcards are whole tokens, so the keys are filtered here.)
  for await (const key of await registry.keys()) {
    if (!key.startsWith(REALM_PREFIX)) continue;
    const realm = Number(key.slice(REALM_PREFIX.length));
    if (known(realm)) continue;
    const entry = await registry.get(key);
    if (entry?.operation === 'PUT') found.set(realm, entry.string());
  }
  return found;
}

/**
 * The cluster's list kept current by a KV watch (no listing at each lease check): every
 * organization listed, once the watch has delivered what the bucket held. Restarted when it ends.
 */
export class RegistryWatch {
  private readonly listed = new Map<number, string>();
  /** Set once the watch delivered the entries the bucket held when it started. */
  private current = false;
  private watching: Promise<void> | undefined;
  private stopWatch: (() => void) | undefined;
  private stopped = false;

  constructor(
    private readonly registry: KV,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Starts the watch unless it runs. */
  ensure(): void {
    if (this.watching || this.stopped) return;
    this.current = false;
    this.watching = (async () => {
      const updates = await this.registry.watch();
      this.stopWatch = () => updates.stop();
      for await (const entry of updates) {
        if (entry.key.startsWith(REALM_PREFIX) && entry.operation === 'PUT') this.listed.set(Number(entry.key.slice(REALM_PREFIX.length)), entry.string());
        if (entry.isUpdate || !entry.delta) this.current = true;
      }
    })()
      .catch(this.onError)
      .finally(() => (this.watching = undefined));
  }

  /** The organizations listed that are not `known`; read from the bucket while the watch is not current. */
  async unknown(known: (realm: number) => boolean): Promise<Map<number, string>> {
    this.ensure();
    if (!this.current) return registered(this.registry, known);
    return new Map([...this.listed].filter(([realm]) => !known(realm)));
  }

  stop(): void {
    this.stopped = true;
    this.stopWatch?.();
  }
}
