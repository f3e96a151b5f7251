/**
 * Scheduled delivery: 1,000 scheduled messages due in the same second, then 10,000 due over a
 * minute. Lateness is measured where a user sees it: from the due second to the arrival of the
 * message event at a client long-polling the sender's queue (so it includes the event's way out).
 * Zulip's deliverer wakes once a minute (up to 60 s late); the goal is p99 under 100 ms for the burst.
 */
import { startParley } from '../lib/processes.js';
import { percentile, round, type Figure, type Scenario } from '../lib/scenario.js';
import { basicAuth, newDataDir, Seeder, type Credentials } from '../lib/seed.js';

const FULL_SIZES = { burst: 1_000, spread: 10_000, spreadSeconds: 60 };
const QUICK_SIZES = { burst: 100, spread: 1_000, spreadSeconds: 10 };
/**
 * Scheduled messages delivered before the measured ones (see below). V8 was still compiling the
 * delivery path during a burst after 200 (70–140 functions, the burst costing 2–3 times the
 * steady cost per message); a server that has been running has sent thousands before.
 */
const WARM_UP = 2_000;
/** Requests in flight while scheduling. */
const CONCURRENCY = 32;

interface Due {
  /** Unix seconds. */
  at: number;
  /** Unix ms of the message event's arrival at the client. */
  arrived?: number;
}

