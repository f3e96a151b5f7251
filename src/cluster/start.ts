/**
 * Starts a cluster node: JetStream connected, the Parley server started with the cluster node
 * attached (it takes leases and loads what it holds), and the public forwarder. The embedded
 * server never comes here (main.ts looks at PARLEY_CLUSTER_NATS).
 */
import type { Config } from '../config.js';
import type { Database } from '../store/database.js';
import { startServer, type RunningServer, type StartOptions } from '../server.js';
import type { ClusterConfig } from './cluster-config.js';
import { FilesBucket, openFilesBucket } from './files-bucket.js';
import { startForwarder, type Forwarder } from './forwarder.js';
import { openNodesBucket } from './membership.js';
import { ClusterNode } from './node.js';
import { openSnapshotBucket, Snapshots } from './snapshots.js';
import { connectJetStream, leaseKeyOf, type LeaseValue } from './streams.js';
import type { KV } from '@nats-io/kv';

/** Whether the lease in JetStream names this node now (the files bucket's sweep asks before each deletion). */
async function leaseHeldBy(leases: KV, realm: number, node: string): Promise<boolean> {
  const entry = await leases.get(leaseKeyOf(realm));
  return entry !== null && entry.operation === 'PUT' && (JSON.parse(entry.string()) as LeaseValue).node === node;
}

export interface RunningNode {
  server: RunningServer;
  node: ClusterNode;
  forwarder: Forwarder;
  stop(): Promise<void>;
}

export async function startClusterNode(config: Config, cluster: ClusterConfig, options: StartOptions = {}): Promise<RunningNode> {
  const jet = await connectJetStream(cluster.servers, cluster.leaseMs, `parley-${cluster.node}`);
  let node: ClusterNode | undefined;
  let db: Database | undefined;
  const bucket = await openFilesBucket(jet.nc);
  const snapshotBucket = await openSnapshotBucket(jet.nc);
  const nodes = await openNodesBucket(jet.nc, cluster.leaseMs);
  let files: FilesBucket | undefined;
  const server = await startServer(config, {
    ...options,
    cluster: {
      // Organizations are loaded only after attach (which makes `files`).
      fileReplicas: (realm) => files!.of(realm),
      async attach(parts, organizations) {
        files = new FilesBucket(bucket, parts.logger, { serves: (realm) => leaseHeldBy(jet.leases, realm, cluster.node), sweep: cluster.filesSweep });
        db = parts.db;
        const snapshots = new Snapshots(cluster.node, snapshotBucket.bucket, snapshotBucket.index, jet.jsm, parts.db, parts.logger, cluster.snapshotEvery);
        node = new ClusterNode({ config: cluster, jet, db: parts.db, counters: parts.counters, organizations, logger: parts.logger, snapshots, nodes });
        await node.start();
      },
    },
  });
  const forwarder = await startForwarder({ rootUrl: config.externalUrl, db: db!, leases: jet.leases, host: cluster.publicHost, port: cluster.publicPort, bodyLimitBytes: config.bodyLimitBytes });
  (options.print ?? ((line: string) => process.stdout.write(line + '\n')))(`Parley cluster node ${cluster.node} forwarding on http://${cluster.publicHost}:${forwarder.port}`);
  return {
    server,
    node: node!,
    forwarder,
    async stop() {
      await forwarder.close();
      await node!.stop();
      await server.stop();
      await node!.handOver();
      await jet.nc.close();
    },
  };
}
