/**
 * 10,000 registered queues, each with a parked long-poll; one message to a channel they all
 * follow: the time until the last poll is answered, and memory per queue. The baseline holds
 * 10,000 parked responses on a bare uWS server and answers them all at once, each in its own cork.
 * Both are driven by the same client: one kept-alive socket per poll, parked again each round,
 * and a trigger request on a socket opened in advance; Parley and the baseline alternate.
 */
import { busySeconds, coreTimes, processCpuSeconds, selfCpuSeconds } from '../lib/cpu.js';
import type { CpuShares } from '../lib/load.js';
import { measuredCores, pinning } from '../lib/pinning.js';
import { ParkedClients, RawClient, registerQueue } from '../lib/pollers.js';
import { collectGarbage, rssOf, startBareUws, startParley, waitUntilQuiet, type RunningProcess } from '../lib/processes.js';
import { median, round, warningsFor, type Figure, type Measured, type Scenario, type SideMeasure } from '../lib/scenario.js';
import { basicAuth, newDataDir, Seeder, type Credentials } from '../lib/seed.js';

const QUEUES = 10_000;
const USERS = 100;
const CLIENT = 'raw sockets in the runner (Node), a fresh socket per parked poll each round';

const settle = () => new Promise((resolve) => setTimeout(resolve, 2000));

async function inBatches<T>(count: number, size: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < count; start += size) {
    results.push(...(await Promise.all(Array.from({ length: Math.min(size, count - start) }, (_, k) => work(start + k)))));
  }
  return results;
}

interface Answered {
  ms: number;
  serverCpuMs: number;
  cpu: CpuShares;
}

/** Sends the trigger and waits for every parked poll's answer: the time to the last one, and who used the CPU meanwhile. */
async function answerAll(target: RunningProcess, clients: ParkedClients, answered: Promise<void>, trigger: () => Promise<{ status: number }>): Promise<Answered> {
  const pid = target.child.pid!;
  const serverBefore = processCpuSeconds(pid);
  const selfBefore = selfCpuSeconds();
  const coresBefore = coreTimes();
  const started = performance.now();
  const [response] = await Promise.all([trigger(), answered]);
  if (response.status !== 200) throw new Error(`fanout: the trigger failed with ${response.status}`);
  const ms = clients.lastAnswerAt - started;
  const wall = (performance.now() - started) / 1000;
  const server = processCpuSeconds(pid) - serverBefore;
  const client = selfCpuSeconds() - selfBefore;
  const cores = measuredCores();
  const busy = cores.length ? busySeconds(coresBefore, coreTimes(), cores) : server + client;
  const share = (seconds: number) => round(seconds / wall, 2);
  return { ms, serverCpuMs: server * 1000, cpu: { server: share(server), client: share(client), other: share(Math.max(0, busy - server - client)) } };
}

function side(rounds: Answered[]): SideMeasure {
  const mean = (pick: (cpu: CpuShares) => number) => round(rounds.reduce((sum, r) => sum + pick(r.cpu), 0) / rounds.length, 2);
  return {
    connections: QUEUES,
    perRound: rounds.map((r) => round(r.ms, 1)),
    cpu: { server: mean((c) => c.server), client: mean((c) => c.client), other: mean((c) => c.other) },
    clientPeak: Math.max(...rounds.map((r) => r.cpu.client)),
  };
}

