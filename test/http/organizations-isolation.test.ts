/**
 * Two organizations on one server keep apart, through HTTP: every area's basic flow works in
 * each, and nothing of one (ids, names, keys, events, uploads by URL) reaches the other; fuzzed
 * requests to one leave the other's state as it was and answer none of its secrets.
 */
import { test, type Test } from 'tap';
import { Api } from '../helpers/client.js';
import { register, take } from '../helpers/events.js';
import { loadSchemas } from '../helpers/fuzz-requests.js';
import { runFuzz, summarizeFailures } from '../helpers/fuzz-run.js';
import { poolsOf, reactivateEveryone } from '../helpers/fuzz-target.js';
import { addDemoOrganization, hostOf, orgClient } from '../helpers/organizations.js';
import { clientFor, startTestServer } from '../helpers/server.js';
import { fetchRaw, uploaded } from '../helpers/uploads.js';
import { memoryEntities, storeHashes } from '../helpers/state-digest.js';
import type { Services } from '../../src/services.js';

/** One organization's basic flow, by its Hamlet (and Othello to react): what it made, by id and name. */
async function basicFlow(t: Test, hamlet: Api, othello: Api, word: string) {
  const queue = await register(othello);
  const sent = await hamlet.post('/messages', { type: 'stream', to: 'Verona', topic: `topic ${word}`, content: `hello ${word}` });
  t.equal(sent.status, 200, 'send');
  const id: number = sent.body.id;
  t.equal((await hamlet.patch(`/messages/${id}`, { content: `edited ${word}` })).status, 200, 'edit');
  t.equal((await othello.post(`/messages/${id}/reactions`, { emoji_name: 'smile' })).status, 200, 'react');
  t.equal((await othello.post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' })).status, 200, 'flags');
  const read = await othello.get('/messages', { anchor: id, num_before: 0, num_after: 0 });
  t.match(read.body.messages[0], { id, content: `<p>edited ${word}</p>`, reactions: [{ emoji_name: 'smile' }], flags: ['starred'] }, 'read back');
  const found = await othello.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'search', operand: word }] });
  t.same(found.body.messages.map((m: { id: number }) => m.id), [id], 'search finds it');
  const events = await take(queue);
  t.same(events.filter((e) => e.type === 'message').map((e) => e.message.id), [id], 'the message event');
  t.ok(events.some((e) => e.type === 'update_message' && e.message_id === id), 'the edit event');
  t.ok(events.some((e) => e.type === 'reaction' && e.message_id === id), 'the reaction event');
  const file = await uploaded(hamlet, `${word}.txt`, `bytes of ${word}`);
  t.equal((await fetchRaw(hamlet, file.url)).bytes.toString(), `bytes of ${word}`, 'upload, read back');
  const verona = (await hamlet.get('/users/me/subscriptions')).body.subscriptions.find((s: { name: string }) => s.name === 'Verona').stream_id;
  const scheduled = await hamlet.post('/scheduled_messages', { type: 'stream', to: verona, topic: 'later', content: `scheduled ${word}`, scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 3600 });
  t.equal(scheduled.status, 200, 'schedule');
  t.same((await hamlet.get('/scheduled_messages')).body.scheduled_messages.map((m: { content: string }) => m.content), [`scheduled ${word}`], 'scheduled, listed');
  return { id, file: file.url, scheduledId: scheduled.body.scheduled_message_id as number };
}

