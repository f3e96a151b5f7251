/**
 * Restart time with an event-queue backlog, against a clean restart of the same data (issue 21's
 * scenario): `node --expose-gc dist/bench/queue-backlog.js [queues] [messages] [maxEvents] [rounds]`
 * (defaults 2,000 / 20,000 / 2,000 / 5).
 *
 * Two data directories get the same channel messages, written through the real send path
 * (`writeMessage`, 100 to a commit, to a channel every demo user is in). In one of them `queues`
 * queues that never poll were registered first (spread over the demo users, every event type):
 * that is the backlog. The other has no queue: its restart is the clean start of the same data.
 * Each directory is then stopped and copied, and each copy is started, timed, `rounds` times
 * alternately (a start changes the directory: LevelDB turns its log into a table); the figures
 * are the medians, wall-clock and CPU time, and the ratios are backlog / clean (the goal is ≤ 2).
 * Memory and the queues
 * left are printed too. With `maxEvents` large the queues are unbounded (the behaviour before
 * PARLEY_QUEUE_MAX_EVENTS). `bench/startup-phases.ts` shows where a start's time goes.
 */
import { cpSync, rmSync } from 'node:fs';
import { writeMessage } from '../src/actions/message-send.js';
import { Transaction } from '../src/store/transaction.js';
import { freePort, startTestServer, tempDataDir, type TestServer } from '../test/helpers/server.js';

const queueCount = Number(process.argv[2] ?? 2000);
const messageCount = Number(process.argv[3] ?? 20000);
const maxEvents = process.argv[4] ?? '2000';
const rounds = Number(process.argv[5] ?? 5);
const ENV = { PARLEY_SWEEP_SECONDS: '3600', PARLEY_QUEUE_MAX_EVENTS: maxEvents };
const port = await freePort();
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const rssMiB = () => {
  gc();
  return Math.round(process.memoryUsage().rss / 1048576);
};
const TEXT = 'The quick brown fox jumps over the lazy dog, and then the dog gets up and chases it across the field. ';

/** A start, timed: wall-clock and the process's CPU time (all threads, LevelDB's included), which a loaded machine disturbs less. */
async function timedStart(dataDir: string): Promise<{ server: TestServer; ms: number; cpuMs: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const server = await startTestServer(ENV, { dataDir, port });
  const used = process.cpuUsage(cpu);
  return { server, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

async function registerQueues(server: TestServer, count: number): Promise<void> {
  const users = [...server.services.org.users.all()].filter((user) => user.isActive && !user.isBot).map((user) => user.id);
  for (let i = 0; i < count; i++) {
    await server.services.queues.register({
      userId: users[i % users.length]!, eventTypes: null, narrow: [], applyMarkdown: true, clientGravatar: false, allPublicStreams: false,
      capabilities: { bulkMessageDeletion: true, emptyTopicName: true, streamTypingNotifications: true, userSettingsObject: true, notificationSettingsNull: true, userAvatarUrlFieldOptional: true },
      lifespanSeconds: 0,
    });
  }
}

async function sendMessages(server: TestServer, count: number): Promise<void> {
  const { services } = server;
  const sender = services.org.users.byEmail('iago@example.com')!;
  const channelId = services.org.channels.byName('Verona')!.id;
  for (let done = 0; done < count; ) {
    const tx = new Transaction();
    for (let i = 0; i < 100 && done < count; i++, done++) {
      const content = `${TEXT.slice(done % 40)}${done}`;
      const channel = services.org.channels.get(channelId)!;
      writeMessage(services, tx, { sender, client: 'bench', readBySender: true, content, rendered: services.render(content), destination: { type: 'stream', channel, topic: `topic ${done % 25}` } });
    }
    await services.commit(tx);
  }
}

/** Builds one data directory: the demo organization, the queues (if any), the messages; returns it stopped. */
async function build(queues: number): Promise<{ dir: string; summary: string }> {
  const dir = tempDataDir();
  const { server } = await timedStart(dir);
  await registerQueues(server, queues);
  const before = rssMiB();
  await sendMessages(server, messageCount);
  const after = rssMiB();
  const stats = server.services.queues.stats();
  await server.stop();
  return { dir, summary: `RSS ${before} → ${after} MiB; ${stats.queues} queues left holding ${stats.pendingEvents} events (${stats.overflowed} expired early)` };
}

/** Starts a fresh copy of `dir` (as it was at its stop), timed; returns the time and what was restored. */
async function restartCopy(dir: string): Promise<{ ms: number; cpuMs: number; queues: number; events: number }> {
  const copy = tempDataDir();
  cpSync(dir, copy, { recursive: true });
  const { server, ms, cpuMs } = await timedStart(copy);
  const stats = server.services.queues.stats();
  await server.destroy();
  rmSync(copy, { recursive: true, force: true });
  return { ms, cpuMs, queues: stats.queues, events: stats.pendingEvents };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const backlog = await build(queueCount);
const clean = await build(0);
const backlogTimes: number[] = [];
const cleanTimes: number[] = [];
const backlogCpu: number[] = [];
const cleanCpu: number[] = [];
let restored = { queues: 0, events: 0 };
for (let round = 0; round < rounds; round++) {
  const b = await restartCopy(backlog.dir);
  restored = b;
  backlogTimes.push(b.ms);
  backlogCpu.push(b.cpuMs);
  const c = await restartCopy(clean.dir);
  cleanTimes.push(c.ms);
  cleanCpu.push(c.cpuMs);
}
// BENCH_KEEP=1 keeps both directories as they were at their stop (for bench/startup-phases.ts).
if (process.env.BENCH_KEEP) console.log(`kept: with the queues ${backlog.dir}, without ${clean.dir}`);
else for (const dir of [backlog.dir, clean.dir]) rmSync(dir, { recursive: true, force: true });
const list = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');
console.log(`${queueCount} queues that never poll, ${messageCount} channel messages, PARLEY_QUEUE_MAX_EVENTS=${maxEvents}`);
console.log(`  with the queues: ${backlog.summary}`);
console.log(`  without:         ${clean.summary}`);
console.log(`  restart with the backlog: ${median(backlogTimes).toFixed(0)} ms (${list(backlogTimes)}), CPU ${median(backlogCpu).toFixed(0)} ms (${list(backlogCpu)}); ${restored.queues} queues, ${restored.events} events held once started`);
console.log(`  clean restart of the same messages: ${median(cleanTimes).toFixed(0)} ms (${list(cleanTimes)}), CPU ${median(cleanCpu).toFixed(0)} ms (${list(cleanCpu)})`);
console.log(`  ratio ${(median(backlogTimes) / median(cleanTimes)).toFixed(2)} wall-clock, ${(median(backlogCpu) / median(cleanCpu)).toFixed(2)} CPU (goal ≤ 2)`);