export const fanout: Scenario = {
  name: 'fanout',
  description: '10,000 parked long-polls answered by one message',
  async run(context) {
    const { rounds } = context.settings;
    const dataDir = newDataDir('fanout');
    const seeder = await Seeder.open(dataDir);
    const followers = await seeder.users(USERS, 'follower');
    const hamlet = seeder.services.org.users.byEmail('hamlet@example.com')!;
    await seeder.channel('everyone-here', [...followers, hamlet]);
    const people: Credentials[] = followers.map((u) => seeder.credentials(u));
    const sender = seeder.credentials(hamlet);
    await seeder.close();

    const parley = await startParley({ dataDir, sync: true, profileDir: context.profileDir });
    const bare = await startBareUws();
    const open: Array<{ close(): void }> = [];
    try {
      await settle();
      const before = await collectGarbage(parley.child);
      const bareBefore = rssOf(bare.child.pid!);
      context.log(`  registering ${QUEUES} queues`);
      const queues = await inBatches(QUEUES, 100, (i) =>
        registerQueue(parley.url, basicAuth(people[i % USERS]), { event_types: '["message"]', fetch_event_types: '["message"]' }),
      );
      const auth = queues.map((_, i) => basicAuth(people[i % USERS]));
      const parleyClients = new ParkedClients(parley.port, QUEUES);
      const bareClients = new ParkedClients(bare.port, QUEUES);
      open.push(parleyClients, bareClients);
      const content = 'type=stream&to=everyone-here&topic=news&content=' + encodeURIComponent('Hello, all ten thousand of you.');
      const sendMessage = `POST /api/v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basicAuth(sender)}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(content)}\r\n\r\n${content}`;

      const parleyRounds: Answered[] = [];
      const bareRounds: Answered[] = [];
      let after: Awaited<ReturnType<typeof collectGarbage>> | undefined;
      let bareAfter = 0;
      let parleyBytes = 0;
      for (let r = 0; r < rounds; r++) {
        // One side at a time: fresh sockets, all parked and the server quiet, then the trigger.
        const parleyRound = parleyClients.park((i) =>
          `GET /api/v1/events?queue_id=${queues[i]}&last_event_id=${parleyClients.lastEventId(i)} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth[i]}\r\n\r\n`);
        await parleyRound.sent;
        await waitUntilQuiet(parley.child.pid!);
        if (r === 0) {
          after = await collectGarbage(parley.child);
          context.log(`  ${QUEUES} polls parked; one message per round`);
        }
        const parleyTrigger = await RawClient.open(parley.port);
        parleyRounds.push(await answerAll(parley, parleyClients, parleyRound.answered, () => parleyTrigger.request(sendMessage)));
        parleyTrigger.close();
        parleyClients.close();
        parleyBytes = parleyClients.averageBodyBytes;

        const bareRound = bareClients.park(() => 'GET /park HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
        await bareRound.sent;
        const deadline = performance.now() + 60000;
        while (Number(await (await fetch(`${bare.url}/parked`)).text()) < QUEUES) {
          if (performance.now() > deadline) throw new Error('fanout: the baseline did not park every request');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await waitUntilQuiet(bare.child.pid!);
        if (r === 0) bareAfter = rssOf(bare.child.pid!);
        // The bare server answers with as many bytes as Parley's answers had.
        const bareTrigger = await RawClient.open(bare.port);
        bareRounds.push(await answerAll(bare, bareClients, bareRound.answered, () => bareTrigger.request(`GET /release?bytes=${parleyBytes} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)));
        bareTrigger.close();
        bareClients.close();
        context.log(`    round ${r + 1}: Parley ${round(parleyRounds[r].ms, 1)} ms (server CPU ${round(parleyRounds[r].serverCpuMs, 0)} ms, client ${parleyRounds[r].cpu.client}), ` +
          `bare ${round(bareRounds[r].ms, 1)} ms (server CPU ${round(bareRounds[r].serverCpuMs, 0)} ms, client ${bareRounds[r].cpu.client})`);
      }
      const perQueue = (after!.rss - before.rss) / QUEUES;
      const heapPerQueue = (after!.heapUsed - before.heapUsed) / QUEUES;
      const barePerResponse = (bareAfter - bareBefore) / QUEUES;

      const ratios = parleyRounds.map((p, i) => round(p.ms / bareRounds[i].ms, 3));
      const measured: Measured = { generator: CLIENT, pinning: pinning().description, parley: side(parleyRounds), bare: { ...side(bareRounds), bytes: parleyBytes }, ratios };
      const ratio = round(median(ratios), 2);
      const spread: [number, number] = [round(Math.min(...ratios), 2), round(Math.max(...ratios), 2)];
      const cpuRatios = parleyRounds.map((p, i) => round(p.serverCpuMs / Math.max(1, bareRounds[i].serverCpuMs), 2));
      const cpuMeasured: Measured = {
        ...measured,
        parley: { ...measured.parley, perRound: parleyRounds.map((r) => round(r.serverCpuMs, 0)) },
        bare: { ...measured.bare!, perRound: bareRounds.map((r) => round(r.serverCpuMs, 0)) },
        ratios: cpuRatios,
      };
      const figures: Figure[] = [
        {
          name: 'time to answer all',
          value: round(median(measured.parley.perRound), 1),
          unit: 'ms',
          baseline: round(median(measured.bare!.perRound), 1),
          ratio,
          spread,
          measured,
          warnings: warningsFor(measured, ratio, spread, true),
        },
        {
          name: 'server CPU to answer all',
          value: round(median(cpuMeasured.parley.perRound), 0),
          unit: 'ms',
          baseline: round(median(cpuMeasured.bare!.perRound), 0),
          ratio: round(median(cpuRatios), 2),
          spread: [round(Math.min(...cpuRatios), 2), round(Math.max(...cpuRatios), 2)],
          measured: cpuMeasured,
        },
        { name: 'RSS per queue with parked poll', value: Math.round(perQueue), unit: 'bytes', baseline: Math.round(barePerResponse), ratio: round(perQueue / barePerResponse, 2) },
        { name: 'JS heap retained per queue with parked poll', value: Math.round(heapPerQueue), unit: 'bytes' },
      ];
      return {
        scenario: 'fanout',
        description: this.description,
        figures,
        notes: [
          `${QUEUES} queues of ${USERS} users, all subscribed; time from sending the message (durable) to the last answer, over ${rounds} alternated rounds; the bare server answers with as many bytes as Parley's answers (${parleyBytes})`,
          `client: ${CLIENT}; the trigger (POST /messages, GET /release) goes over a socket opened in advance`,
          'memory is read after a forced garbage collection with the polls parked; RSS also keeps what V8 and malloc grew to while 10,000 registrations ran, the heap figure is what the queues retain',
          'ratios here are Parley / baseline (lower is better): the goal is ≤ 1.3× the time and the server CPU, and ≤ 2 KB per queue',
        ],
      };
    } finally {
      for (const client of open) client.close();
      await bare.stop();
      await parley.stop();
    }
  },
};
