/**
 * Idle organizations are unloaded (PARLEY_ORGANIZATION_IDLE_SECONDS), through HTTP: one left alone
 * leaves the registry, its next request loads it again with all its data; a request during the
 * unload waits for it; an event queue or a scheduled message keeps it loaded, and the message is
 * delivered. The rule itself is checked with `unloadIdle(0)` (no waiting on the clock); the
 * server's own sweep with a 1-second setting.
 */
import { test } from 'tap';
import { Api } from '../helpers/client.js';
import { register, waitFor } from '../helpers/events.js';
import { addDemoOrganization, orgClient } from '../helpers/organizations.js';
import { startTestServer } from '../helpers/server.js';
import { scheduleSoon } from '../helpers/schedule-soon.js';

const IDLE = { PARLEY_ORGANIZATION_IDLE_SECONDS: '1' };

test('an idle organization is unloaded, and its next request loads it with all its data', async (t) => {
  const server = await startTestServer(IDLE);
  t.teardown(() => server.destroy());
  const a = await addDemoOrganization(server, 'a');
  const hamlet = orgClient(server, a, 'hamlet@example.com');
  const sent = await hamlet.post('/messages', { type: 'stream', to: 'Verona', topic: 'kept', content: 'written before the unload' });
  t.equal(sent.status, 200);

  // Out of the registry at once, counted once stopped and closed.
  await waitFor(() => server.organizations.unloads === 1, 'the idle organization unloaded');
  t.notOk(server.organizations.isLoaded('a'), 'the idle organization left the registry');
  t.ok(server.organizations.isLoaded(''), 'the root stays loaded');

  const read = await hamlet.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'channel', operand: 'Verona' }] });
  t.equal(read.status, 200);
  t.ok(read.body.messages.some((m: { id: number }) => m.id === sent.body.id), 'the message written before the unload is read after it');
  t.ok(server.organizations.isLoaded('a'), 'the request loaded it again');
  const again = await hamlet.post('/messages', { type: 'stream', to: 'Verona', topic: 'kept', content: 'written after' });
  t.equal(again.status, 200, 'and it takes writes');
  t.ok(again.body.id > sent.body.id);
});

test('a request arriving while its organization unloads waits, then loads it anew', async (t) => {
  // The default idle time: only this test's own unload runs.
  const server = await startTestServer();
  t.teardown(() => server.destroy());
  const a = await addDemoOrganization(server, 'a');
  const hamlet = orgClient(server, a, 'hamlet@example.com');
  t.equal((await hamlet.post('/messages', { type: 'stream', to: 'Verona', topic: 'race', content: 'before' })).status, 200);

  const unloadsBefore = server.organizations.unloads;
  server.organizations.unloadIdle(0);
  t.notOk(server.organizations.isLoaded('a'), 'the unload took it out of the registry at once');
  const answers = await Promise.all([hamlet.get('/users/me'), hamlet.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 })]);
  t.same(answers.map((r) => r.status), [200, 200], 'requests during the unload are answered');
  t.equal(answers[1].body.messages[0]?.content, '<p>before</p>');
  t.equal(server.organizations.unloads, unloadsBefore + 1, 'the unload finished before the new load');
  t.ok(server.organizations.isLoaded('a'));
});

test('an event queue keeps an organization loaded; once it is gone the organization unloads', async (t) => {
  const server = await startTestServer(IDLE);
  t.teardown(() => server.destroy());
  const a = await addDemoOrganization(server, 'a');
  const hamlet = orgClient(server, a, 'hamlet@example.com');
  const queue = await register(hamlet);

  server.organizations.unloadIdle(0);
  t.ok(server.organizations.isLoaded('a'), 'an organization with a queue is not idle');
  const deleted = await hamlet.delete('/events', { queue_id: queue.id });
  t.equal(deleted.status, 200);
  server.organizations.unloadIdle(0);
  t.notOk(server.organizations.isLoaded('a'), 'without its queue it is');
});

test('a scheduled message keeps its organization loaded until it is delivered', async (t) => {
  const server = await startTestServer(IDLE);
  t.teardown(() => server.destroy());
  const a = await addDemoOrganization(server, 'a');
  const hamlet = orgClient(server, a, 'hamlet@example.com');
  const { response: scheduled } = await scheduleSoon(hamlet, { type: 'stream', to: a.org.channels.byName('Verona')!.id, topic: 'later', content: 'delivered while idle' }, 3);
  t.equal(scheduled.status, 200, scheduled.body.msg);

  server.organizations.unloadIdle(0);
  t.ok(server.organizations.isLoaded('a'), 'an organization with timed work is not idle');
  // Checked on every look while the message waits: once it is delivered the organization is idle
  // (its last request is seconds old) and the 250-ms sweep may unload it before a later look.
  let unloadedEarly = false;
  await waitFor(() => {
    const waiting = [...a.scheduled.all()].length > 0;
    if (waiting && !server.organizations.isLoaded('a')) unloadedEarly = true;
    return !waiting || unloadedEarly;
  }, 'the delivery');
  t.notOk(unloadedEarly, 'it stayed loaded, past the idle time, until the delivery');
  const delivered = await new Api(server.url, hamlet.email, hamlet.apiKey, `a.localhost:${server.port}`)
    .get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'channel', operand: 'Verona' }] });
  t.equal(delivered.body.messages[0]?.content, '<p>delivered while idle</p>');
  await waitFor(() => !server.organizations.isLoaded('a'), 'unloaded once nothing is left');
});
