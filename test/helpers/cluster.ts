/**
 * A Parley cluster on loopback for tests, `npm run cluster-test` and the bench's cluster scenario:
 * three nats-server processes (one JetStream cluster, temporary store directories, free ports), a
 * seed data directory (the demo organization and a second one at `b`, made by an embedded server;
 * or one given, the bench's), and three Parley nodes started from copies of it as child processes
 * (so that a test can kill -9 or SIGSTOP them).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Kvm, type KV } from '@nats-io/kv';
import { Objm, type ObjectStore } from '@nats-io/obj';
import { jetstreamManager } from '@nats-io/jetstream';
import { placementOf } from '../../src/cluster/placement.js';
import { apiEmail } from '../../src/domain/users.js';
import type { Services } from '../../src/services.js';
import { Api } from './client.js';
import { addDemoOrganization } from './organizations.js';
import { freePort, startTestServer, tempDataDir } from './server.js';
import { childEnv, TEST_NODE_ARGS } from './temp.js';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

/** Whether nats-server can be run here (Debian's package; .ci/run installs it). */
export function natsServerPath(): string | undefined {
  // Debian puts it in /usr/sbin, which a non-login PATH may lack.
  for (const path of ['/usr/sbin/nats-server', '/usr/bin/nats-server']) if (existsSync(path)) return path;
  const found = spawnSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

/** A process and how to wait for a line it prints. */
class Child {
  output = '';
  constructor(readonly process: ChildProcess) {
    process.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    process.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  async waitFor(text: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.output.includes(text)) {
      if (Date.now() > deadline || this.process.exitCode !== null) throw new Error(`waiting for '${text}': ${this.output.slice(-2000)}`);
      await sleep(50);
    }
  }

  signal(signal: NodeJS.Signals): void {
    this.process.kill(signal);
  }

  async exited(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    await new Promise((resolve) => this.process.once('exit', resolve));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One organization of the seed: its id and a client's credentials. */
export interface SeedOrganization {
  realm: number;
  host: string;
  email: string;
  apiKey: string;
}

export interface ParleyNode {
  name: string;
  child: Child;
  dataDir: string;
  publicPort: number;
  internalPort: number;
  /** The node's /metrics listener (PARLEY_METRICS_PORT). */
  metricsPort: number;
  /** A client of `org` reaching this node's public port (the forwarder). */
  client(org: SeedOrganization): Api;
  /** A client of `org` reaching this node's Parley server directly (no forwarding: fencing tests). */
  direct(org: SeedOrganization): Api;
}

/** A seed made elsewhere (the bench's seeded organization), instead of the demo and `b`. */
export interface ClusterSeed {
  /** A stopped server's data directory: each node (and the embedded server) starts from a copy. */
  dir: string;
  /** Its organizations as clients reach them, given the cluster's public URL. */
  organizations(externalUrl: string): SeedOrganization[];
}

/** How the cluster's processes are started: `[command, args]` to run instead (the bench pins them with taskset). */
export type SpawnVia = (command: string, args: readonly string[]) => [string, string[]];

export class LocalCluster {
  readonly nats: Child[] = [];
  readonly natsPorts: number[] = [];
  readonly nodes: ParleyNode[] = [];
  organizations: SeedOrganization[] = [];
  private connection: NatsConnection | undefined;
  private kv: KV | undefined;
  private routePorts: number[] = [];
  private seedDir = '';
  private externalUrl = '';

  constructor(
    readonly dir: string,
    private readonly leaseSeconds = 3,
    /** Settings every Parley node gets on top of the harness's (the bench: PARLEY_SYNC=1). */
    private readonly nodeEnv: Record<string, string> = {},
    private readonly spawnVia: SpawnVia = (command, args) => [command, [...args]],
  ) {}

  /** `extraOrganizations`: subdomains of demo organizations a made seed holds beside the two. */
  static async start(leaseSeconds = 3, nodeEnv: Record<string, string> = {}, seed?: ClusterSeed, spawnVia?: SpawnVia, extraOrganizations: string[] = []): Promise<LocalCluster> {
    const cluster = new LocalCluster(tempDataDir(), leaseSeconds, nodeEnv, spawnVia);
    await cluster.startNats();
    if (seed) await cluster.useSeed(seed);
    else await cluster.makeSeed(extraOrganizations);
    for (let i = 0; i < 3; i++) await cluster.startNode(i);
    await cluster.waitServed();
    return cluster;
  }

  /** Three nats-servers forming one JetStream cluster. */
  private async startNats(): Promise<void> {
    for (let i = 0; i < 3; i++) this.natsPorts.push(await freePort());
    for (let i = 0; i < 3; i++) this.routePorts.push(await freePort());
    for (let i = 0; i < 3; i++) this.nats.push(await this.startNatsServer(i));
  }

  private async startNatsServer(i: number): Promise<Child> {
    const routes = this.routePorts.map((port) => `nats-route://127.0.0.1:${port}`).join(', ');
    const store = join(this.dir, `nats${i}`);
    mkdirSync(store, { recursive: true });
    const conf = join(this.dir, `nats${i}.conf`);
    writeFileSync(
      conf,
      `server_name: n${i}\nlisten: 127.0.0.1:${this.natsPorts[i]}\njetstream { store_dir: "${store}" }\ncluster { name: parley, listen: 127.0.0.1:${this.routePorts[i]}, routes: [${routes}] }\n`,
    );
    const child = new Child(this.spawn(natsServerPath()!, ['-c', conf], undefined));
    await child.waitFor('Server is ready');
    return child;
  }

  /** Kills a nats-server (kill -9). */
  killNats(i: number): void {
    this.nats[i]!.signal('SIGKILL');
  }

  private spawn(command: string, args: string[], env: NodeJS.ProcessEnv | undefined): ChildProcess {
    const [run, runArgs] = this.spawnVia(command, args);
    return spawn(run, runArgs, { ...(env ? { env } : {}), stdio: ['ignore', 'pipe', 'pipe'] });
  }

  private async useSeed(seed: ClusterSeed): Promise<void> {
    this.seedDir = seed.dir;
    this.externalUrl = `http://localhost:${await freePort()}`;
    this.organizations = seed.organizations(this.externalUrl);
  }

  /** The demo organization and a second at `b`, made by an embedded server, then stopped: each node starts from a copy. */
  private async makeSeed(extra: string[]): Promise<void> {
    const port = await freePort();
    this.externalUrl = `http://localhost:${port}`;
    this.seedDir = join(this.dir, 'seed');
    const server = await startTestServer({ PARLEY_EXTERNAL_URL: this.externalUrl }, { dataDir: this.seedDir, port });
    const b = await addDemoOrganization(server, 'b');
    const credentials = (services: Services): SeedOrganization => {
      const user = services.org.users.byEmail('iago@example.com')!;
      return { realm: services.org.id, host: `${new URL(services.org.url).hostname}:${port}`, email: apiEmail(user, services.org.host), apiKey: user.apiKey };
    };
    const more = [];
    for (const subdomain of extra) more.push(await addDemoOrganization(server, subdomain));
    this.organizations = [credentials(server.services), credentials(b), ...more.map(credentials)];
    await server.stop();
  }

  async startNode(i: number, fresh = true): Promise<ParleyNode> {
    const name = `p${i}`;
    const dataDir = join(this.dir, name);
    if (fresh) cpSync(this.seedDir, dataDir, { recursive: true });
    const previous = this.nodes[i];
    const internalPort = previous?.internalPort ?? (await freePort());
    const publicPort = previous?.publicPort ?? (await freePort());
    const metricsPort = previous?.metricsPort ?? (await freePort());
    const env = {
      ...process.env,
      PARLEY_DATA_DIR: dataDir,
      PARLEY_PORT: String(internalPort),
      PARLEY_HOST: '127.0.0.1',
      PARLEY_EXTERNAL_URL: this.externalUrl,
      PARLEY_SYNC: '0',
      PARLEY_RATE_LIMIT: '0',
      PARLEY_DRAIN_SECONDS: '0',
      PARLEY_LOG_LEVEL: 'warn',
      PARLEY_CLUSTER_NATS: this.natsPorts.map((p) => `nats://127.0.0.1:${p}`).join(','),
      PARLEY_NODE_NAME: name,
      PARLEY_NODE_URL: `http://127.0.0.1:${internalPort}`,
      PARLEY_CLUSTER_PORT: String(publicPort),
      PARLEY_METRICS_PORT: String(metricsPort),
      PARLEY_CLUSTER_LEASE_SECONDS: String(this.leaseSeconds),
      ...this.nodeEnv,
    };
    const child = new Child(this.spawn(process.execPath, [...TEST_NODE_ARGS, '--enable-source-maps', MAIN], childEnv(env)));
    await child.waitFor('forwarding on', 60_000);
    const node: ParleyNode = {
      name,
      child,
      dataDir,
      publicPort,
      internalPort,
      metricsPort,
      client: (org) => new Api(`http://127.0.0.1:${publicPort}`, org.email, org.apiKey, org.host),
      direct: (org) => new Api(`http://127.0.0.1:${internalPort}`, org.email, org.apiKey, org.host),
    };
    this.nodes[i] = node;
    return node;
  }

  /** An embedded Parley (no cluster) on its own copy of the seed, for comparison (the bench). */
  async startEmbedded(): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
    const dataDir = join(this.dir, 'embedded');
    cpSync(this.seedDir, dataDir, { recursive: true });
    const port = await freePort();
    const env = { ...process.env, PARLEY_DATA_DIR: dataDir, PARLEY_PORT: String(port), PARLEY_HOST: '127.0.0.1', PARLEY_EXTERNAL_URL: this.externalUrl, PARLEY_SYNC: '0', PARLEY_RATE_LIMIT: '0', PARLEY_DRAIN_SECONDS: '0', PARLEY_LOG_LEVEL: 'warn', ...this.nodeEnv };
    const child = new Child(this.spawn(process.execPath, [...TEST_NODE_ARGS, '--enable-source-maps', MAIN], childEnv(env)));
    await child.waitFor('listening');
    return {
      url: `http://127.0.0.1:${port}`,
      pid: child.process.pid!,
      stop: async () => {
        child.signal('SIGTERM');
        await child.exited();
      },
    };
  }

  /** The process id of a node (the bench measures the owner's CPU). */
  pidOf(i: number): number {
    return this.nodes[i]!.child.process.pid!;
  }

  /** Waits until every organization answers through every node's forwarder. */
  async waitServed(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (const node of this.nodes) {
      for (const org of this.organizations) {
        while ((await node.client(org).get('/users/me').catch(() => ({ status: 0 }))).status !== 200) {
          if (Date.now() > deadline) throw new Error(`organization ${org.realm} not served through ${node.name}: ${node.child.output.slice(-2000)}`);
          await sleep(100);
        }
      }
    }
  }

  private async leases(): Promise<KV> {
    if (!this.kv) this.kv = await new Kvm(await this.natsConnection()).open('parley_leases');
    return this.kv;
  }

  private async natsConnection(): Promise<NatsConnection> {
    this.connection ??= await connect({ servers: this.natsPorts.map((p) => `nats://127.0.0.1:${p}`), maxReconnectAttempts: -1, reconnectTimeWait: 250 });
    return this.connection;
  }

  /** An organization's stream: its first and last sequence (src/cluster/streams.ts). */
  async streamState(realm: number): Promise<{ first: number; last: number }> {
    // Tried again for a while: the connection may be moving off a nats-server a test killed.
    for (let attempt = 0; ; attempt++) {
      try {
        const jsm = await jetstreamManager(await this.natsConnection(), { checkAPI: false, timeout: 5_000 });
        const state = (await jsm.streams.info(`PARLEY_ORG_${realm}`)).state;
        return { first: state.first_seq, last: state.last_seq };
      } catch (error) {
        if (attempt >= 10) throw error;
        await sleep(250);
      }
    }
  }

  /** Starts node `i` again on a fresh copy of the seed (a new node: its store holds none of the streams). */
  async startFreshNode(i: number): Promise<ParleyNode> {
    rmSync(join(this.dir, `p${i}`), { recursive: true, force: true });
    return this.startNode(i, true);
  }

  /** The index of the organizations' current snapshots (src/cluster/snapshot-index.ts). */
  async snapshotIndex(): Promise<KV> {
    return new Kvm(await this.natsConnection()).open('parley_snapshot_index');
  }

  /** The bucket the nodes replicate uploaded files to (src/cluster/files-bucket.ts). */
  async filesBucket(): Promise<ObjectStore> {
    return new Objm(await this.natsConnection()).open('parley_files');
  }

  /** The index of the node holding an organization's lease (undefined: none now). */
  async ownerOf(org: Pick<SeedOrganization, 'realm'>): Promise<number | undefined> {
    const entry = await (await this.leases()).get(`org_${org.realm}`).catch(() => null);
    if (!entry || entry.operation !== 'PUT') return undefined;
    const name = (JSON.parse(entry.string()) as { node: string }).node;
    return this.nodes.findIndex((node) => node.name === name);
  }

  /** Waits until an organization's lease is held by a node other than `not`; its index. */
  async waitOwnerOtherThan(org: SeedOrganization, not: number, timeoutMs = 30_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const owner = await this.ownerOf(org);
      if (owner !== undefined && owner !== not) return owner;
      if (Date.now() > deadline) throw new Error(`organization ${org.realm} still held by node ${not}`);
      await sleep(100);
    }
  }

  /** Every organization the cluster lists (src/cluster/registry.ts), made in the test ones included. */
  async listedRealms(): Promise<number[]> {
    const registry = await new Kvm(await this.natsConnection()).open('parley_organizations');
    const realms: number[] = [];
    for await (const key of await registry.keys()) if (key.startsWith('realm_')) realms.push(Number(key.slice('realm_'.length)));
    return realms.sort((a, b) => a - b);
  }

  /** The indices of the nodes whose process runs. */
  running(): number[] {
    return [...this.nodes.keys()].filter((i) => this.nodes[i]!.child.process.exitCode === null && this.nodes[i]!.child.process.signalCode === null);
  }

  /**
   * Waits until every organization is held by the node the placement (src/cluster/placement.ts)
   * gives it among the `live` nodes (default: those running): the cluster has settled. Returns
   * each organization's owner (node index).
   */
  async waitSettled(live = this.running(), timeoutMs = 90_000): Promise<Map<number, number>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const realms = await this.listedRealms().catch(() => []);
      const wanted = placementOf(realms, live.map((i) => this.nodes[i]!.name));
      const owners = new Map<number, number>();
      for (const realm of realms) {
        const owner = await this.ownerOf({ realm });
        if (owner !== undefined && owner >= 0) owners.set(realm, owner);
      }
      if (realms.length > 0 && realms.every((realm) => owners.has(realm) && this.nodes[owners.get(realm)!]!.name === wanted.get(realm))) return owners;
      if (Date.now() > deadline) {
        const logs = live.map((i) => `--- ${this.nodes[i]!.name}:\n${this.nodes[i]!.child.output.slice(-3000)}`).join('\n');
        throw new Error(`not settled: owners ${JSON.stringify([...owners])}, wanted ${JSON.stringify([...wanted])}\n${logs}`);
      }
      await sleep(200);
    }
  }

  /** Waits until node `i` holds an organization's lease; `i`. */
  async waitOwner(org: SeedOrganization, i: number, timeoutMs = 30_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while ((await this.ownerOf(org)) !== i) {
      if (Date.now() > deadline) throw new Error(`organization ${org.realm} not held by node ${i}`);
      await sleep(100);
    }
    return i;
  }

  async stop(): Promise<void> {
    await this.connection?.close().catch(() => undefined);
    for (const node of this.nodes) {
      if (node.child.process.signalCode === 'SIGSTOP') node.child.signal('SIGCONT');
      node.child.signal('SIGKILL');
      await node.child.exited();
    }
    for (const child of this.nats) {
      child.signal('SIGKILL');
      await child.exited();
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
