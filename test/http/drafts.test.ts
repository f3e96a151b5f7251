/**
 * Black-box tests of /drafts and the drafts actor: every rule of Zulip's drafts (types, recipients,
 * text, timestamps), atomic creation, full replacement, another user's draft answered as missing,
 * the `enable_drafts_synchronization` setting, `drafts` events on a second queue, register state,
 * and the drafts after a restart.
 */
import { test } from 'tap';
import type { Api } from '../helpers/client.js';
import { clientFor } from '../helpers/server.js';
import { ofType, register, take } from '../helpers/events.js';
import { CORE_TEAM, DENMARK, MESSAGES_CLOCK_START, SCOTLAND, VERONA, error, messageWorld } from '../helpers/messages.js';
import { CORDELIA, HAMLET, IAGO, OTHELLO } from '../helpers/demo-ids.js';
import { Transaction } from '../../src/store/transaction.js';

const NOW = Math.floor(MESSAGES_CLOCK_START / 1000);
const MISSING = [404, 'BAD_REQUEST', 'Draft does not exist'];
const DISABLED = [400, 'BAD_REQUEST', 'User has disabled synchronizing drafts.'];

const stream = (content: string, extra: Record<string, unknown> = {}) => ({ type: 'stream', to: [VERONA], topic: 'plans', content, timestamp: NOW - 100, ...extra });

async function drafts(api: Api): Promise<any[]> {
  const response = await api.get('/drafts');
  if (response.status !== 200) throw new Error(`GET /drafts failed: ${JSON.stringify(response.body)}`);
  if (response.body.count !== response.body.drafts.length) throw new Error('count is not the number of drafts');
  return response.body.drafts;
}

async function create(api: Api, list: unknown[]): Promise<number[]> {
  const response = await api.post('/drafts', { drafts: list });
  if (response.status !== 200) throw new Error(`POST /drafts failed: ${JSON.stringify(response.body)}`);
  return response.body.ids;
}

