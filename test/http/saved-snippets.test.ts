/**
 * Black-box tests of /saved_snippets: Zulip's title and content rules (stripped, not blank,
 * 60 and 10000 characters), partial edits, another user's snippet answered as missing, events on
 * a second queue, register state and the snippets after a restart.
 */
import { test } from 'tap';
import type { Api } from '../helpers/client.js';
import { clientFor } from '../helpers/server.js';
import { ofType, register, take } from '../helpers/events.js';
import { MESSAGES_CLOCK_START, error, messageWorld } from '../helpers/messages.js';

const NOW = Math.floor(MESSAGES_CLOCK_START / 1000);
const MISSING = [404, 'BAD_REQUEST', 'Saved snippet does not exist.'];

async function snippets(api: Api): Promise<any[]> {
  const response = await api.get('/saved_snippets');
  if (response.status !== 200) throw new Error(`GET /saved_snippets failed: ${JSON.stringify(response.body)}`);
  return response.body.saved_snippets;
}

async function create(api: Api, title: string, content: string): Promise<number> {
  const response = await api.post('/saved_snippets', { title, content });
  if (response.status !== 200) throw new Error(`POST /saved_snippets failed: ${JSON.stringify(response.body)}`);
  return response.body.saved_snippet_id;
}

test('POST /saved_snippets and GET /saved_snippets', async (t) => {
  t.test('creates snippets, stripped, in the order created', async (t) => {
    const { hamlet } = await messageWorld(t);
    t.same(await snippets(hamlet), []);
    const first = await create(hamlet, '  Welcome  ', '\n**Welcome** to the organization.  ');
    const second = await create(hamlet, 't'.repeat(60), 'c'.repeat(10_000));
    t.equal(second, first + 1);
    t.same(await snippets(hamlet), [
      { id: first, title: 'Welcome', content: '**Welcome** to the organization.', date_created: NOW },
      { id: second, title: 't'.repeat(60), content: 'c'.repeat(10_000), date_created: NOW },
    ]);
  });

  t.test('refusals change nothing', async (t) => {
    const { hamlet } = await messageWorld(t);
    await create(hamlet, 'kept', 'kept');
    const before = await snippets(hamlet);
    t.same(error(await hamlet.post('/saved_snippets', { title: '   ', content: 'x' })), [400, 'BAD_REQUEST', 'title cannot be blank']);
    t.same(error(await hamlet.post('/saved_snippets', { title: 'x', content: '\n' })), [400, 'BAD_REQUEST', 'content cannot be blank']);
    t.same(error(await hamlet.post('/saved_snippets', { title: 't'.repeat(61), content: 'x' })), [400, 'BAD_REQUEST', 'title is too long (limit: 60 characters)']);
    t.same(error(await hamlet.post('/saved_snippets', { title: 'x', content: 'c'.repeat(10_001) })), [400, 'BAD_REQUEST', 'content is too long (limit: 10000 characters)']);
    t.same(error(await hamlet.post('/saved_snippets', { title: 'x' })), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'content' argument"]);
    t.same(await snippets(hamlet), before);
  });
});

test('PATCH and DELETE /saved_snippets/{saved_snippet_id}', async (t) => {
  t.test('edits the title, the content, or both; nothing asked changes nothing', async (t) => {
    const { hamlet } = await messageWorld(t);
    const id = await create(hamlet, 'Welcome', 'Hello');
    t.equal((await hamlet.patch(`/saved_snippets/${id}`, { title: ' New title ' })).status, 200);
    t.same((await snippets(hamlet))[0], { id, title: 'New title', content: 'Hello', date_created: NOW });
    t.equal((await hamlet.patch(`/saved_snippets/${id}`, { content: 'New content' })).status, 200);
    t.equal((await hamlet.patch(`/saved_snippets/${id}`, {})).status, 200);
    t.same((await snippets(hamlet))[0], { id, title: 'New title', content: 'New content', date_created: NOW });
    t.same(error(await hamlet.patch(`/saved_snippets/${id}`, { title: '' })), [400, 'BAD_REQUEST', 'title cannot be blank']);
    t.same(error(await hamlet.patch(`/saved_snippets/${id}`, { content: 'c'.repeat(10_001) })), [400, 'BAD_REQUEST', 'content is too long (limit: 10000 characters)']);
    t.same((await snippets(hamlet))[0].content, 'New content', 'refused edits changed nothing');
  });

  t.test("another user's snippet is answered as a missing one, and stays as it was", async (t) => {
    const { hamlet, othello } = await messageWorld(t);
    const id = await create(hamlet, 'mine', 'mine');
    const before = await snippets(hamlet);
    t.same(error(await othello.patch(`/saved_snippets/${id}`, { title: 'theirs' })), MISSING);
    t.same(error(await othello.patch(`/saved_snippets/${id + 100}`, { title: 'theirs' })), MISSING, 'as an unknown id');
    t.same(error(await othello.delete(`/saved_snippets/${id}`)), MISSING);
    t.same(await snippets(othello), []);
    t.same(await snippets(hamlet), before);
  });

  t.test('DELETE removes the snippet; again it is missing', async (t) => {
    const { hamlet } = await messageWorld(t);
    const first = await create(hamlet, 'one', 'one');
    const second = await create(hamlet, 'two', 'two');
    t.equal((await hamlet.delete(`/saved_snippets/${first}`)).status, 200);
    t.same((await snippets(hamlet)).map((s) => s.id), [second]);
    t.same(error(await hamlet.delete(`/saved_snippets/${first}`)), MISSING);
    t.same(error(await hamlet.patch(`/saved_snippets/${first}`, { title: 'back' })), MISSING);
  });
});

test('saved_snippets events, register state and restart', async (t) => {
  const { server, hamlet, othello } = await messageWorld(t);
  await register(hamlet, { event_types: ['saved_snippets'] });
  const second = await register(hamlet, { event_types: ['saved_snippets'] });
  const theirs = await register(othello, {});
  const id = await create(hamlet, 'Example', 'Welcome to the organization.');
  await hamlet.patch(`/saved_snippets/${id}`, { content: 'Welcome!' });
  const created = { id, title: 'Example', content: 'Welcome to the organization.', date_created: NOW };
  const edited = { ...created, content: 'Welcome!' };
  t.same(ofType(await take(second), 'saved_snippets').map(({ id: _id, ...event }) => event), [
    { type: 'saved_snippets', op: 'add', saved_snippet: created },
    { type: 'saved_snippets', op: 'update', saved_snippet: edited },
  ], 'a second queue of the same user hears of each change');
  t.same((await hamlet.post('/register', { fetch_event_types: ['saved_snippets'] })).body.saved_snippets, [edited]);
  t.same((await othello.post('/register', { fetch_event_types: ['saved_snippets'] })).body.saved_snippets, []);

  const restarted = await server.restart();
  t.teardown(() => restarted.destroy());
  const again = clientFor(restarted, 'hamlet@example.com');
  t.same(await snippets(again), [edited], 'kept across a restart');
  t.equal((await again.delete(`/saved_snippets/${id}`)).status, 200);
  t.match(ofType(await take({ ...second, api: again }), 'saved_snippets'), [{ type: 'saved_snippets', op: 'remove', saved_snippet_id: id }], 'the restored queue hears of the removal');
  t.ok((await create(again, 'after', 'after')) > id, 'ids keep counting after a restart');
  t.same(ofType(await take({ ...theirs, api: clientFor(restarted, 'othello@example.com') }), 'saved_snippets'), [], "nobody else's queue hears of any of it");
});
