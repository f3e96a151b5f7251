/**
 * `npm run bench-cluster [-- --seconds S] [--cycles N]`: the cost of replication. A channel send
 * (`send-wide`'s request, to the demo's #general) and a direct message (`dm`'s), durable
 * (PARLEY_SYNC=1), 16 connections, on an embedded Parley and through a 3-replica cluster on
 * loopback (three nats-servers, three Parley nodes): at the owner's own server (replication only),
 * at the owner's forwarder, and at another node's forwarder (one more hop). Then N failover cycles
 * (kill -9 of the owner under load) with their p50 and max. Prints a table; each ratio is the
 * cluster's messages/s over the embedded server's.
 */
import { LocalCluster, natsServerPath } from '../test/helpers/cluster.js';
import { failoverCycle } from '../test/helpers/cluster-load.js';
import { runLoad, loadGenerator } from './lib/load.js';

const CONNECTIONS = 16;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

async function main(): Promise<void> {
  if (!natsServerPath()) throw new Error('nats-server is not installed (Debian: apt-get install nats-server)');
  const seconds = option('--seconds', 5);
  const cycles = option('--cycles', 20);
  const cluster = await LocalCluster.start(3, { PARLEY_SYNC: '1' });
  try {
    const org = cluster.organizations[0]!;
    const owner = (await cluster.ownerOf(org))!;
    const other = (owner + 1) % 3;
    const embedded = await cluster.startEmbedded();
    const authorization = 'Basic ' + Buffer.from(`${org.email}:${org.apiKey}`).toString('base64');
    const headers = { authorization, host: org.host, 'content-type': 'application/x-www-form-urlencoded' };
    const requests = {
      'send (channel)': 'type=stream&to=general&topic=load&content=' + encodeURIComponent('A message for everyone in the channel.'),
      dm: 'type=direct&to=' + encodeURIComponent('["hamlet@example.com"]') + '&content=' + encodeURIComponent('A direct message.'),
    };
    const targets: [string, string, number][] = [
      ['embedded', embedded.url, embedded.pid],
      ["cluster, owner's server", `http://127.0.0.1:${cluster.nodes[owner]!.internalPort}`, cluster.pidOf(owner)],
      ["cluster, owner's forwarder", `http://127.0.0.1:${cluster.nodes[owner]!.publicPort}`, cluster.pidOf(owner)],
      ["cluster, another node's forwarder", `http://127.0.0.1:${cluster.nodes[other]!.publicPort}`, cluster.pidOf(owner)],
    ];
    console.log(`load: ${loadGenerator().description}; ${CONNECTIONS} connections, ${seconds} s per run, PARLEY_SYNC=1 everywhere`);
    for (const [name, body] of Object.entries(requests)) {
      let reference = 0;
      for (const [target, url, pid] of targets) {
        const result = await runLoad({ url, method: 'POST', path: '/api/v1/messages', headers, body, connections: CONNECTIONS, durationSeconds: seconds }, pid);
        if (target === 'embedded') reference = result.requestsPerSecond;
        const ratio = reference ? (result.requestsPerSecond / reference).toFixed(2) : '-';
        console.log(`${name.padEnd(15)} ${target.padEnd(34)} ${String(result.requestsPerSecond).padStart(6)} msg/s  ratio ${ratio}  p50 ${result.latencyP50Ms} ms  p99 ${result.latencyP99Ms} ms  errors ${result.errors + result.non2xx}`);
      }
    }
    await embedded.stop();
    const times: number[] = [];
    let lost = 0;
    let duplicated = 0;
    for (let cycle = 1; cycle <= cycles; cycle++) {
      const result = await failoverCycle(cluster, cluster.organizations[cycle % 2]!, `bench${cycle}`);
      times.push(result.failoverMs);
      lost += result.lost + result.changesLost + result.eventsMissing;
      duplicated += result.duplicated;
      await cluster.waitServed();
    }
    if (cycles > 0) {
      times.sort((a, b) => a - b);
      console.log(`failover over ${cycles} cycles (lease 3 s): p50 ${times[Math.floor((times.length - 1) / 2)]} ms, max ${times.at(-1)} ms; lost ${lost}, duplicated ${duplicated}`);
    }
  } finally {
    await cluster.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
