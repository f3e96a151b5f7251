/**
 * Black-box tests of POST /users/me/presence, seen through its presence events, on a fresh demo organization.
 */
import { test } from 'tap';
import { clientFor } from '../helpers/server.js';
import { world } from '../helpers/world.js';
import { CORDELIA, register, take } from '../helpers/events.js';

test('presence', async (t) => {
  t.test('presence: the first active report is an event, later ones are not', async (t) => {
    const { server, iago, othello, cordelia } = await world(t);
    const legacy = await register(othello, { event_types: ['presence'] });
    const slim = await register(iago, { event_types: ['presence'], slim_presence: true });
    const own = await register(cordelia, { event_types: ['presence'] });
    const response = await cordelia.post('/users/me/presence', { status: 'active', new_user_input: true });
    t.equal(response.status, 200);
    t.ok('cordelia@example.com' in response.body.presences, 'legacy presences, keyed by email');
    const [event] = await take(legacy);
    const { id: _, server_timestamp, ...rest } = event;
    t.type(server_timestamp, 'number');
    t.same(rest, {
      type: 'presence', user_id: CORDELIA, email: 'cordelia@example.com',
      presence: { website: { client: 'website', status: 'active', timestamp: rest.presence.website.timestamp, pushable: false } },
    });
    t.type(rest.presence.website.timestamp, 'number');
    const [slimEvent] = await take(slim);
    t.equal(slimEvent.user_id, CORDELIA);
    t.notOk('email' in slimEvent, 'slim_presence queues get no email');
    t.equal((await take(own)).length, 1, 'the user gets it too');
    t.equal((await cordelia.post('/users/me/presence', { status: 'active' })).status, 200);
    t.equal((await cordelia.post('/users/me/presence', { status: 'idle', ping_only: true })).status, 200);
    t.same(await take(legacy), [], 'a user already online makes no event');
    const state = (await othello.post('/register', { fetch_event_types: ['presence'] })).body;
    t.equal(state.presences['cordelia@example.com'].aggregated.status, 'active');
    t.ok(state.presence_last_update_id > 0);

    const prospero = clientFor(server, 'prospero@example.com');
    t.equal((await prospero.post('/users/me/presence', { status: 'idle' })).status, 200);
    t.same((await take(legacy)).map((e) => [e.type, e.user_id]), [['presence', 7]], "a user's first report is an event, even idle");
    t.equal((await prospero.post('/users/me/presence', { status: 'active' })).status, 200);
    t.same((await take(legacy)).map((e) => [e.type, e.user_id, e.presence.website.status]), [['presence', 7, 'active']], 'the first active one after it too');
    t.equal((await prospero.post('/users/me/presence', { status: 'active' })).status, 200);
    t.same(await take(legacy), []);
    const bad = await prospero.post('/users/me/presence', { status: 'away' });
    t.same([bad.status, bad.body.msg], [400, 'Invalid status: away']);
  });
});

test('beyond 100 active users a user coming online makes no event (Zulip\'s limit); the report still answers with everyone\'s presence', async (t) => {
  const { iago, othello, cordelia } = await world(t);
  const legacy = await register(othello, { event_types: ['presence'] });
  const members = (await iago.get('/users')).body.members.filter((m: { is_active: boolean }) => m.is_active).length;
  for (let i = members; i <= 100; i++) {
    const created = await iago.post('/users', { email: `extra${i}@example.com`, full_name: `Extra ${i}`, password: 'a long enough password' });
    t.equal(created.status, 200, `user ${i} created`);
  }
  t.equal((await iago.get('/users')).body.members.filter((m: { is_active: boolean }) => m.is_active).length, 101, '101 active users');
  const response = await cordelia.post('/users/me/presence', { status: 'active', new_user_input: true });
  t.equal(response.status, 200);
  t.ok('cordelia@example.com' in response.body.presences, 'the answer holds the presences');
  t.same((await take(legacy)).filter((e) => e.type === 'presence'), [], 'no presence event');
  const state = (await othello.post('/register', { fetch_event_types: ['presence'] })).body;
  t.equal(state.presences['cordelia@example.com'].aggregated.status, 'active', 'and the state has it');
});

test('slim reports with last_update_id: only what changed since, each entry as everyone else sees it (its encoding is cached per report)', async (t) => {
  const { server, cordelia, othello, advance, seconds } = await world(t, { clockStart: Date.UTC(2026, 0, 5, 9) });
  const prospero = clientFor(server, 'prospero@example.com');
  const report = async (who: typeof cordelia, status: string, since?: number) => {
    const response = await who.post('/users/me/presence', { status, slim_presence: true, ...(since === undefined ? {} : { last_update_id: since }) });
    t.equal(response.status, 200);
    return response.body as { presences: Record<string, { active_timestamp: number; idle_timestamp: number }>; presence_last_update_id: number; server_timestamp: number };
  };
  // The reference: the same presences built as objects (POST /register).
  const everyone = async () => (await othello.post('/register', { fetch_event_types: ['presence'], slim_presence: true })).body.presences;
  const idle = await report(prospero, 'idle');
  t.type(idle.server_timestamp, 'number');
  const first = await report(cordelia, 'active');
  t.same(Object.keys(first.presences).sort(), [String(CORDELIA), '7'].sort(), 'without last_update_id: everyone with a presence');
  t.same(first.presences, await everyone(), 'the same entries as /register shows');
  const quiet = await report(cordelia, 'active', first.presence_last_update_id);
  t.same(Object.keys(quiet.presences), [String(CORDELIA)], 'since the last report: only her own new one');
  advance(600);
  await report(prospero, 'active');
  const changed = await report(cordelia, 'active', quiet.presence_last_update_id);
  t.same(Object.keys(changed.presences).sort(), [String(CORDELIA), '7'].sort(), 'a later report of another user shows again');
  const now = await everyone();
  t.same(changed.presences['7'], now['7'], "his entry is his new one, not the one encoded for his first report");
  t.same(changed.presences['7'], { active_timestamp: seconds(), idle_timestamp: seconds() }, 'active since his active report, ten minutes after his idle one');
  t.not(changed.presences['7']!.idle_timestamp, first.presences['7']!.idle_timestamp);
  t.ok(changed.presence_last_update_id > quiet.presence_last_update_id);
});
