/**
 * `POST /messages` to a channel with 100 subscribers, each holding a queue with a parked
 * long-poll that re-polls as soon as it is answered: messages acknowledged per second, and
 * the delay from acknowledgement to arrival at the pollers, durable and not.
 */
import { runLoad } from '../lib/load.js';
import { LongPoller, registerQueue } from '../lib/pollers.js';
import { startParley } from '../lib/processes.js';
import { DURATION_SECONDS, percentile, round, type Figure, type Scenario } from '../lib/scenario.js';
import { basicAuth, newDataDir, Seeder, type Credentials } from '../lib/seed.js';

const SUBSCRIBERS = 100;
const CONNECTIONS = 16;

async function measure(dataDir: string, sync: boolean, sender: Credentials, subscribers: Credentials[], profileDir: string | undefined) {
  const parley = await startParley({ dataDir, sync, profileDir });
  const pollers: LongPoller[] = [];
  try {
    for (const user of subscribers) {
      const queueId = await registerQueue(parley.url, basicAuth(user), { event_types: '["message"]' });
      const poller = new LongPoller(parley.port, basicAuth(user), queueId);
      poller.start();
      pollers.push(poller);
    }
    const acks = new Map<number, number>();
    const body = 'type=stream&to=send-bench&topic=load&content=' + encodeURIComponent('A message for a hundred people.');
    const load = await runLoad({
      url: parley.url,
      method: 'POST',
      path: '/api/v1/messages',
      headers: { authorization: basicAuth(sender), 'content-type': 'application/x-www-form-urlencoded' },
      body,
      connections: CONNECTIONS,
      durationSeconds: DURATION_SECONDS,
      onResponse: (status, text) => {
        if (status === 200) acks.set(JSON.parse(text).id as number, performance.now());
      },
    });
    if (load.non2xx || load.errors) throw new Error(`send: ${load.non2xx} non-2xx, ${load.errors} errors`);
    // Let the last deliveries arrive.
    const deadline = performance.now() + 10000;
    const maxId = Math.max(...acks.keys());
    while (performance.now() < deadline && pollers.some((p) => !p.arrivals.has(maxId))) await new Promise((r) => setTimeout(r, 50));
    const delays: number[] = [];
    let missing = 0;
    for (const [id, ackedAt] of acks) {
      for (const poller of pollers) {
        const arrived = poller.arrivals.get(id);
        if (arrived === undefined) missing++;
        else delays.push(arrived - ackedAt);
      }
    }
    delays.sort((a, b) => a - b);
    return { messagesPerSecond: round(acks.size / DURATION_SECONDS, 0), p50: round(percentile(delays, 50), 2), p99: round(percentile(delays, 99), 2), missing };
  } finally {
    for (const poller of pollers) await poller.stop();
    await parley.stop();
  }
}

export const send: Scenario = {
  name: 'send',
  description: 'POST /messages to a channel of 100 subscribers, each long-polling',
  async run(context) {
    const seed = async (label: string) => {
      const dataDir = newDataDir(label);
      const seeder = await Seeder.open(dataDir);
      const created = await seeder.users(SUBSCRIBERS, 'subscriber');
      const hamlet = seeder.services.org.users.byEmail('hamlet@example.com')!;
      await seeder.channel('send-bench', [...created, hamlet]);
      const seeded = { dataDir, sender: seeder.credentials(hamlet), subscribers: created.map((u) => seeder.credentials(u)) };
      await seeder.close();
      return seeded;
    };
    const durable = await seed('send-sync');
    const relaxed = await seed('send-nosync');
    context.log('  durable (PARLEY_SYNC=1)');
    const sync = await measure(durable.dataDir, true, durable.sender, durable.subscribers, context.profileDir);
    context.log('  not durable (PARLEY_SYNC=0)');
    const nosync = await measure(relaxed.dataDir, false, relaxed.sender, relaxed.subscribers, undefined);
    const baseline = await context.baseline({ method: 'POST', connections: CONNECTIONS, durationSeconds: DURATION_SECONDS });
    const figures: Figure[] = [
      { name: 'messages/s (durable)', value: sync.messagesPerSecond, unit: 'msg/s', baseline, ratio: round(sync.messagesPerSecond / baseline, 3) },
      { name: 'delivery p50 (durable)', value: sync.p50, unit: 'ms' },
      { name: 'delivery p99 (durable)', value: sync.p99, unit: 'ms' },
      { name: 'messages/s (PARLEY_SYNC=0)', value: nosync.messagesPerSecond, unit: 'msg/s', baseline, ratio: round(nosync.messagesPerSecond / baseline, 3) },
      { name: 'delivery p50 (PARLEY_SYNC=0)', value: nosync.p50, unit: 'ms' },
      { name: 'delivery p99 (PARLEY_SYNC=0)', value: nosync.p99, unit: 'ms' },
    ];
    const notes = [
      `${CONNECTIONS} sending connections for ${DURATION_SECONDS} s; ${SUBSCRIBERS} long-polling subscribers re-poll at once`,
      'delivery is timed from the moment the load generator reads the acknowledgement; the server writes the polls\' answers in the same turn as the acknowledgement, so a negative delay means the pollers read theirs first',
    ];
    if (sync.missing || nosync.missing) notes.push(`deliveries not seen within 10 s: ${sync.missing} (durable), ${nosync.missing} (not durable)`);
    return { scenario: 'send', description: this.description, figures, notes };
  },
};
