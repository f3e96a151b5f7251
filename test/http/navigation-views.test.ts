/**
 * Black-box tests of /navigation_views: built-in views (configured, never named), custom views
 * (named, unique), fragments with slashes routed whole, NOT_FOUND for unknown ones, events on a
 * second queue, register state and the views after a restart.
 */
import { test } from 'tap';
import type { Api } from '../helpers/client.js';
import { clientFor } from '../helpers/server.js';
import { ofType, register, take } from '../helpers/events.js';
import { error } from '../helpers/messages.js';
import { world } from '../helpers/world.js';

const MISSING = [404, 'NOT_FOUND', 'Navigation view does not exist.'];
const EXISTS = [400, 'BAD_REQUEST', 'Navigation view already exists.'];
const BUILT_IN_NAMED = [400, 'BAD_REQUEST', 'Built-in views cannot have a custom name.'];

async function views(api: Api): Promise<any[]> {
  const response = await api.get('/navigation_views');
  if (response.status !== 200) throw new Error(`GET /navigation_views failed: ${JSON.stringify(response.body)}`);
  return response.body.navigation_views;
}

test('POST /navigation_views', async (t) => {
  t.test('configures built-in views and adds named custom ones, in the order added', async (t) => {
    const { hamlet } = await world(t);
    t.same(await views(hamlet), [], 'nothing configured at first');
    t.equal((await hamlet.post('/navigation_views', { fragment: 'recent', is_pinned: false })).status, 200);
    t.equal((await hamlet.post('/navigation_views', { fragment: ' narrow/is/alerted ', is_pinned: true, name: ' Alert words ' })).status, 200);
    t.equal((await hamlet.post('/navigation_views', { fragment: 'narrow/is/starred', is_pinned: true })).status, 200);
    t.equal((await hamlet.post('/navigation_views', { fragment: '123', is_pinned: true, name: 'A number' })).status, 200);
    t.same(await views(hamlet), [
      { fragment: 'recent', is_pinned: false, name: null },
      { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert words' },
      { fragment: 'narrow/is/starred', is_pinned: true, name: null },
      { fragment: '123', is_pinned: true, name: 'A number' },
    ], 'fragment and name stripped; an integer-like fragment keeps its place');
  });

  t.test('refusals change nothing', async (t) => {
    const { hamlet } = await world(t);
    await hamlet.post('/navigation_views', { fragment: 'inbox', is_pinned: true });
    await hamlet.post('/navigation_views', { fragment: 'narrow/channel/2', is_pinned: true, name: 'Verona' });
    const before = await views(hamlet);
    t.same(error(await hamlet.post('/navigation_views', { fragment: 'feed', is_pinned: true, name: 'My feed' })), BUILT_IN_NAMED);
    t.same(error(await hamlet.post('/navigation_views', { fragment: 'narrow/is/unread', is_pinned: true })), [400, 'BAD_REQUEST', 'Custom views must have a valid name.']);
    t.same(error(await hamlet.post('/navigation_views', { fragment: '  ', is_pinned: true, name: 'x' })), [400, 'BAD_REQUEST', 'fragment cannot be blank']);
    t.same(error(await hamlet.post('/navigation_views', { fragment: 'narrow/x', is_pinned: true, name: ' ' })), [400, 'BAD_REQUEST', 'name cannot be blank']);
    t.same(error(await hamlet.post('/navigation_views', { fragment: 'inbox', is_pinned: false })), EXISTS, 'a built-in view configured twice');
    t.same(error(await hamlet.post('/navigation_views', { fragment: 'narrow/channel/2', is_pinned: false, name: 'Other' })), EXISTS, 'a fragment added twice');
    t.same(error(await hamlet.post('/navigation_views', { fragment: 'narrow/channel/3', is_pinned: false, name: 'Verona' })), EXISTS, 'a name used twice');
    t.same(error(await hamlet.post('/navigation_views', { fragment: 'narrow/x', name: 'x' })), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'is_pinned' argument"]);
    t.same(error(await hamlet.post('/navigation_views', { fragment: 'narrow/x', name: 'x', is_pinned: 'yes' })), [400, 'BAD_REQUEST', 'is_pinned is not valid JSON']);
    t.same(await views(hamlet), before);
  });

  t.test("each user's views are their own", async (t) => {
    const { hamlet, othello } = await world(t);
    await hamlet.post('/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' });
    t.same(await views(othello), []);
    t.equal((await othello.post('/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alerts' })).status, 200, 'the same fragment and name for another user');
    t.same(error(await othello.patch('/navigation_views/narrow/is/unread', { is_pinned: true })), MISSING);
    t.same((await views(hamlet)).map((v) => v.is_pinned), [true]);
  });
});

