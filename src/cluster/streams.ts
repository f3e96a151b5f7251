/**
 * The JetStream side of the cluster: the connection, each organization's stream (its write-ahead
 * log: 3 replicas, file storage, nothing discarded) and the lease bucket (a KV bucket whose
 * entries expire after the lease). Names only here.
 */
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { DiscardPolicy, JetStreamApiError, jetstream, jetstreamManager, RetentionPolicy, StorageType, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { openRegistry } from './registry.js';

export const LEASE_BUCKET = 'parley_leases';

export function streamOf(realm: number): string {
  return `PARLEY_ORG_${realm}`;
}

export function subjectOf(realm: number): string {
  return `parley.org.${realm}`;
}

export function leaseKeyOf(realm: number): string {
  return `org_${realm}`;
}

/** What a lease says: who serves the organization, and where to forward its requests. */
export interface LeaseValue {
  node: string;
  url: string;
}

export interface JetStreamParts {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  leases: KV;
  /** The cluster's organizations (registry.ts). */
  registry: KV;
}

/** Connects (retrying for ever on a lost server: the client moves to another) and opens the lease bucket. */
export async function connectJetStream(servers: string[], leaseMs: number, name: string): Promise<JetStreamParts> {
  const nc = await connect({ servers, name, maxReconnectAttempts: -1, reconnectTimeWait: 250, pingInterval: 2000 });
  const js = jetstream(nc, { timeout: 10_000 });
  const jsm = await jetstreamManager(nc, { timeout: 10_000 });
  const leases = await retry(() => new Kvm(nc).create(LEASE_BUCKET, { replicas: 3, history: 1, ttl: leaseMs, storage: StorageType.File }));
  const registry = await retry(() => openRegistry(nc));
  return { nc, js, jsm, leases, registry };
}

/** Makes sure the organization's stream exists (the same configuration on every node: adding it again is a no-op). */
export async function ensureStream(jsm: JetStreamManager, realm: number): Promise<void> {
  await retry(() =>
    jsm.streams.add({
      name: streamOf(realm),
      subjects: [subjectOf(realm)],
      num_replicas: 3,
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.New,
      max_msgs: -1,
      max_bytes: -1,
      max_age: 0,
    }),
  );
}

/** The stream's last sequence (0 when empty). */
export async function lastSequence(jsm: JetStreamManager, realm: number): Promise<number> {
  return (await jsm.streams.info(streamOf(realm))).state.last_seq;
}

/** JetStream answers "no leader" for a while after start or a server's death: tries again for up to 30 s. */
export async function retry<T>(attempt: () => Promise<T>, deadlineMs = 30_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() - started > deadlineMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/**
 * One append expecting the stream's last sequence (the fence), tried again until the deadline
 * when JetStream does not answer (a stream leader election after a nats-server's death): the
 * message id makes a repeat of an append that did land answer with its sequence (JetStream's
 * duplicate window), so nothing is appended twice. A refusal (JetStreamApiError) is thrown at once.
 */
export async function appendExpecting(js: JetStreamClient, realm: number, data: Uint8Array, expected: number, msgID: string, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      const timeout = Math.max(500, Math.min(5000, deadline - performance.now()));
      return (await js.publish(subjectOf(realm), data, { msgID, expect: { lastSequence: expected }, timeout })).seq;
    } catch (error) {
      if (error instanceof JetStreamApiError || performance.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
