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
