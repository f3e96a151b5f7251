/**
 * The cost of replication (docs/cluster.md): `send-wide`'s durable sends to channels of 10, 1,000
 * and 10,000 subscribers and `dm`'s direct messages between pairs of 1,000 users, on an embedded
 * Parley and through a 3-replica cluster on loopback (three nats-servers, three Parley nodes),
 * measured in turn in the same run; then failover cycles (kill -9 of the owner under load) with
 * their time, p50 and max, and what they lost or doubled. Needs Debian's `nats-server`.
 */
import { apiEmail } from '../../src/domain/users.js';
import { LocalCluster, natsServerPath, type SeedOrganization } from '../../test/helpers/cluster.js';
import { failoverCycle } from '../../test/helpers/cluster-load.js';
import { alternate, alternatedFigures, type Side } from '../lib/alternate.js';
import { onCore, pinning } from '../lib/pinning.js';
import { median, type Figure, type Scenario, type Settings } from '../lib/scenario.js';
import { basicAuth, newDataDir, Seeder, type Credentials } from '../lib/seed.js';

const SIZES = [10, 1000, 10000];
const DM_USERS = 1000;
const CONNECTIONS = 16;
/** Failover cycles of a full run and of `--quick`. */
const CYCLES = { full: 20, quick: 2 };

interface Seeded {
  dir: string;
  hamlet: Credentials;
  people: Credentials[];
  /** The organization as the failover cycles reach it (iago), given the cluster's public URL. */
  organization(externalUrl: string): SeedOrganization;
}

/** send-wide's channels (the sender one of each channel's subscribers) and dm's 1,000 users, in the demo organization. */
async function seed(): Promise<Seeded> {
  const dir = newDataDir('cluster');
  const seeder = await Seeder.open(dir);
  const members = await seeder.users(Math.max(...SIZES), 'member');
  const hamlet = seeder.services.org.users.byEmail('hamlet@example.com')!;
  for (const size of SIZES) await seeder.channel(`wide-${size}`, [hamlet, ...members.slice(0, size - 1)]);
  const realm = seeder.services.org.id;
  const iago = seeder.services.org.users.byEmail('iago@example.com')!;
  const result: Seeded = {
    dir,
    hamlet: seeder.credentials(hamlet),
    people: members.slice(0, DM_USERS).map((user) => seeder.credentials(user)),
    organization: (externalUrl) => {
      const host = new URL(externalUrl).host;
      return { realm, host, email: apiEmail(iago, host), apiKey: iago.apiKey };
    },
  };
  await seeder.close();
  return result;
}

/** One request measured on every side. */
interface Shape {
  label: string;
  headers: Record<string, string>;
  body?: string;
  /** dm's: each request takes the next sender and body. */
  variants?: { headers: Record<string, string>; body: string }[];
}

/** Every request shape: send-wide's three channels and dm's pairs (i writes to i + 1 + (i mod 7)). */
function requests(seeded: Seeded, host: string): Shape[] {
  const headers = { host, 'content-type': 'application/x-www-form-urlencoded' };
  const shapes: Shape[] = SIZES.map((size) => ({
    label: `channel send, ${size.toLocaleString('en')} subscribers`,
    headers: { ...headers, authorization: basicAuth(seeded.hamlet) },
    body: `type=stream&to=wide-${size}&topic=load&content=` + encodeURIComponent('A message for everyone in the channel.'),
  }));
  const { people } = seeded;
  const variants = people.map((from, i) => ({
    headers: { authorization: basicAuth(from) },
    body: `type=direct&to=${encodeURIComponent(JSON.stringify([people[(i + 1 + (i % 7)) % people.length]!.id]))}&content=hello`,
  }));
  shapes.push({ label: 'direct message', headers, variants });
  return shapes;
}

/** Kill -9 of the owner under load, `cycles` times: time to the first answered send after the kill, what was lost or doubled. */
async function failovers(cluster: LocalCluster, org: SeedOrganization, cycles: number, log: (line: string) => void): Promise<Figure[]> {
  const times: number[] = [];
  let lost = 0;
  let duplicated = 0;
  let reused = 0;
  const started = performance.now();
  for (let cycle = 1; cycle <= cycles; cycle++) {
    const result = await failoverCycle(cluster, org, `bench${cycle}`);
    times.push(result.failoverMs);
    // A queue the failover lost (BAD_EVENT_QUEUE_ID) counts as events lost.
    lost += result.lost + result.changesLost + result.eventsMissing + (result.queueLost ? 1 : 0);
    duplicated += result.duplicated;
    reused += result.reusedIds;
    log(`    failover ${cycle}: ${result.failoverMs} ms (node ${result.killed} → ${result.newOwner}), ${result.acked} sends answered, lost ${result.lost + result.changesLost + result.eventsMissing}${result.queueLost ? ' (the queue lost)' : ''}, duplicated ${result.duplicated}`);
    await cluster.waitServed();
  }
  log(`    ${cycles} failover cycles in ${Math.round((performance.now() - started) / 1000)} s`);
  times.sort((a, b) => a - b);
  return [
    { name: 'failover time p50 (lease 3 s)', value: median(times), unit: 'ms' },
    { name: 'failover time max (lease 3 s)', value: times.at(-1)!, unit: 'ms' },
    { name: 'failover: answered writes or events lost', value: lost, unit: '' },
    { name: 'failover: answered messages doubled, ids reused', value: duplicated + reused, unit: '' },
  ];
}

