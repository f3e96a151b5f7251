/**
 * `npm run cluster-test -- --cycles N`: N failover cycles (kill -9 of the owner under a load of
 * sends, reactions, stars and an event queue's polls; the killed node restarted) on a loopback
 * cluster of three nats-servers and three Parley nodes. Each cycle checks its own answered writes
 * and every answered send of the earlier cycles (restarted nodes serve them when they take over);
 * prints each cycle and `lost L, duplicated D` at the end (exit 1 unless both are 0).
 */
import { LocalCluster, natsServerPath } from '../test/helpers/cluster.js';
import { failoverCycle } from '../test/helpers/cluster-load.js';

async function main(): Promise<void> {
  const at = process.argv.indexOf('--cycles');
  const cycles = at >= 0 ? Number(process.argv[at + 1]) : 5;
  if (!natsServerPath()) throw new Error('nats-server is not installed (Debian: apt-get install nats-server)');
  const cluster = await LocalCluster.start();
  let lost = 0;
  let duplicated = 0;
  let reused = 0;
  const times: number[] = [];
  // Every answered send of every cycle, per organization, checked again in each later cycle.
  const histories = cluster.organizations.map(() => new Map<string, number>());
  try {
    for (let cycle = 1; cycle <= cycles; cycle++) {
      const org = cluster.organizations[cycle % 2]!;
      const result = await failoverCycle(cluster, org, `cycle${cycle}`, 20, 20, 3, histories[cycle % 2]);
      lost += result.lost;
      duplicated += result.duplicated;
      reused += result.reusedIds;
      times.push(result.failoverMs);
      lost += result.changesLost + result.eventsMissing;
      console.log(
        `cycle ${cycle}: organization ${org.realm}, node p${result.killed} killed, p${result.newOwner} serves; ${result.acked} sends and ${result.changes} reactions/stars answered, ` +
          `lost ${result.lost + result.changesLost}, duplicated ${result.duplicated}, events missing ${result.eventsMissing}${result.queueLost ? ' (queue gone)' : ''}; failover ${result.failoverMs} ms`,
      );
      await cluster.waitServed();
    }
  } finally {
    await cluster.stop();
  }
  times.sort((a, b) => a - b);
  console.log(`failover over ${cycles} cycles: p50 ${times[Math.floor((times.length - 1) / 2)]} ms, max ${times.at(-1)} ms`);
  console.log(`lost ${lost}, duplicated ${duplicated}${reused ? `, ids reused ${reused}` : ''}`);
  process.exitCode = lost === 0 && duplicated === 0 && reused === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
