/** Cluster mode's settings (docs/cluster.md), read from the environment; none of them is read by the embedded server. */
import { ConfigError } from '../config-values.js';

export interface ClusterConfig {
  /** The nats-servers (any of them; the client finds the others). */
  servers: string[];
  /** This node's name, unique in the cluster (the lease holder's name). */
  node: string;
  /** Where other nodes forward this node's organizations' requests: its Parley server (PARLEY_PORT). */
  nodeUrl: string;
  /** The public port: the forwarder any client or proxy reaches. */
  publicPort: number;
  publicHost: string;
  /** How long a lease lives without renewal. */
  leaseMs: number;
  /** How long an append may wait for JetStream's acknowledgement (a stream leader election takes seconds). */
  appendTimeoutMs: number;
  /** Stream entries between an organization's snapshots (then its stream is trimmed below the snapshot); 0: none. */
  snapshotEvery: number;
  /** The files bucket's sweep of objects no record names: how often, and the age below which an object is kept. */
  filesSweep: { everyMs: number; graceMs: number };
}

function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = Number(env[name] ?? String(fallback));
  if (!(Number.isInteger(value) && value >= 1)) throw new ConfigError(name, String(env[name]), 'a whole number of seconds, at least 1');
  return value * 1000;
}

/** The cluster settings, or undefined when PARLEY_CLUSTER_NATS is unset (the embedded server). */
export function clusterConfigFromEnv(env: NodeJS.ProcessEnv, host: string, port: number): ClusterConfig | undefined {
  const nats = env.PARLEY_CLUSTER_NATS;
  if (!nats) return undefined;
  const servers = nats.split(/[\s,]+/).filter(Boolean);
  const node = env.PARLEY_NODE_NAME;
  if (!node || !/^[A-Za-z0-9_-]+$/.test(node)) throw new ConfigError('PARLEY_NODE_NAME', node ?? '', 'a name of letters, digits, - and _, unique in the cluster');
  const publicPort = Number(env.PARLEY_CLUSTER_PORT);
  if (!Number.isInteger(publicPort) || publicPort < 1 || publicPort > 65535) throw new ConfigError('PARLEY_CLUSTER_PORT', env.PARLEY_CLUSTER_PORT ?? '', 'the public port of this node (the forwarder)');
  const lease = Number(env.PARLEY_CLUSTER_LEASE_SECONDS ?? '3');
  if (!(lease >= 1 && lease <= 60)) throw new ConfigError('PARLEY_CLUSTER_LEASE_SECONDS', String(env.PARLEY_CLUSTER_LEASE_SECONDS), 'seconds from 1 to 60');
  const snapshotEvery = Number(env.PARLEY_CLUSTER_SNAPSHOT_ENTRIES ?? '100000');
  if (!Number.isInteger(snapshotEvery) || snapshotEvery < 0) throw new ConfigError('PARLEY_CLUSTER_SNAPSHOT_ENTRIES', String(env.PARLEY_CLUSTER_SNAPSHOT_ENTRIES), 'a number of stream entries (0: no snapshots)');
  return {
    servers,
    node,
    nodeUrl: env.PARLEY_NODE_URL || `http://${host}:${port}`,
    publicPort,
    publicHost: env.PARLEY_CLUSTER_HOST || host,
    leaseMs: lease * 1000,
    appendTimeoutMs: 15_000,
    snapshotEvery,
    filesSweep: { everyMs: seconds(env, 'PARLEY_CLUSTER_FILES_SWEEP_SECONDS', 3600), graceMs: seconds(env, 'PARLEY_CLUSTER_FILES_GRACE_SECONDS', 3600) },
  };
}
