/** Operations through real servers: Prometheus metrics, the health check, and online backup with restore (API and CLI). */
import { test, type Test } from 'tap';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Api } from '../helpers/client.js';
import { clientFor, demoClients, startTestServer, tempDataDir, type TestServer } from '../helpers/server.js';
import { runCli } from '../helpers/process.js';
import { requestBackup } from '../../src/ops/control.js';
import { healthCheck } from '../../src/ops/health.js';

/** One scrape, as a map from series (name plus labels, as printed) to value. */
async function scrape(server: TestServer): Promise<Map<string, number>> {
  const response = await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`);
  if (response.status !== 200) throw new Error(`scrape answered ${response.status}`);
  const series = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    series.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return series;
}

/** Sends one request on an open keep-alive connection and reads its answer (Content-Length framed). */
function exchange(socket: Socket, request: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let data = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = data.subarray(0, end).toString();
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (data.length < end + 4 + length) return;
      socket.off('data', onData);
      resolve({ status: Number(head.split(' ')[1]), body: data.subarray(end + 4, end + 4 + length).toString() });
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(request);
  });
}

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Every message id of one topic, read page by page. */
async function topicMessageIds(client: Api, channel: string, topic: string): Promise<Set<number>> {
  const ids = new Set<number>();
  let anchor: string | number = 'oldest';
  for (;;) {
    const page = await client.get('/messages', {
      anchor,
      num_before: 0,
      num_after: 1000,
      include_anchor: anchor === 'oldest',
      narrow: [
        ['channel', channel],
        ['topic', topic],
      ],
    });
    if (page.status !== 200) throw new Error(`GET /messages: ${JSON.stringify(page.body)}`);
    for (const message of page.body.messages) ids.add(message.id);
    if (page.body.found_newest || page.body.messages.length === 0) return ids;
    anchor = page.body.messages.at(-1).id;
  }
}

/**
 * Stops the server while a keep-alive connection asks GET /health: 200 before, 503 once the
 * shutdown has begun. A body still arriving keeps the shutdown waiting for in-flight requests:
 * the window in which a balancer polling /health must learn to stop sending.
 */
async function stopWatchingHealth(t: Test, server: TestServer): Promise<void> {
  const probe = await openSocket(server.port);
  const get = 'GET /health HTTP/1.1\r\nHost: test\r\n\r\n';
  t.equal((await exchange(probe, get)).status, 200, 'healthy on a keep-alive connection');
  const upload = await openSocket(server.port);
  upload.write('POST /api/v1/fetch_api_key HTTP/1.1\r\nHost: test\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nusername=');
  // The server (in this process) has read the upload's head by the time it answers a request
  // written after it: loopback delivers on write, and one poll round handles both sockets.
  t.equal((await exchange(probe, get)).status, 200);
  const stopped = server.stop();
  const during = await exchange(probe, get);
  t.equal(during.status, 503, 'GET /health answers 503 once shutting down');
  t.match(JSON.parse(during.body), { result: 'error', status: 'stopping' });
  upload.destroy();
  probe.destroy();
  await stopped;
}

test('metrics and health', async (t) => {
  const server = await startTestServer({ PARLEY_METRICS_PORT: '0' });
  t.teardown(() => server.destroy());
  const { iago, hamlet } = demoClients(server);

  t.test('a request is counted, with its latency, under its route pattern', async (t) => {
    t.ok(server.metricsPort && server.metricsPort !== server.port, 'metrics listen on their own port');
    const series = 'parley_http_requests_total{method="GET",route="/messages/{message_id:int}",status="200"}';
    const latency = 'parley_http_request_duration_seconds_count{method="GET",route="/messages/{message_id:int}"}';
    const before = await scrape(server);
    const sent = await hamlet.post('/messages', { type: 'stream', to: 'Verona', topic: 'metrics', content: 'counted' });
    t.equal(sent.status, 200);
    t.equal((await iago.get(`/messages/${sent.body.id}`)).status, 200);
    t.equal((await iago.get('/messages/999999')).status, 400);
    const after = await scrape(server);
    t.equal((after.get(series) ?? 0) - (before.get(series) ?? 0), 1, 'one 200 on the route');
    t.equal((after.get(latency) ?? 0) - (before.get(latency) ?? 0), 2, 'both answers timed');
    t.ok((after.get('parley_http_requests_total{method="GET",route="/messages/{message_id:int}",status="400"}') ?? 0) >= 1, 'errors counted by status');
  });

  t.test('unknown paths share one label, so clients cannot create series at will', async (t) => {
    const stranger = `/api/v1/no-such-${Date.now()}`;
    t.equal((await fetch(server.url + stranger)).status, 404);
    const text = [...(await scrape(server)).keys()].join('\n');
    t.notMatch(text, 'no-such-', 'the path is not a label');
    t.match(text, 'route="unmatched",status="404"');
  });

  t.test('event queue gauges follow registration and parked polls', async (t) => {
    const before = await scrape(server);
    const registered = await hamlet.post('/register', { event_types: ['message'] });
    t.equal(registered.status, 200);
    let now = await scrape(server);
    t.equal(now.get('parley_event_queues'), (before.get('parley_event_queues') ?? 0) + 1, 'one more queue');
    t.equal(now.get('parley_parked_polls'), 0);

    const poll = hamlet.get('/events', { queue_id: registered.body.queue_id, last_event_id: registered.body.last_event_id });
    // The poll parks once the server has it; wait for the gauge (bounded), not for a fixed delay.
    for (let i = 0; i < 200 && now.get('parley_parked_polls') !== 1; i++) now = await scrape(server);
    t.equal(now.get('parley_parked_polls'), 1, 'the long-poll is parked');
    await iago.post('/messages', { type: 'stream', to: 'Denmark', topic: 'wake', content: 'wake up' });
    const answered = await poll;
    t.equal(answered.body.events[0]?.type, 'message', 'the poll is answered by the message');
    now = await scrape(server);
    t.equal(now.get('parley_parked_polls'), 0, 'nothing parked after the answer');
    t.equal((await hamlet.delete('/events', { queue_id: registered.body.queue_id })).status, 200);
    t.equal((await scrape(server)).get('parley_event_queues'), before.get('parley_event_queues') ?? 0, 'deleted queue gone');
  });

  t.test('store writes and process figures', async (t) => {
    const before = await scrape(server);
    await Promise.all([1, 2, 3].map((n) => hamlet.post('/messages', { type: 'stream', to: 'Verona', topic: 'batches', content: `m${n}` })));
    const after = await scrape(server);
    const writes = (after.get('parley_store_batch_ops_count') ?? 0) - (before.get('parley_store_batch_ops_count') ?? 0);
    t.ok(writes >= 1, `the sends took LevelDB writes (${writes})`);
    t.ok((after.get('parley_store_batch_ops_sum') ?? 0) - (before.get('parley_store_batch_ops_sum') ?? 0) >= 3 * 2, 'each send wrote several ops');
    t.equal(after.get('parley_store_write_seconds_count'), after.get('parley_store_batch_ops_count'), 'every write timed');
    t.ok((after.get('process_cpu_user_seconds_total') ?? 0) > 0, 'process CPU');
    t.ok((after.get('nodejs_heap_size_used_bytes') ?? 0) > 0, 'heap');
    t.ok(after.has('nodejs_eventloop_lag_p99_seconds'), 'event loop lag');
    t.equal(after.get('parley_backup_last_success_timestamp_seconds'), 0, 'no backup yet');
  });

  t.test('the metrics port serves nothing else', async (t) => {
    t.equal((await fetch(`http://127.0.0.1:${server.metricsPort}/api/v1/users`)).status, 404);
    t.equal((await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`, { method: 'POST' })).status, 405);
  });

  t.test('GET /health: 200 while the store answers', async (t) => {
    const response = await fetch(`${server.url}/health`);
    t.equal(response.status, 200);
    const body = (await response.json()) as Record<string, unknown>;
    t.match(body, { result: 'success', status: 'ok', checks: { store: 'ok' } });
    t.type(body.uptime_seconds, 'number');
    t.equal(response.headers.get('cache-control'), 'no-store');
    const post = await fetch(`${server.url}/health`, { method: 'POST' });
    t.equal(post.status, 405);
    t.equal(post.headers.get('allow'), 'GET, HEAD');
  });
});

test('online backup under load, then restore', async (t) => {
  const server = await startTestServer();
  const scratch = tempDataDir();
  t.teardown(async () => {
    await server.destroy();
    rmSync(scratch, { recursive: true, force: true });
  });
  const clients = demoClients(server);
  const senders = [clients.iago, clients.hamlet, clients.othello, clients.cordelia];
  const topic = 'backup-load';
  const queue = await clients.hamlet.post('/register', { event_types: ['message'] });
  t.equal(queue.status, 200);
  const ackedBefore: number[] = [];
  const ackedAfter: number[] = [];
  let backupBegun = false;
  let running = true;
  let failures = 0;
  const load = senders.map(async (client, n) => {
    for (let i = 0; running; i++) {
      const sent = await client.post('/messages', { type: 'stream', to: 'Verona', topic, content: `sender ${n} message ${i}` });
      if (sent.status !== 200) failures++;
      // Responses are handled one at a time: one pushed here arrived before the backup request left.
      else (backupBegun ? ackedAfter : ackedBefore).push(sent.body.id);
    }
  });
  // Counts, not times; bounded so that sends that stopped succeeding fail with a reason, not at tap's timeout.
  const reach = async (count: () => number, target: number, what: string) => {
    const until = Date.now() + 60_000;
    while (count() < target) {
      if (Date.now() > until) {
        running = false;
        throw new Error(`${what}: ${count()} of ${target} sends acknowledged in 60 s (${failures} failed)`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  await reach(() => ackedBefore.length, 400, 'before the backup');
  const target = join(scratch, 'backup');
  backupBegun = true;
  const result = await requestBackup(server.dataDir, target);
  const duringBackup = ackedAfter.length;
  await reach(() => ackedAfter.length, duringBackup + 50, 'after the backup');
  running = false;
  await Promise.all(load);
  t.equal(failures, 0, 'every send under load succeeded');
  t.comment(`backup of ${result.entries} entries (${(result.bytes / 1024).toFixed(0)} KiB) took ${(result.seconds * 1000).toFixed(0)} ms; ${duringBackup} sends acknowledged while it ran`);
  t.equal(result.dir, target);
  t.ok(result.entries > ackedBefore.length, 'the backup holds at least the acknowledged messages');
  t.ok(result.omitted > 0, 'event queue state left out');
  t.notOk(readdirSync(scratch).some((name) => name.includes('partial')), 'no partial copy left beside it');

  t.test('refusals: a non-empty target, a target inside the data directory', async (t) => {
    await t.rejects(requestBackup(server.dataDir, target), /exists and is not empty/);
    const occupied = join(scratch, 'occupied');
    mkdirSync(occupied);
    writeFileSync(join(occupied, 'keep.txt'), 'mine');
    await t.rejects(requestBackup(server.dataDir, occupied), /not empty/);
    t.same(readdirSync(occupied), ['keep.txt'], 'the occupied directory is untouched');
    await t.rejects(requestBackup(server.dataDir, join(server.dataDir, 'inner')), /inside the data directory/);
    t.notOk(existsSync(join(server.dataDir, 'inner')));
    const empty = join(scratch, 'empty');
    mkdirSync(empty);
    t.ok((await requestBackup(server.dataDir, empty)).entries > 0, 'an empty directory is accepted');
  });

  t.test('a server started on the backup has every message acknowledged before it began', async (t) => {
    const restored = await startTestServer({}, { dataDir: target });
    t.teardown(() => restored.stop());
    const reader = clientFor(restored, 'iago@example.com');
    const ids = await topicMessageIds(reader, 'Verona', topic);
    const missing = ackedBefore.filter((id) => !ids.has(id));
    t.same(missing, [], `all ${ackedBefore.length} messages acknowledged before the backup are restored`);
    const everAcked = new Set([...ackedBefore, ...ackedAfter]);
    t.same([...ids].filter((id) => !everAcked.has(id)), [], 'and nothing that was not acknowledged');
    t.ok(ids.size < everAcked.size, 'messages sent after the snapshot are not in it');
    // The same credentials work: the copy is the organization, not a look-alike.
    const original = clients.iago;
    t.equal((await reader.as(original.email!, original.apiKey!).get('/users/me')).status, 200);
    const next = await reader.post('/messages', { type: 'stream', to: 'Verona', topic, content: 'after restore' });
    t.equal(next.status, 200, 'the restored server takes writes');
    t.notOk(ids.has(next.body.id), 'a new id, not one already in the backup');
    const stale = await clientFor(restored, 'hamlet@example.com').get('/events', { queue_id: queue.body.queue_id, last_event_id: -1 });
    t.match(stale, { status: 400, body: { code: 'BAD_EVENT_QUEUE_ID' } }, 'queues are not restored: clients register again');
  });
});

test('npm run cli -- backup: through a running server, then with none', async (t) => {
  const server = await startTestServer();
  const scratch = tempDataDir();
  t.teardown(async () => {
    await server.destroy();
    rmSync(scratch, { recursive: true, force: true });
  });
  const sent = await clientFor(server, 'hamlet@example.com').post('/messages', { type: 'stream', to: 'Denmark', topic: 'cli', content: 'in the backup' });
  t.equal(sent.status, 200);
  const env = { PARLEY_DATA_DIR: server.dataDir };

  const online = await runCli(['backup', join(scratch, 'online')], env);
  t.equal(online.code, 0, online.stderr);
  t.match(online.stdout, /from the running server: \d+ entries/);

  const refused = await runCli(['backup', join(scratch, 'online')], env);
  t.equal(refused.code, 2, 'a second backup into the same directory is refused');
  t.match(refused.stderr, /not empty/);

  t.equal(server.metricsPort, undefined, 'no metrics listener unless configured');
  await stopWatchingHealth(t, server);
  const unavailable = healthCheck(server.services)();
  t.match(unavailable, { status: 503, body: { status: 'unavailable', checks: { store: 'failed' } } }, 'the check fails once the store is closed');
  const offline = await runCli(['backup', join(scratch, 'offline')], env);
  t.equal(offline.code, 0, offline.stderr);
  t.match(offline.stdout, /no server running/);

  for (const name of ['online', 'offline']) {
    const restored = await startTestServer({}, { dataDir: join(scratch, name) });
    const fetched = await clientFor(restored, 'hamlet@example.com').get(`/messages/${sent.body.id}`);
    t.equal(fetched.body.message?.content, '<p>in the backup</p>', `${name} backup restores the message`);
    await restored.stop();
  }
});
