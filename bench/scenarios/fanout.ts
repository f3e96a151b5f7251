/**
 * 10,000 registered queues, each with a parked long-poll; one message to a channel they all
 * follow: the time until the last poll is answered, and memory per queue. The baseline holds
 * 10,000 parked responses on a bare uWS server and answers them all at once, each in its own cork.
 * Both are driven by the same client: one kept-alive socket per poll, parked again each round,
 * and a trigger request on a socket opened in advance; Parley and the baseline alternate.
 */
import { busySeconds, coreTimes, processCpuSecondsPrecise, selfCpuSeconds } from '../lib/cpu.js';
import type { CpuShares } from '../lib/load.js';
import { measuredCores, pinning } from '../lib/pinning.js';
import { ParkedClients, RawClient, registerQueue } from '../lib/pollers.js';
import { collectGarbage, rssOf, startBareUws, startParley, untilCount, waitUntilQuiet, type MemoryReport, type RunningProcess } from '../lib/processes.js';
import { median, round, warningsFor, type Figure, type Measured, type Scenario, type SideMeasure } from '../lib/scenario.js';
import { basicAuth, newDataDir, Seeder, type Credentials } from '../lib/seed.js';

const QUEUES = 10_000;
/** Memory is measured at this many queues and at QUEUES: per queue is the slope. */
const MEASURED_FROM = 5_000;
const BARE_PARK = 'GET /park HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
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
  const serverBefore = processCpuSecondsPrecise(pid);
  const selfBefore = selfCpuSeconds();
  const coresBefore = coreTimes();
  const started = performance.now();
  const [response] = await Promise.all([trigger(), answered]);
  if (response.status !== 200) throw new Error(`fanout: the trigger failed with ${response.status}`);
  const ms = clients.lastAnswerAt - started;
  const wall = (performance.now() - started) / 1000;
  const server = processCpuSecondsPrecise(pid) - serverBefore;
  const client = selfCpuSeconds() - selfBefore;
  const cores = measuredCores();
  const busy = cores.length ? busySeconds(coresBefore, coreTimes(), cores) : server + client;
  const share = (seconds: number) => round(seconds / wall, 2);
  return { ms, serverCpuMs: server * 1000, cpu: { server: share(server), client: share(client), other: share(Math.max(0, busy - server - client)) } };
}

/** Waits until the bare server holds exactly `count` parked requests (0: the closed ones are gone). */
const allParkedOnBare = (bare: RunningProcess, count: number) =>
  untilCount(`${bare.url}/parked`, (parked) => parked === count, 60000, `fanout: the baseline did not hold ${count} parked requests`);