test('PATCH and DELETE /navigation_views/{fragment}', async (t) => {
  t.test('the fragment is the rest of the path, slashes and escapes included', async (t) => {
    const { hamlet } = await world(t);
    await hamlet.post('/navigation_views', { fragment: 'narrow/channel/2-Verona/topic/a b', is_pinned: true, name: 'Topic' });
    t.equal((await hamlet.patch('/navigation_views/narrow/channel/2-Verona/topic/a%20b', { is_pinned: false, name: 'Renamed' })).status, 200);
    t.same(await views(hamlet), [{ fragment: 'narrow/channel/2-Verona/topic/a b', is_pinned: false, name: 'Renamed' }]);
    t.same(error(await hamlet.patch('/navigation_views/narrow/channel/2-Verona', { is_pinned: true })), MISSING, 'a prefix is another fragment');
    t.equal((await hamlet.delete('/navigation_views/narrow/channel/2-Verona/topic/a%20b')).status, 200);
    t.same(await views(hamlet), []);
  });

  t.test('built-in views exist for everyone: pinning one stores its configuration; naming one is refused', async (t) => {
    const { hamlet } = await world(t);
    t.equal((await hamlet.patch('/navigation_views/narrow/is/mentioned', { is_pinned: false })).status, 200);
    t.same(await views(hamlet), [{ fragment: 'narrow/is/mentioned', is_pinned: false, name: null }]);
    t.equal((await hamlet.patch('/navigation_views/narrow/is/mentioned', { is_pinned: true })).status, 200);
    t.same(await views(hamlet), [{ fragment: 'narrow/is/mentioned', is_pinned: true, name: null }]);
    t.equal((await hamlet.patch('/navigation_views/inbox', {})).status, 200, 'nothing asked of an unconfigured built-in view');
    t.same(error(await hamlet.patch('/navigation_views/inbox', { name: 'Home' })), BUILT_IN_NAMED);
    t.same(error(await hamlet.patch('/navigation_views/narrow/is/mentioned', { name: 'Mentions' })), BUILT_IN_NAMED);
    t.same(await views(hamlet), [{ fragment: 'narrow/is/mentioned', is_pinned: true, name: null }], 'refusals changed nothing');
    t.equal((await hamlet.delete('/navigation_views/narrow/is/mentioned')).status, 200, 'its configuration can be removed');
    t.same(error(await hamlet.delete('/navigation_views/narrow/is/mentioned')), MISSING, 'there is no configuration left to remove');
  });

  t.test('custom views: unknown ones are NOT_FOUND, names stay unique', async (t) => {
    const { hamlet } = await world(t);
    await hamlet.post('/navigation_views', { fragment: 'narrow/a', is_pinned: true, name: 'A' });
    await hamlet.post('/navigation_views', { fragment: 'narrow/b', is_pinned: true, name: 'B' });
    const before = await views(hamlet);
    t.same(error(await hamlet.patch('/navigation_views/narrow/c', { is_pinned: false })), MISSING);
    t.same(error(await hamlet.delete('/navigation_views/narrow/c')), MISSING);
    t.same(error(await hamlet.patch('/navigation_views/narrow/a', { name: 'B' })), EXISTS);
    t.same(error(await hamlet.patch('/navigation_views/narrow/a', { name: '' })), [400, 'BAD_REQUEST', 'name cannot be blank']);
    t.same(error(await hamlet.patch('/navigation_views/narrow/a', { is_pinned: 'no' })), [400, 'BAD_REQUEST', 'is_pinned is not valid JSON']);
    t.same(await views(hamlet), before);
  });
});

test('navigation_view events, register state and restart', async (t) => {
  const { server, hamlet, othello } = await world(t);
  await register(hamlet, { event_types: ['navigation_view'] });
  const second = await register(hamlet, { event_types: ['navigation_view'] });
  const theirs = await register(othello, {});
  await hamlet.post('/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert words' });
  await hamlet.patch('/navigation_views/narrow/is/alerted', { is_pinned: false });
  await hamlet.patch('/navigation_views/narrow/is/alerted', { name: 'Watched phrases' });
  await hamlet.patch('/navigation_views/recent', { is_pinned: false });
  t.same(ofType(await take(second), 'navigation_view').map(({ id: _id, ...event }) => event), [
    { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert words' } },
    { type: 'navigation_view', op: 'update', fragment: 'narrow/is/alerted', data: { is_pinned: false } },
    { type: 'navigation_view', op: 'update', fragment: 'narrow/is/alerted', data: { name: 'Watched phrases' } },
    { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'recent', is_pinned: false, name: null } },
  ], 'a second queue of the same user hears of each change');
  const expected = [{ fragment: 'narrow/is/alerted', is_pinned: false, name: 'Watched phrases' }, { fragment: 'recent', is_pinned: false, name: null }];
  t.same((await hamlet.post('/register', { fetch_event_types: ['navigation_views'] })).body.navigation_views, expected);
  t.same((await othello.post('/register', { fetch_event_types: ['navigation_views'] })).body.navigation_views, []);

  const restarted = await server.restart();
  t.teardown(() => restarted.destroy());
  const again = clientFor(restarted, 'hamlet@example.com');
  t.same(await views(again), expected, 'kept across a restart');
  t.equal((await again.delete('/navigation_views/recent')).status, 200);
  t.match(ofType(await take({ ...second, api: again }), 'navigation_view'), [{ type: 'navigation_view', op: 'remove', fragment: 'recent' }], 'the restored queue hears of the removal');
  t.same(ofType(await take({ ...theirs, api: clientFor(restarted, 'othello@example.com') }), 'navigation_view'), [], "nobody else's queue hears of any of it");
});
