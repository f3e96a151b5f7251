/**
 * 10,000 registered queues, each with a parked long-poll; one message to a channel they all
 * follow: the time until the last poll is answered, and memory per queue. The baseline holds
 * 10,000 parked responses on a bare uWS server and answers them all at once.
 */
import { ParkedRequest, registerQueue } from '../lib/pollers.js';
import { collectGarbage, rssOf, startBareUws, startParley } from '../lib/processes.js';
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
      const before = await collectGarbage(parley.child);
      context.log(`  registering ${QUEUES} queues`);
      const queues = await inBatches(QUEUES, 100, (i) =>
        registerQueue(parley.url, basicAuth(people[i % USERS]), { event_types: '["message"]', fetch_event_types: '["message"]' }),
      );
      await collectGarbage(parley.child);
      parked = queues.map((queueId, i) => new ParkedRequest(parley.port, `/api/v1/events?queue_id=${queueId}&last_event_id=-1`, basicAuth(people[i % USERS])));
      await settle();
      const after = await collectGarbage(parley.child);
      context.log(`  ${QUEUES} polls parked; sending one message`);
      const started = performance.now();
      const response = await fetch(`${parley.url}/api/v1/messages`, {
        method: 'POST',
        headers: { authorization: basicAuth(sender), 'content-type': 'application/x-www-form-urlencoded' },
        body: 'type=stream&to=everyone-here&topic=news&content=' + encodeURIComponent('Hello, all ten thousand of you.'),
      });
      if (response.status !== 200) throw new Error(`fanout: send failed with ${response.status}`);
      await Promise.all(parked.map((p) => p.answered));
      const parleyMs = Math.max(...parked.map((p) => p.answeredAt)) - started;
      const perQueue = (rssOf(parley.child.pid!) - before.rss) / QUEUES;
      const heapPerQueue = (after.heapUsed - before.heapUsed) / QUEUES;
      for (const p of parked) p.close();
      parked = [];

      context.log('  baseline: bare uWS with as many parked responses');
      const bare = await startBareUws();
      try {
        await settle();
        const bareBefore = rssOf(bare.child.pid!);
        parked = Array.from({ length: QUEUES }, () => new ParkedRequest(bare.port, '/park'));
        // Connections beyond the listen backlog arrive late: release only once all are parked.
        const deadline = performance.now() + 60000;
        while (Number(await (await fetch(`${bare.url}/parked`)).text()) < QUEUES) {
          if (performance.now() > deadline) throw new Error('fanout: the baseline did not park every request');
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
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
            { name: 'RSS per queue with parked poll', value: Math.round(perQueue), unit: 'bytes', baseline: Math.round(barePerResponse), ratio: round(perQueue / barePerResponse, 2) },
            { name: 'JS heap retained per queue with parked poll', value: Math.round(heapPerQueue), unit: 'bytes' },
          ],
          notes: [
            `${QUEUES} queues of ${USERS} users, all subscribed; time from sending the message to the last answer (durable send)`,
            'memory is read after a forced garbage collection; RSS also keeps what V8 and malloc grew to while 10,000 registrations ran, the heap figure is what the queues retain',
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
