/**
 * Kills the real server process (SIGKILL) under load and checks that no acknowledged message is lost.
 */
import { test } from 'tap';
import { Api, login } from '../helpers/client.js';
import { durableServerEnv, killAndRemove, startProcess, exited } from '../helpers/process.js';
import { register, ofType } from '../helpers/events.js';

test('no acknowledged message is lost when the server process is killed', async (t) => {
  const { dataDir, env } = await durableServerEnv();
  let running = await startProcess(env);
  t.teardown(() => killAndRemove(running.child, dataDir));
  const iago = await login(running.url, 'iago@example.com');
  const hamlet = await login(running.url, 'hamlet@example.com');
  const queue = await register(iago, { event_types: ['message', 'restart'] });

  const KILL_AFTER = 40;
  const WORKERS = 8;
  const acknowledged: number[] = [];
  let killed = false;
  let failed = 0;
  let inFlight = 0;
  let inFlightAtKill = 0;
  const worker = async (w: number) => {
    for (let i = 0; !killed; i++) {
      inFlight++;
      try {
        const response = await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 'crash', content: `worker ${w} message ${i}` });
        if (response.status === 200 && response.body.result === 'success') acknowledged.push(response.body.id);
        else failed++;
      } catch {
        failed++; // the connection died with the server: not acknowledged
        return;
      } finally {
        inFlight--;
      }
      if (acknowledged.length >= KILL_AFTER && !killed) {
        killed = true;
        inFlightAtKill = inFlight;
        running.child.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
  await exited(running.child);
  t.equal(running.child.signalCode, 'SIGKILL', 'the server was killed');
  t.ok(acknowledged.length >= KILL_AFTER, `${acknowledged.length} sends acknowledged before the kill`);
  t.ok(inFlightAtKill > 0, `${inFlightAtKill} sends were in flight at the kill (${failed} of them cut off)`);

  running = await startProcess(env);
  const restarted = new Api(running.url, iago.email, iago.apiKey);
  const response = await restarted.get('/events', { queue_id: queue.id, last_event_id: -1, dont_block: true });
  t.equal(response.status, 200, 'the queue was rebuilt');
  const events: any[] = response.body.events;
  const delivered = new Set(events.filter((e) => e.type === 'message').map((e) => e.message.id));
  const lost = acknowledged.filter((id) => !delivered.has(id));
  t.same(lost, [], 'every acknowledged message is among the events');
  t.equal(events.at(-1)?.type, 'restart', 'then a restart event');
  t.equal(ofType(events, 'restart').length, 1);
  t.ok(events.every((e, i) => i === 0 || e.id > events[i - 1].id), 'ids increase');
  const messages = await restarted.get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0, narrow: [['channel', 'Denmark']] });
  const stored = new Set(messages.body.messages.map((m: any) => m.id));
  t.same(acknowledged.filter((id) => !stored.has(id)), [], 'and every acknowledged message is stored');
  running.child.kill('SIGTERM');
  await exited(running.child);
});