async function measureAll(cluster: LocalCluster, seeded: Seeded, settings: Settings, log: (line: string) => void): Promise<Figure[]> {
  const org = cluster.organizations[0]!;
  const owner = (await cluster.ownerOf(org))!;
  const other = (owner + 1) % 3;
  const embedded = await cluster.startEmbedded();
  // A cluster side's CPU is all six processes'; the node answering comes first.
  const pids = (first: number) => () => [cluster.pidOf(first), ...cluster.nodes.map((_, i) => i).filter((i) => i !== first).map((i) => cluster.pidOf(i)), ...cluster.nats.map((n) => n.process.pid!)];
  const sides: Side[] = [
    { name: 'embedded', url: embedded.url, pids: () => [embedded.pid] },
    { name: "cluster, owner's server", url: `http://127.0.0.1:${cluster.nodes[owner]!.internalPort}`, pids: pids(owner) },
    { name: "cluster, another node's forwarder", url: `http://127.0.0.1:${cluster.nodes[other]!.publicPort}`, pids: pids(other) },
  ];
  const figures: Figure[] = [];
  try {
    for (const shape of requests(seeded, org.host)) {
      const started = performance.now();
      log(`  ${shape.label}`);
      const load = { method: 'POST' as const, path: '/api/v1/messages', headers: shape.headers, body: shape.body, variants: shape.variants, connections: CONNECTIONS };
      figures.push(...alternatedFigures(await alternate(sides, load, settings, shape.label, log), shape.label, 'msg/s', CONNECTIONS));
      log(`    ${Math.round((performance.now() - started) / 1000)} s`);
    }
  } finally {
    await embedded.stop();
  }
  return figures;
}

export const cluster: Scenario = {
  name: 'cluster',
  description: "send-wide's and dm's durable sends on an embedded Parley and through a 3-replica cluster (3 nats-servers, 3 nodes) in turn; failover cycles",
  unavailable: () => (natsServerPath() ? undefined : 'nats-server is not installed (Debian: apt-get install nats-server)'),
  async run(context) {
    const reason = this.unavailable!();
    if (reason) throw new Error(reason);
    const { settings, log } = context;
    const begun = performance.now();
    const seeded = await seed();
    // Every process of the cluster (and the embedded server) on the server's core, as the other
    // scenarios' servers: the load generator keeps its own core. BENCH_CLUSTER_CORES=both spreads
    // them over both cores, the load generator's too (the method of the standalone bench before).
    const { serverCore, clientCore } = pinning();
    const spread = process.env.BENCH_CLUSTER_CORES === 'both' && serverCore !== undefined && clientCore !== undefined;
    const spawnVia = (command: string, args: readonly string[]): [string, string[]] =>
      spread ? ['taskset', ['-c', `${clientCore},${serverCore}`, command, ...args]] : onCore(serverCore, command, args);
    const started = await LocalCluster.start(3, { PARLEY_SYNC: '1', PARLEY_LOG_LEVEL: 'error', PARLEY_CLUSTER_SNAPSHOT_ENTRIES: '0' }, {
      dir: seeded.dir,
      organizations: (url) => [seeded.organization(url)],
    }, spawnVia);
    const cycles = settings.quick ? CYCLES.quick : CYCLES.full;
    log(`  seeded and started in ${Math.round((performance.now() - begun) / 1000)} s`);
    try {
      // Organizations move to their placed node after start: measure where they stay.
      await started.waitSettled();
      const figures = await measureAll(started, seeded, settings, log);
      figures.push(...(await failovers(started, started.organizations[0]!, cycles, log)));
      return {
        scenario: 'cluster',
        description: this.description,
        figures,
        notes: [
          `durable (PARLEY_SYNC=1) on every Parley; ${CONNECTIONS} connections; streams and buckets with 3 replicas; no snapshots during the run (PARLEY_CLUSTER_SNAPSHOT_ENTRIES=0)`,
          `the embedded server and the cluster run on one seeded data directory (send-wide's channels, dm's 1,000 users) and are measured in turn (embedded, the owner's own server, another node's forwarder), ${settings.rounds} rounds of ${settings.durationSeconds} s; each ratio is the cluster's msg/s over the embedded server's in the same round (median of the rounds)`,
          spread
            ? 'BENCH_CLUSTER_CORES=both: every process of the cluster (3 nats-servers, 3 Parley nodes) and the embedded server spread over both cores, the load generator\'s too'
            : `every process of the cluster (3 nats-servers, 3 Parley nodes) shares the server's one core with the idle embedded server: the ratio is the CPU cost of replication on one core, not the speed of three machines`,
          `one cluster for every shape, in the order 10, 1,000, 10,000 subscribers, direct messages: its stream and stores grow through the run`,
          `failover: ${cycles} cycles of kill -9 of the owner under sends, reactions, stars and a polled event queue through another node, lease 3 s; time from the kill to the first send made after it and answered; the killed node restarted and rejoins each time`,
        ],
      };
    } finally {
      await started.stop();
    }
  },
};