async function post(url: string, user: Credentials, path: string, params: Record<string, string>): Promise<any> {
  const response = await fetch(`${url}/api/v1${path}`, {
    method: 'POST',
    headers: { authorization: basicAuth(user), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  const body = await response.json();
  if (response.status !== 200) throw new Error(`${path}: ${JSON.stringify(body)}`);
  return body;
}

/** Schedules every item, CONCURRENCY requests at a time. */
async function scheduleAll(url: string, user: Credentials, channelId: number, items: Map<string, Due>): Promise<void> {
  const pending = [...items.entries()];
  const worker = async () => {
    for (let next = pending.shift(); next; next = pending.shift()) {
      const [content, due] = next;
      await post(url, user, '/scheduled_messages', { type: 'stream', to: String(channelId), topic: 'bench', content, scheduled_delivery_timestamp: String(due.at) });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** Long-polls the queue until every item has arrived or `untilMs` passes; notes each arrival. */
async function collect(url: string, user: Credentials, queueId: string, lastEventId: number, items: Map<string, Due>, untilMs: number): Promise<void> {
  let last = lastEventId;
  let missing = items.size;
  while (missing > 0 && Date.now() < untilMs) {
    const query = new URLSearchParams({ queue_id: queueId, last_event_id: String(last), dont_block: 'false' });
    const response = await fetch(`${url}/api/v1/events?${query}`, { headers: { authorization: basicAuth(user) } });
    const arrived = Date.now();
    const body = (await response.json()) as { events: { id: number; type: string; message?: { content: string } }[] };
    for (const event of body.events) {
      last = Math.max(last, event.id);
      const due = event.type === 'message' ? items.get(event.message!.content) : undefined;
      if (due && due.arrived === undefined) {
        due.arrived = arrived;
        missing--;
      }
    }
  }
}

function lateness(name: string, items: Due[]): Figure[] {
  const late = items.filter((d) => d.arrived !== undefined).map((d) => d.arrived! - d.at * 1000).sort((a, b) => a - b);
  return [
    { name: `${name}: lateness p50`, value: round(percentile(late, 50), 0), unit: 'ms' },
    { name: `${name}: lateness p99`, value: round(percentile(late, 99), 0), unit: 'ms' },
    { name: `${name}: lateness max`, value: round(late[late.length - 1] ?? NaN, 0), unit: 'ms' },
  ];
}

export const scheduled: Scenario = {
  name: 'scheduled',
  description: 'scheduled messages: 1,000 due in the same second, 10,000 due over a minute; lateness to the client',
  async run(context) {
    const sizes = context.settings.quick ? QUICK_SIZES : FULL_SIZES;
    const dataDir = newDataDir('scheduled');
    const seeder = await Seeder.open(dataDir);
    const hamlet = seeder.demoUser('hamlet@example.com');
    const sender = seeder.services.org.users.byEmail('hamlet@example.com')!;
    // A channel of one: the delivery's events go to the one queue measuring them.
    const channel = await seeder.channel('scheduled bench', [sender]);
    await seeder.close();
    const parley = await startParley({ dataDir, sync: true, profileDir: context.profileDir });
    try {
      const queue = await post(parley.url, hamlet, '/register', { event_types: JSON.stringify(['message']) });
      // Far enough ahead for scheduling 11,000 over HTTP first, on a machine shared with other
      // work too (20 s was not always enough there); the spread starts after the burst.
      const burstAt = Math.ceil(Date.now() / 1000) + (context.settings.quick ? 15 : 60);
      const spreadFrom = burstAt + 5;
      // A running server has sent messages before: a warm-up batch, not measured, due a few seconds
      // before the burst, so that the burst does not measure the first compilation of the send path.
      const warmUp = new Map<string, Due>();
      for (let i = 0; i < WARM_UP; i++) warmUp.set(`warm-up ${i}`, { at: burstAt - 3 });
      await scheduleAll(parley.url, hamlet, channel.id, warmUp);
      const burst = new Map<string, Due>();
      for (let i = 0; i < sizes.burst; i++) burst.set(`burst ${i}`, { at: burstAt });
      const spread = new Map<string, Due>();
      for (let i = 0; i < sizes.spread; i++) spread.set(`spread ${i}`, { at: spreadFrom + Math.floor((i * sizes.spreadSeconds) / sizes.spread) });
      const all = new Map([...burst, ...spread]);
      const scheduling = performance.now();
      await scheduleAll(parley.url, hamlet, channel.id, all);
      const scheduledIn = performance.now() - scheduling;
      if (Date.now() >= burstAt * 1000) throw new Error('scheduling took longer than the lead time: raise it');
      context.log(`  scheduled ${all.size} in ${Math.round(scheduledIn)} ms; burst due in ${burstAt * 1000 - Date.now()} ms`);
      await collect(parley.url, hamlet, queue.queue_id, queue.last_event_id, all, (spreadFrom + sizes.spreadSeconds + 30) * 1000);
      const burstItems = [...burst.values()];
      const lost = [...all.values()].filter((d) => d.arrived === undefined).length;
      if (lost > 0) {
        const left = await (await fetch(`${parley.url}/api/v1/scheduled_messages`, { headers: { authorization: basicAuth(hamlet) } })).json() as { scheduled_messages: { failed: boolean }[] };
        context.log(`  ${lost} not seen by the client; ${left.scheduled_messages.length} still scheduled (${left.scheduled_messages.filter((s) => s.failed).length} failed); first missing: ${[...all.entries()].filter(([, d]) => d.arrived === undefined).slice(0, 3).map(([c, d]) => `${c} due ${d.at}`).join(', ')}`);
      }
      const lastBurst = Math.max(...burstItems.map((d) => d.arrived ?? NaN));
      const figures: Figure[] = [
        ...lateness(`${sizes.burst} due in one second`, burstItems),
        { name: 'send rate during the burst', value: round(sizes.burst / ((lastBurst - burstAt * 1000) / 1000), 0), unit: 'msg/s' },
        ...lateness(`${sizes.spread} due over ${sizes.spreadSeconds} s`, [...spread.values()]),
        { name: 'not delivered', value: lost, unit: 'messages' },
      ];
      return {
        scenario: 'scheduled',
        description: this.description,
        figures,
        notes: [
          `durable (PARLEY_SYNC=1); ${all.size} scheduled over HTTP (${CONCURRENCY} in flight) in ${Math.round(scheduledIn)} ms before the first was due; ${WARM_UP} more, not measured, delivered 3 s before the burst to warm the send path up`,
          'lateness: from the due second to the message event reaching a client long-polling the sender\'s queue; the send rate counts the burst from its due second to its last arrival',
          "Zulip's deliverer wakes once a minute (up to 60 s late); goal: burst p99 under 100 ms",
        ],
      };
    } finally {
      await parley.stop();
    }
  },
};