/** Parks a poll on every one of `queues` on Parley and as many requests on the bare server, reads both processes' memory, and lets them go. */
async function memoryWithParked(
  parley: RunningProcess,
  bare: RunningProcess,
  queues: string[],
  pollOf: (queues: string[], clients: ParkedClients) => (i: number) => string,
): Promise<{ parley: MemoryReport; bareRss: number }> {
  const parleyClients = new ParkedClients(parley.port, queues.length);
  const bareClients = new ParkedClients(bare.port, queues.length);
  let measured: { parley: MemoryReport; bareRss: number };
  try {
    await parleyClients.park(pollOf(queues, parleyClients)).sent;
    await waitUntilQuiet(parley.child.pid!);
    const memory = await collectGarbage(parley.child);
    await bareClients.park(() => BARE_PARK).sent;
    await allParkedOnBare(bare, queues.length);
    await waitUntilQuiet(bare.child.pid!);
    measured = { parley: memory, bareRss: rssOf(bare.child.pid!) };
  } finally {
    parleyClients.close();
    bareClients.close();
  }
  await allParkedOnBare(bare, 0);
  return measured;
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
      const register = (i: number) => registerQueue(parley.url, basicAuth(people[i % USERS]), { event_types: '["message"]', fetch_event_types: '["message"]' });
      const auth = Array.from({ length: QUEUES }, (_, i) => basicAuth(people[i % USERS]));
      const pollOf = (queues: string[], clients: ParkedClients) => (i: number) =>
        `GET /api/v1/events?queue_id=${queues[i]}&last_event_id=${clients.lastEventId(i)} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth[i]}\r\n\r\n`;
      // Memory per queue is the slope from half the queues parked to all of them: what one more
      // costs, without the fixed growth the first registrations cause (V8's young generation,
      // malloc's arenas), which the figure from the start spreads over the queues.
      const queues = await inBatches(MEASURED_FROM, 100, register);
      const middle = await memoryWithParked(parley, bare, queues, pollOf);
      queues.push(...(await inBatches(QUEUES - MEASURED_FROM, 100, (i) => register(MEASURED_FROM + i))));
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
      // Round 0 warms each side up and is not counted, as every other scenario warms up before it
      // measures: Parley's first answers after the registrations took 1.5–2.8 times its later ones
      // (V8 compiling the answering path, the registrations' garbage), the bare server's up to 1.3 times.
      for (let r = 0; r <= rounds; r++) {
        // One side at a time: fresh sockets, all parked and the server quiet, then the trigger.
        const parleyRound = parleyClients.park(pollOf(queues, parleyClients));
        await parleyRound.sent;
        await waitUntilQuiet(parley.child.pid!);
        if (r === 0) {
          after = await collectGarbage(parley.child);
          context.log(`  ${QUEUES} polls parked; one message per round`);
        }
        const parleyTrigger = await RawClient.open(parley.port);
        const parleyAnswered = await answerAll(parley, parleyClients, parleyRound.answered, () => parleyTrigger.request(sendMessage));
        parleyTrigger.close();
        parleyClients.close();
        parleyBytes = parleyClients.averageBodyBytes;

        const bareRound = bareClients.park(() => BARE_PARK);
        await bareRound.sent;
        await allParkedOnBare(bare, QUEUES);
        await waitUntilQuiet(bare.child.pid!);
        if (r === 0) bareAfter = rssOf(bare.child.pid!);
        // The bare server answers with as many bytes as Parley's answers had.
        const bareTrigger = await RawClient.open(bare.port);
        const bareAnswered = await answerAll(bare, bareClients, bareRound.answered, () => bareTrigger.request(`GET /release?bytes=${parleyBytes} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
        bareTrigger.close();
        bareClients.close();
        context.log(`    ${r === 0 ? 'warm-up' : `round ${r}`}: Parley ${round(parleyAnswered.ms, 1)} ms (server CPU ${round(parleyAnswered.serverCpuMs, 0)} ms, client ${parleyAnswered.cpu.client}), ` +
          `bare ${round(bareAnswered.ms, 1)} ms (server CPU ${round(bareAnswered.serverCpuMs, 0)} ms, client ${bareAnswered.cpu.client})`);
        if (r === 0) continue;
        parleyRounds.push(parleyAnswered);
        bareRounds.push(bareAnswered);
      }
      const added = QUEUES - MEASURED_FROM;
      const perQueue = (after!.rss - middle.parley.rss) / added;
      const heapPerQueue = (after!.heapUsed - middle.parley.heapUsed) / added;
      const barePerResponse = (bareAfter - middle.bareRss) / added;
      const fromStart = { parley: (after!.rss - before.rss) / QUEUES, bare: (bareAfter - bareBefore) / QUEUES, heapTotal: (after!.heapTotal - before.heapTotal) / QUEUES };

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
          `${QUEUES} queues of ${USERS} users, all subscribed; time from sending the message (durable) to the last answer, over ${rounds} alternated rounds after one of each side not counted (warm-up); the bare server answers with as many bytes as Parley's answers (${parleyBytes})`,
          `client: ${CLIENT}; the trigger (POST /messages, GET /release) goes over a socket opened in advance`,
          `memory is read after a forced garbage collection with the polls parked, at ${MEASURED_FROM} and at ${QUEUES} queues: per queue is the slope between the two (the heap figure is what the queues retain). ` +
            `From the start instead (spreading over the queues what V8 and malloc grew to while the registrations ran): Parley ${Math.round(fromStart.parley)} bytes, bare ${Math.round(fromStart.bare)} bytes, V8's committed heap ${Math.round(fromStart.heapTotal)} bytes of Parley's`,
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
