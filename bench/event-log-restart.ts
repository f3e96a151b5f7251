/**
 * Restart cost of an event log after many crashes: `node dist/bench/event-log-restart.js [cycles] [entries]`.
 * Each cycle starts the server, lets a client catch up, logs `entries` events through the real
 * commit path, acknowledges them, logs one more (the load goes on) and stops as a kill -9 would
 * (no sweep, no shutdown write). Prints the last restart's time, the entries it read and the log
 * left, then the same for a clean stop and start of the same data.
 */
import { rmSync } from 'node:fs';
import { clientFor, freePort, startTestServer, tempDataDir, type TestServer } from '../test/helpers/server.js';
import { Transaction } from '../src/store/transaction.js';

const cycles = Number(process.argv[2] ?? 10);
const entries = Number(process.argv[3] ?? 13000);
const ENV = { PARLEY_SWEEP_SECONDS: '3600' };
const dataDir = tempDataDir();
const port = await freePort();

async function start(): Promise<{ server: TestServer; ms: number; scanned: number }> {
  const started = process.hrtime.bigint();
  const server = await startTestServer(ENV, { dataDir, port });
  return { server, ms: Number(process.hrtime.bigint() - started) / 1e6, scanned: server.services.db.reads.scanned };
}

async function logLength(server: TestServer): Promise<number> {
  let n = 0;
  for await (const _ of server.services.db.scanKeys({ gte: server.services.org.keys.eventPrefix, lt: server.services.org.keys.eventPrefix.slice(0, -1) + '"' })) n++;
  return n;
}

async function emit(server: TestServer, userId: number, count: number): Promise<void> {
  for (let done = 0; done < count; ) {
    const tx = new Transaction();
    for (let i = 0; i < 1000 && done < count; i++, done++) tx.emit({ type: 'custom', n: done }, [userId]);
    await server.services.commit(tx);
  }
}

let queueId: string | undefined;
let last = -1;
let measured = { ms: 0, scanned: 0, log: 0 };
for (let cycle = 0; cycle < cycles; cycle++) {
  const { server, ms, scanned } = await start();
  if (cycle > 0) measured = { ms, scanned, log: await logLength(server) };
  const iago = clientFor(server, 'iago@example.com');
  const userId = server.services.org.users.byEmail('iago@example.com')!.id;
  queueId ??= (await iago.post('/register', { event_types: ['custom', 'restart'] })).body.queue_id as string;
  const catchUp = async () => {
    const polled = await iago.get('/events', { queue_id: queueId, last_event_id: last, dont_block: true });
    last = polled.body.events.at(-1)?.id ?? last;
    await iago.get('/events', { queue_id: queueId, last_event_id: last, dont_block: true });
  };
  await catchUp();
  await emit(server, userId, entries);
  await catchUp();
  await emit(server, userId, 1);
  server.services.queues.close = async () => {};
  await server.stop();
}
console.log(`restart after ${cycles - 1} crashes of ${entries} acknowledged entries each: ${measured.ms.toFixed(0)} ms, ${measured.scanned} entries read at start, ${measured.log} log entries`);
{
  const { server } = await start();
  const iago = clientFor(server, 'iago@example.com');
  const polled = await iago.get('/events', { queue_id: queueId, last_event_id: last, dont_block: true });
  await iago.get('/events', { queue_id: queueId, last_event_id: polled.body.events.at(-1)?.id ?? last, dont_block: true });
  await server.stop();
  const clean = await start();
  console.log(`clean stop and start of the same data: ${clean.ms.toFixed(0)} ms, ${clean.scanned} entries read at start, ${await logLength(clean.server)} log entries`);
  await clean.server.stop();
}
rmSync(dataDir, { recursive: true, force: true });
