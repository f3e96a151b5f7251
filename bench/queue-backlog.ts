/**
 * Event queues that never poll, and a backlog: `node --expose-gc dist/bench/queue-backlog.js [queues] [events] [maxEvents]`.
 * Registers `queues` queues (spread over the demo users, all event types), commits `events`
 * events addressed to every user through the real commit path, then prints memory, the queues
 * left, and the time of a restart with that backlog against a clean start of the same data.
 * With `maxEvents` large the queues are unbounded (the behaviour before PARLEY_QUEUE_MAX_EVENTS).
 */
import { rmSync } from 'node:fs';
import { freePort, startTestServer, tempDataDir, type TestServer } from '../test/helpers/server.js';
import { Transaction } from '../src/store/transaction.js';

const queueCount = Number(process.argv[2] ?? 500);
const eventCount = Number(process.argv[3] ?? 5000);
const maxEvents = process.argv[4] ?? '2000';
const ENV = { PARLEY_SWEEP_SECONDS: '3600', PARLEY_QUEUE_MAX_EVENTS: maxEvents };
const dataDir = tempDataDir();
const port = await freePort();
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const rssMiB = () => {
  gc();
  return Math.round(process.memoryUsage().rss / 1048576);
};

async function timedStart(): Promise<{ server: TestServer; ms: number }> {
  const started = performance.now();
  const server = await startTestServer(ENV, { dataDir, port });
  return { server, ms: performance.now() - started };
}

let { server } = await timedStart();
await server.stop();
const clean = await timedStart();
server = clean.server;
const users = [...server.services.org.users.all()].filter((user) => user.isActive).map((user) => user.id);
for (let i = 0; i < queueCount; i++) {
  await server.services.queues.register({
    userId: users[i % users.length]!, eventTypes: null, narrow: [], applyMarkdown: true, clientGravatar: false, allPublicStreams: false,
    capabilities: { bulkMessageDeletion: true, emptyTopicName: true, streamTypingNotifications: true, userSettingsObject: true, notificationSettingsNull: true, userAvatarUrlFieldOptional: true },
    lifespanSeconds: 0,
  });
}
const before = rssMiB();
for (let done = 0; done < eventCount; ) {
  const tx = new Transaction();
  for (let i = 0; i < 500 && done < eventCount; i++, done++) tx.emit({ type: 'custom', n: done, text: 'x'.repeat(200) }, users);
  await server.services.commit(tx);
}
const after = rssMiB();
const stats = server.services.queues.stats();
await server.stop();
const backlog = await timedStart();
const restored = backlog.server.services.queues.stats();
// The same data started again (its restored queues acknowledged nothing new): a start without new backlog.
await backlog.server.stop();
const again = await timedStart();
await again.server.destroy();
rmSync(dataDir, { recursive: true, force: true });
console.log(
  `${queueCount} queues, ${eventCount} events, PARLEY_QUEUE_MAX_EVENTS=${maxEvents}: RSS ${before} → ${after} MiB; ` +
    `${stats.queues} queues left holding ${stats.pendingEvents} events (${stats.overflowed} expired early); ` +
    `restart with the backlog ${backlog.ms.toFixed(0)} ms (${restored.queues} queues, ${restored.pendingEvents} events restored), first start ${clean.ms.toFixed(0)} ms, start of the same data again ${again.ms.toFixed(0)} ms`,
);
