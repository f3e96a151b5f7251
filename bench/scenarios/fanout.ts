/**
 * 10,000 registered queues, each with a parked long-poll; one message to a channel they all
 * follow: the time until the last poll is answered, and memory per queue. The baseline holds
 * 10,000 parked responses on a bare uWS server and answers them all at once.
 */
import { ParkedRequest, registerQueue } from '../lib/pollers.js';
import { rssOf, startBareUws, startParley } from '../lib/processes.js';
import { round, type Scenario } from '../lib/scenario.js';
import { basicAuth, newDataDir, Seeder, type Credentials } from '../lib/seed.js';

const QUEUES = 10_000;
const USERS = 100;

const settle = () => new Promise((resolve) => setTimeout(resolve, 2000));

async function inBatches<T>(count: number, size: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < count; start += size) {
    results.push(...(await Promise.all(Array.from({ length: Math.min(size, count - start) }, (_, k) => work(start + k)))));
  }
  return results;
}

export const fanout: Scenario = {
  name: 'fanout',
  description: '10,000 parked long-polls answered by one message',
  async run(context) {
    const dataDir = newDataDir('fanout');
    const seeder = await Seeder.open(dataDir);
    const followers = await seeder.users(USERS, 'follower');
    const hamlet = seeder.services.org.users.byEmail('hamlet@example.com')!;
    await seeder.channel('everyone-here', [...followers, hamlet]);
    const people: Credentials[] = followers.map((u) => seeder.credentials(u));
    const sender = seeder.credentials(hamlet);
    await seeder.close();

    const parley = await startParley({ dataDir, sync: true, profileDir: context.profileDir });
    let parked: ParkedRequest[] = [];
    try {
      await settle();
      const before = rssOf(parley.child.pid!);
      context.log(`  registering ${QUEUES} queues`);
      const queues = await inBatches(QUEUES, 100, (i) =>
        registerQueue(parley.url, basicAuth(people[i % USERS]), { event_types: '["message"]', fetch_event_types: '["message"]' }),
      );
      parked = queues.map((queueId, i) => new ParkedRequest(parley.port, `/api/v1/events?queue_id=${queueId}&last_event_id=-1`, basicAuth(people[i % USERS])));
      await settle();
      const after = rssOf(parley.child.pid!);
      const started = performance.now();
      const response = await fetch(`${parley.url}/api/v1/messages`, {
        method: 'POST',
        headers: { authorization: basicAuth(sender), 'content-type': 'application/x-www-form-urlencoded' },
        body: 'type=stream&to=everyone-here&topic=news&content=' + encodeURIComponent('Hello, all ten thousand of you.'),
      });
      if (response.status !== 200) throw new Error(`fanout: send failed with ${response.status}`);
      await Promise.all(parked.map((p) => p.answered));
      const parleyMs = Math.max(...parked.map((p) => p.answeredAt)) - started;
      const perQueue = (after - before) / QUEUES;
      for (const p of parked) p.close();
      parked = [];

      const bare = await startBareUws();
      try {
        await settle();
        const bareBefore = rssOf(bare.child.pid!);
        parked = Array.from({ length: QUEUES }, () => new ParkedRequest(bare.port, '/park'));
        await settle();
        const bareAfter = rssOf(bare.child.pid!);
        const bareStarted = performance.now();
        await fetch(`${bare.url}/release`, { method: 'POST' });
        await Promise.all(parked.map((p) => p.answered));
        const bareMs = Math.max(...parked.map((p) => p.answeredAt)) - bareStarted;
        const barePerResponse = (bareAfter - bareBefore) / QUEUES;
        return {
          scenario: 'fanout',
          description: this.description,
          figures: [
            { name: 'time to answer all', value: round(parleyMs, 1), unit: 'ms', baseline: round(bareMs, 1), ratio: round(parleyMs / bareMs, 2) },
            { name: 'memory per queue with parked poll', value: Math.round(perQueue), unit: 'bytes', baseline: Math.round(barePerResponse), ratio: round(perQueue / barePerResponse, 2) },
          ],
          notes: [
            `${QUEUES} queues of ${USERS} users, all subscribed; time from sending the message to the last answer (durable send)`,
            'ratios here are Parley / baseline (lower is better): the goal is ≤ 1.5× the time and < 2 KB per queue',
          ],
        };
      } finally {
        for (const p of parked) p.close();
        await bare.stop();
      }
    } finally {
      for (const p of parked) p.close();
      await parley.stop();
    }
  },
};