test('POST /drafts and GET /drafts', async (t) => {
  t.test('creates drafts of every type, with their ids in order, read back as Zulip gives them', async (t) => {
    const { hamlet } = await messageWorld(t);
    t.same(await drafts(hamlet), [], 'none at first');
    const ids = await create(hamlet, [
      stream('  Let us meet  \n', { timestamp: NOW - 50 }),
      { type: 'private', to: [OTHELLO], topic: 'ignored for direct drafts', content: 'psst', timestamp: NOW - 40 },
      { type: 'private', to: [IAGO, OTHELLO, HAMLET], topic: '', content: 'all of us', timestamp: NOW - 30 },
      { type: 'private', to: [HAMLET], topic: '', content: 'note to self', timestamp: NOW - 20 },
      { type: 'private', to: [OTHELLO, HAMLET], topic: '', content: 'one to one, oneself named', timestamp: NOW - 10 },
      { type: 'private', to: [], topic: 'x', content: 'to nobody yet', timestamp: NOW - 5 },
      { type: '', to: [VERONA, OTHELLO], topic: 'x', content: 'unaddressed', timestamp: NOW - 1 },
    ]);
    t.equal(ids.length, 7);
    t.same(ids.map((id, i) => id - ids[0]! - i), [0, 0, 0, 0, 0, 0, 0], 'consecutive ids in the order submitted');
    t.same(await drafts(hamlet), [
      { id: ids[0], type: 'stream', to: [VERONA], topic: 'plans', content: 'Let us meet', timestamp: NOW - 50 },
      { id: ids[1], type: 'private', to: [OTHELLO], topic: '', content: 'psst', timestamp: NOW - 40 },
      { id: ids[2], type: 'private', to: [IAGO, OTHELLO], topic: '', content: 'all of us', timestamp: NOW - 30 },
      { id: ids[3], type: 'private', to: [HAMLET], topic: '', content: 'note to self', timestamp: NOW - 20 },
      { id: ids[4], type: 'private', to: [OTHELLO], topic: '', content: 'one to one, oneself named', timestamp: NOW - 10 },
      { id: ids[5], type: '', to: [], topic: '', content: 'to nobody yet', timestamp: NOW - 5 },
      { id: ids[6], type: '', to: [], topic: '', content: 'unaddressed', timestamp: NOW - 1 },
    ]);
    t.same(await create(hamlet, []), [], 'an empty list creates nothing');
  });

  t.test('oldest edit first; the timestamp is filled in when absent, kept whole when fractional', async (t) => {
    const { hamlet } = await messageWorld(t);
    const [late] = await create(hamlet, [stream('late', { timestamp: NOW + 500 })]);
    const [now, fractional, nulled] = await create(hamlet, [stream('now', { timestamp: undefined }), stream('fractional', { timestamp: 1595479019.75 }), stream('null', { timestamp: null })]);
    t.same((await drafts(hamlet)).map((d) => [d.id, d.timestamp]), [[fractional, 1595479019], [now, NOW], [nulled, NOW], [late, NOW + 500]]);
  });

  t.test('channel drafts: exactly one channel the user may read; topics cut to the limit', async (t) => {
    const { hamlet, polonius } = await messageWorld(t);
    const [id] = await create(hamlet, [stream('c', { to: [SCOTLAND], topic: 't'.repeat(70) })]);
    t.same((await drafts(hamlet))[0], { id, type: 'stream', to: [SCOTLAND], topic: 't'.repeat(57) + '...', content: 'c', timestamp: NOW - 100 }, 'a public channel one is not subscribed to');
    t.same(error(await hamlet.post('/drafts', { drafts: [stream('x', { to: [] })] })), [400, 'BAD_REQUEST', 'Must specify exactly 1 channel ID for channel messages']);
    t.same(error(await hamlet.post('/drafts', { drafts: [stream('x', { to: [VERONA, DENMARK] })] })), [400, 'BAD_REQUEST', 'Must specify exactly 1 channel ID for channel messages']);
    const privateChannel = error(await hamlet.post('/drafts', { drafts: [stream('x', { to: [CORE_TEAM] })] }));
    t.same(privateChannel, [400, 'BAD_REQUEST', 'Invalid channel ID'], 'a private channel one is not in');
    t.same(error(await hamlet.post('/drafts', { drafts: [stream('x', { to: [999] })] })), privateChannel, 'is answered as a missing one');
    t.same(error(await polonius.post('/drafts', { drafts: [stream('x', { to: [SCOTLAND] })] })), [400, 'BAD_REQUEST', 'Invalid channel ID'], "a guest's unsubscribed public channel");
  });

  t.test('refusals, one bad draft among good ones, change nothing', async (t) => {
    const { server, hamlet } = await messageWorld(t);
    const tx = new Transaction();
    server.services.org.users.save({ ...server.services.org.users.get(CORDELIA)!, isActive: false }, tx);
    await server.services.commit(tx);
    const good = stream('good');
    const cases: [unknown, unknown[]][] = [
      [{ type: 'private', to: [999], topic: '', content: 'x' }, [400, 'BAD_REQUEST', 'Invalid user ID 999']],
      [{ type: 'private', to: [CORDELIA], topic: '', content: 'x' }, [400, 'BAD_REQUEST', "'cordelia@example.com' is no longer using Zulip."]],
      [{ type: '', to: [], topic: '', content: 'nul \u0000 here' }, [400, 'BAD_REQUEST', 'Message must not contain null bytes']],
      [stream('x', { topic: 'nul \u0000' }), [400, 'BAD_REQUEST', 'Topic must not contain null bytes']],
      [stream('x', { timestamp: -10.1 }), [400, 'BAD_REQUEST', 'Timestamp must not be negative.']],
      [stream('  \n '), [400, 'BAD_REQUEST', 'drafts[1]["content"] cannot be blank']],
      [stream('x', { type: 'huddle' }), [400, 'BAD_REQUEST', 'Invalid drafts[1]["type"]']],
      [stream('x', { id: 3 }), [400, 'BAD_REQUEST', 'Argument "id" at drafts[1]["id"] is unexpected']],
      [stream('x', { to: ['Verona'] }), [400, 'BAD_REQUEST', 'drafts[1]["to"][0] is not an integer']],
      [{ type: 'stream', to: [VERONA], content: 'x' }, [400, 'BAD_REQUEST', 'topic key is missing from drafts[1]']],
    ];
    for (const [bad, expected] of cases) {
      t.same(error(await hamlet.post('/drafts', { drafts: [good, bad, good] })), expected, JSON.stringify(bad));
    }
    t.same(error(await hamlet.post('/drafts', {})), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'drafts' argument"]);
    t.same(error(await hamlet.post('/drafts', { drafts: good })), [400, 'BAD_REQUEST', 'drafts is not a list']);
    t.same(await drafts(hamlet), [], 'no draft was created');
  });
});

test('PATCH and DELETE /drafts/{draft_id}', async (t) => {
  t.test('an edit replaces the whole draft', async (t) => {
    const { hamlet } = await messageWorld(t);
    const [id] = await create(hamlet, [stream('first')]);
    t.equal((await hamlet.patch(`/drafts/${id}`, { draft: { type: 'private', to: [OTHELLO, IAGO], topic: 'dropped', content: 'second', timestamp: NOW } })).status, 200);
    t.same(await drafts(hamlet), [{ id, type: 'private', to: [IAGO, OTHELLO], topic: '', content: 'second', timestamp: NOW }]);
    t.equal((await hamlet.patch(`/drafts/${id}`, { draft: { type: 'stream', to: [DENMARK], topic: 'again', content: 'third' } })).status, 200);
    t.same(await drafts(hamlet), [{ id, type: 'stream', to: [DENMARK], topic: 'again', content: 'third', timestamp: NOW }], 'timestamp filled in when absent');
  });

  t.test('bad replacements change nothing', async (t) => {
    const { hamlet } = await messageWorld(t);
    const [id] = await create(hamlet, [stream('kept')]);
    const before = await drafts(hamlet);
    t.same(error(await hamlet.patch(`/drafts/${id}`, { draft: { ...stream('x'), id } })), [400, 'BAD_REQUEST', `Argument "id" at draft["id"] is unexpected`], 'an id inside the draft');
    t.same(error(await hamlet.patch(`/drafts/${id}`, { draft: stream('x', { to: [CORE_TEAM] }) })), [400, 'BAD_REQUEST', 'Invalid channel ID']);
    t.same(error(await hamlet.patch(`/drafts/${id}`, { draft: stream(' ') })), [400, 'BAD_REQUEST', 'draft["content"] cannot be blank']);
    t.same(error(await hamlet.patch(`/drafts/${id}`, {})), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'draft' argument"]);
    t.same(await drafts(hamlet), before);
  });

  t.test("another user's draft is answered as a missing one, and stays as it was", async (t) => {
    const { hamlet, othello } = await messageWorld(t);
    const [id] = await create(hamlet, [stream('mine')]);
    const before = await drafts(hamlet);
    const unknown = id! + 1000;
    t.same(error(await othello.patch(`/drafts/${id}`, { draft: stream('theirs') })), MISSING);
    t.same(error(await othello.patch(`/drafts/${unknown}`, { draft: stream('theirs') })), MISSING, 'the same answer as an unknown id');
    t.same(error(await othello.delete(`/drafts/${id}`)), MISSING);
    t.same(error(await othello.delete(`/drafts/${unknown}`)), MISSING);
    t.same(await drafts(othello), [], "othello sees none of hamlet's drafts");
    t.same(await drafts(hamlet), before);
  });

  t.test('DELETE removes the draft; again it is missing', async (t) => {
    const { hamlet } = await messageWorld(t);
    const [first, second] = await create(hamlet, [stream('one'), stream('two')]);
    t.equal((await hamlet.delete(`/drafts/${first}`)).status, 200);
    t.same((await drafts(hamlet)).map((d) => d.id), [second]);
    t.same(error(await hamlet.delete(`/drafts/${first}`)), MISSING);
    t.same(error(await hamlet.patch(`/drafts/${first}`, { draft: stream('back') })), MISSING);
  });
});

test('enable_drafts_synchronization', async (t) => {
  t.test('off (PATCH /settings): every drafts endpoint refuses, register says none; on again: they work', async (t) => {
    const { hamlet } = await messageWorld(t);
    const [id] = await create(hamlet, [stream('before')]);
    t.equal((await hamlet.patch('/settings', { enable_drafts_synchronization: false })).status, 200);
    t.same(error(await hamlet.get('/drafts')), DISABLED);
    t.same(error(await hamlet.post('/drafts', { drafts: [stream('x')] })), DISABLED);
    t.same(error(await hamlet.patch(`/drafts/${id}`, { draft: stream('x') })), DISABLED);
    t.same(error(await hamlet.delete(`/drafts/${id}`)), DISABLED);
    t.same((await hamlet.post('/register', { fetch_event_types: ['drafts'] })).body.drafts, []);
    t.equal((await hamlet.patch('/settings', { enable_drafts_synchronization: true })).status, 200);
    t.same(await drafts(hamlet), [], 'turning it off deleted the stored drafts, as Zulip does');
    t.equal((await create(hamlet, [stream('after')])).length, 1, 'on again: drafts are kept again');
  });

  t.test("turning it off deletes every stored draft of the user only, without drafts events", async (t) => {
    const { server, hamlet, othello } = await messageWorld(t);
    await create(hamlet, [stream('one'), stream('two')]);
    await create(othello, [stream('theirs')]);
    const queue = await register(hamlet, { event_types: ['drafts', 'user_settings'] });
    t.equal((await hamlet.patch('/settings', { enable_drafts_synchronization: false })).status, 200);
    const events = await take(queue);
    t.same(ofType(events, 'drafts'), [], "clients keep their local drafts: Zulip sends no remove events");
    t.match(ofType(events, 'user_settings'), [{ op: 'update', property: 'enable_drafts_synchronization', value: false }], 'the setting itself is announced');
    t.same((await drafts(othello)).map((d) => d.content), ['theirs']);
    const restarted = await server.restart();
    t.teardown(() => restarted.destroy());
    const again = clientFor(restarted, 'hamlet@example.com');
    t.equal((await again.patch('/settings', { enable_drafts_synchronization: true })).status, 200);
    t.same(await drafts(again), [], 'still gone after a restart');
  });
});

test('drafts events, register state and restart', async (t) => {
  const { server, hamlet, othello } = await messageWorld(t);
  const first = await register(hamlet, { event_types: ['drafts'] });
  const second = await register(hamlet, {});
  const theirs = await register(othello, {});
  const ids = await create(hamlet, [stream('one', { timestamp: NOW - 2 }), { type: 'private', to: [OTHELLO], topic: '', content: 'two', timestamp: NOW - 1 }]);
  const one = { id: ids[0], type: 'stream', to: [VERONA], topic: 'plans', content: 'one', timestamp: NOW - 2 };
  const two = { id: ids[1], type: 'private', to: [OTHELLO], topic: '', content: 'two', timestamp: NOW - 1 };
  const added = { type: 'drafts', op: 'add', drafts: [one, two] };
  t.match(ofType(await take(first), 'drafts'), [added]);
  t.match(ofType(await take(second), 'drafts'), [added], 'a second queue of the same user hears of it');
  await hamlet.patch(`/drafts/${ids[0]}`, { draft: { ...stream('one, edited'), timestamp: NOW } });
  const edited = { ...one, content: 'one, edited', timestamp: NOW };
  t.match(ofType(await take(second), 'drafts'), [{ type: 'drafts', op: 'update', draft: edited }]);
  const state = await hamlet.post('/register', { fetch_event_types: ['drafts'] });
  t.same(state.body.drafts, [edited, two], 'register: newest edit first');
  t.same((await othello.post('/register', { fetch_event_types: ['drafts'] })).body.drafts, []);

  const restarted = await server.restart();
  t.teardown(() => restarted.destroy());
  const again = clientFor(restarted, 'hamlet@example.com');
  t.same(await drafts(again), [two, edited], 'kept across a restart');
  t.equal((await again.delete(`/drafts/${ids[1]}`)).status, 200);
  t.match(ofType(await take({ ...second, api: again }), 'drafts'), [{ type: 'drafts', op: 'remove', draft_id: ids[1] }], 'the restored queue hears of the removal');
  const [third] = await create(again, [stream('after the restart')]);
  t.ok(third! > ids[1]!, 'ids keep counting after a restart');
  t.same(ofType(await take({ ...theirs, api: clientFor(restarted, 'othello@example.com') }), 'drafts'), [], "nobody else's queue hears of any of it");
});