test("every area's basic flow works in each organization, and nothing of one reaches the other", async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.destroy());
  const a = await addDemoOrganization(server, 'a');
  const root = { hamlet: clientFor(server, 'hamlet@example.com'), othello: clientFor(server, 'othello@example.com'), iago: clientFor(server, 'iago@example.com') };
  const inA = { hamlet: orgClient(server, a, 'hamlet@example.com'), othello: orgClient(server, a, 'othello@example.com'), iago: orgClient(server, a, 'iago@example.com') };
  const rootQueue = await register(root.othello, { event_types: ['message', 'update_message', 'reaction', 'attachment', 'scheduled_messages'] });

  const madeInA = await basicFlow(t, inA.hamlet, inA.othello, 'zqxalpha');
  t.same(await take(rootQueue), [], "none of a's events reached a queue of the root");
  // a's message, upload and scheduled message by id or URL, asked for at the root.
  const byId = await root.othello.get('/messages', { anchor: madeInA.id, num_before: 0, num_after: 0 });
  t.same(byId.body.messages, [], "a's message id finds nothing at the root");
  t.equal((await root.othello.patch(`/messages/${madeInA.id}`, { content: 'hijack' })).status, 400, "nor can it be edited there");
  t.equal((await root.othello.post(`/messages/${madeInA.id}/reactions`, { emoji_name: 'smile' })).status, 400);
  const deleted = await root.hamlet.delete(`/scheduled_messages/${madeInA.scheduledId}`);
  t.same([deleted.status, deleted.body.msg], [404, 'Scheduled message does not exist'], "a's scheduled message is not the root's to delete");
  t.equal((await inA.hamlet.get('/scheduled_messages')).body.scheduled_messages.length, 1, 'and is still there in a');
  t.equal((await fetchRaw(root.hamlet, madeInA.file)).status, 404, "a's upload URL is nothing at the root");
  const temporary = await inA.hamlet.get(madeInA.file);
  t.equal(temporary.status, 200);
  const foreign = await fetchRaw(root.hamlet, temporary.body.url, { anonymous: true });
  t.same([foreign.status, JSON.parse(foreign.bytes.toString()).msg], [400, 'Invalid token'], "a's temporary URL is nothing at the root (signed with a's key)");
  t.equal((await fetchRaw(inA.hamlet, temporary.body.url, { anonymous: true })).status, 200, 'but works at a');

  await basicFlow(t, root.hamlet, root.othello, 'zqxroot');
  const inviteA = await inA.iago.post('/invites', { invitee_emails: 'newcomer@example.com', stream_ids: [] });
  t.equal(inviteA.status, 200, 'invite in a');
  t.same((await root.iago.get('/invites')).body.invites, [], "a's invitation is not the root's");
  t.equal((await inA.iago.get('/invites')).body.invites.length, 1);
  const mailOf = async (services: Services) => JSON.stringify(await services.outbox.list());
  t.match(await mailOf(a), /newcomer@example\.com/, "a's invitation mail is in a's outbox");
  t.notMatch(await mailOf(server.services), /newcomer@example\.com/, "and not in the root's");

  const rootSearch = await root.othello.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'search', operand: 'zqxalpha' }] });
  t.same(rootSearch.body.messages, [], "the root's search finds nothing of a");
  const rootNames = JSON.stringify((await root.iago.post('/register', {})).body);
  t.notOk(rootNames.includes('zqxalpha'), "nothing named after a's word is in the root's state");
  for (const user of a.org.users.all()) t.notOk(rootNames.includes(user.apiKey), `${user.deliveryEmail}'s key of a is not in the root's state`);
});

/** Everything of one organization: its memory entities and its store keys (by its key prefix). */
async function digest(services: Services): Promise<string> {
  const prefix = `${services.org.id}!`;
  const store = [...(await storeHashes(services))].filter(([key]) => key.startsWith(prefix)).sort();
  return JSON.stringify([[...memoryEntities(services)].sort(), store]);
}

/** Secrets of `services` that must appear in no answer of another organization: its keys, and `extra`. */
function secretsOf(services: Services, extra: string[]): string[] {
  return [...[...services.org.users.all()].map((u) => u.apiKey), ...extra];
}

test('fuzzed requests to one organization leave the other as it was, and answer none of its secrets', async (t) => {
  const server = await startTestServer({ PARLEY_HEARTBEAT_SECONDS: '0.2' });
  t.teardown(() => server.destroy());
  const a = await addDemoOrganization(server, 'a');
  // The root's own secrets besides its keys: a channel, a message and an upload nobody in a knows of.
  const rootIago = clientFor(server, 'iago@example.com');
  await rootIago.post('/users/me/subscriptions', { subscriptions: [{ name: 'root-only-channel-x1' }] });
  await rootIago.post('/messages', { type: 'stream', to: 'root-only-channel-x1', topic: 'root-only-topic-x2', content: 'root-only-words-x3' });
  const file = await uploaded(rootIago, 'root-only-file-x4.txt', 'x');
  const secrets = secretsOf(server.services, ['root-only-channel-x1', 'root-only-topic-x2', 'root-only-words-x3', file.url]);
  const before = await digest(server.services);

  const figures = await runFuzz({
    url: server.url,
    host: hostOf(server, a),
    leakIn: (text) => secrets.find((secret) => text.includes(secret)),
    pools: async () => {
      await reactivateEveryone(a);
      return poolsOf(a);
    },
    // What a refused request changes is the one-organization fuzz's concern (fuzz.test.ts); here, the other organization.
    changes: async () => [],
    // Every route gets a request before the timed part; 3 s of random ones (several hundred) add to it.
  }, { seed: 20_261_127, requests: 100_000, budgetMs: 3_000, schemas: loadSchemas() });
  t.comment(`${figures.requests} requests to a in ${figures.seconds.toFixed(1)} s`);
  t.ok(figures.requests >= 100, 'enough requests');
  t.same(summarizeFailures(figures.failures.filter((f) => f.property === 'leak')), [], "no answer of a holds a secret of the root");
  t.same(summarizeFailures(figures.failures.filter((f) => f.property === '5xx')), [], 'no 5xx');
  t.equal(await digest(server.services), before, "the root's state is as it was");
  const succeeded = [...figures.perRoute].filter(([, route]) => route.succeeded > 0).map(([key]) => key);
  t.ok(succeeded.length >= 20, `the requests got through to a's handlers (${succeeded.length} routes answered 200)`);
});
