/**
 * Full-text search through GET /messages with `search` operands: Zulip's semantics (words ANDed,
 * stemming, stop words, phrases, topics, highlights) and what Zulip lacks (prefixes, accents,
 * text without spaces), access, edits, moves and deletions, and the index across restarts and
 * a kill -9 (catch-up from the store).
 */
import { rmSync } from 'node:fs';
import { test } from 'tap';
import { login, type Api } from '../helpers/client.js';
import { messageWorld, send, sendDm, fetchIds } from '../helpers/messages.js';
import { HAMLET, OTHELLO, CORDELIA } from '../helpers/demo-ids.js';
import { searchIndexDir } from '../../src/store/search-index.js';

const search = (client: Api, query: string, narrow: unknown[][] = [], extra: Record<string, unknown> = {}) =>
  fetchIds(client, { anchor: 'newest', num_before: 100, narrow: [...narrow, ['search', query]], ...extra });

test('search semantics', async (t) => {
  const w = await messageWorld(t);
  const { hamlet, othello } = w;
  await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Search' }], principals: [HAMLET, OTHELLO] });
  const deployment = await send(hamlet, 'Search', 'ops', 'The deployment of the new servers went fine');
  const deploying = await send(othello, 'Search', 'ops', 'I am deploying again tomorrow');
  const cafe = await send(hamlet, 'Search', 'lunch', 'Meet at the café at noon');
  const plainCafe = await send(othello, 'Search', 'lunch', 'the cafe downstairs is closed');
  const tokyo = await send(hamlet, 'Search', 'travel', '東京都庁に行きました');
  const separate = await send(hamlet, 'Search', 'travel', '京は良い、都も良い');
  const fox = await send(othello, 'Search', 'animals', 'The quick brown fox jumps');
  const runs = await send(hamlet, 'Search', 'sports', 'She runs every morning');
  const topicOnly = await send(hamlet, 'Search', 'quarterly planning', 'see the document');

  t.same(await search(hamlet, 'deployments'), [deployment, deploying], 'stemming: a plural finds the singular and other forms, as Zulip');
  t.same(await search(hamlet, 'deploy'), [deployment, deploying], 'a word matches as a prefix (beyond Zulip)');
  t.same(await search(hamlet, 'depl servers'), [deployment], 'every word must match');
  t.same(await search(hamlet, 'running'), [runs], 'stemming: running finds runs');
  t.same(await search(hamlet, 'the servers'), [deployment], 'stop words are ignored');
  t.same(await search(hamlet, 'the of'), [], 'a query of stop words only finds nothing, as Zulip');
  t.same(await search(hamlet, '"brown fox"'), [fox], 'a quoted phrase');
  t.same(await search(hamlet, '"fox brown"'), [], 'a phrase keeps its order');
  t.same(await search(hamlet, 'cafe'), [cafe, plainCafe], 'accents fold: cafe finds café');
  t.same(await search(hamlet, 'CAFÉ'), [cafe, plainCafe], 'and café finds cafe, in any case');
  t.same(await search(hamlet, '京都'), [tokyo], 'text without spaces is found by any part of it');
  t.same(await search(hamlet, '都庁'), [tokyo]);
  t.same(await search(hamlet, '良い'), [separate]);
  t.same(await search(hamlet, 'planning'), [topicOnly], 'topics are searched');
  t.same(await search(hamlet, 'fox', [['stream', 'Search'], ['topic', 'animals']]), [fox], 'with channel and topic operators');
  t.same(await search(hamlet, 'deploy', [['sender', 'othello@example.com']]), [deploying], 'with sender');
  t.same(await search(hamlet, 'deploy', [['stream', 'Verona']]), [], 'inside another channel: nothing');
  t.same(await fetchIds(hamlet, { anchor: 'newest', num_before: 10, narrow: [['stream', 'Search'], ['search', 'deploy'], ['search', 'servers']] }), [deployment], 'two search operands are ANDed');
  t.same(await fetchIds(hamlet, { anchor: 'newest', num_before: 10, narrow: [['stream', 'Search'], { operator: 'search', operand: 'deploy', negated: true }] }), [cafe, plainCafe, tokyo, separate, fox, runs, topicOnly], 'a negated search');

  // Results are in id order around the anchor, like any narrow.
  const around = await hamlet.get('/messages', { anchor: deploying, num_before: 1, num_after: 1, narrow: [['search', 'deploy cafe']] });
  t.same(around.body.messages, [], 'no message has both');
  const page = await hamlet.get('/messages', { anchor: plainCafe, num_before: 2, num_after: 1, narrow: [['search', 'deploy']] });
  t.same(page.body.messages.map((m: { id: number }) => m.id), [deployment, deploying], 'before the anchor');
  t.equal(page.body.found_anchor, false);
  const after = await hamlet.get('/messages', { anchor: deployment, num_before: 0, num_after: 5, narrow: [['search', 'cafe']] });
  t.same(after.body.messages.map((m: { id: number }) => m.id), [cafe, plainCafe], 'after the anchor');

  const highlighted = await hamlet.get('/messages', { anchor: 'newest', num_before: 10, narrow: [['search', 'deploy servers']] });
  t.equal(highlighted.body.messages[0].match_content, '<p>The <span class="highlight">deployment</span> of the new <span class="highlight">servers</span> went fine</p>', 'matched words highlighted as Zulip does');
  t.equal(highlighted.body.messages[0].match_subject, 'ops');
  const accents = await hamlet.get('/messages', { anchor: cafe, num_before: 0, num_after: 0, narrow: [['search', 'cafe']] });
  t.equal(accents.body.messages[0].match_content, '<p>Meet at the <span class="highlight">café</span> at noon</p>', 'the accented word is highlighted as written');
  const cjk = await hamlet.get('/messages', { anchor: tokyo, num_before: 0, num_after: 0, narrow: [['search', '京都']] });
  t.equal(cjk.body.messages[0].match_content, '<p>東<span class="highlight">京都</span>庁に行きました</p>', 'the matched part of unspaced text');
  const topicHit = await hamlet.get('/messages', { anchor: topicOnly, num_before: 0, num_after: 0, narrow: [['search', 'planning']] });
  t.equal(topicHit.body.messages[0].match_subject, 'quarterly <span class="highlight">planning</span>');
  t.equal(topicHit.body.messages[0].match_content, '<p>see the document</p>');
  const phrase = await hamlet.get('/messages', { anchor: fox, num_before: 0, num_after: 0, narrow: [['search', '"brown fox"']] });
  t.equal(phrase.body.messages[0].match_content, '<p>The quick <span class="highlight">brown fox</span> jumps</p>', 'a phrase is one highlight');
});

test('search never reaches what the user may not read', async (t) => {
  const w = await messageWorld(t);
  const { hamlet, othello, iago, cordelia } = w;
  // A private channel with protected history: cordelia joins after the first message.
  await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Hidden' }], principals: [HAMLET, OTHELLO], invite_only: true, history_public_to_subscribers: false });
  const before = await send(hamlet, 'Hidden', 'secret', 'zanzibar plans before');
  await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Hidden' }], principals: [CORDELIA] });
  const after = await send(hamlet, 'Hidden', 'secret', 'zanzibar plans after');
  const dm = await sendDm(hamlet, [OTHELLO], 'zanzibar between us');
  const open = await send(hamlet, 'Verona', 'public', 'zanzibar for everyone');

  t.same(await search(hamlet, 'zanzibar'), [before, after, dm, open], 'the author finds all');
  t.same(await search(othello, 'zanzibar'), [before, after, dm, open], 'a member of both');
  t.same(await search(cordelia, 'zanzibar'), [after, open], 'protected history: only what came after joining; no one else\'s DMs');
  t.same(await search(iago, 'zanzibar'), [open], 'an administrator outside the private channel finds only the public message');
  t.same(await search(iago, 'zanzibar', [['stream', 'Hidden']]), [], 'not even naming the channel');
  const asAdmin = await iago.get('/messages', { anchor: 'newest', num_before: 10, narrow: [['search', 'zanzibar']] });
  t.notMatch(JSON.stringify(asAdmin.body), /secret|between us|before|after/, 'nothing of the hidden messages is highlighted or counted');
});

test('edits, moves and deletions are found under their current state, also after a restart', async (t) => {
  const w = await messageWorld(t);
  const { hamlet, iago } = w;
  const edited = await send(hamlet, 'Verona', 'draft', 'original wording here');
  const moved = await send(hamlet, 'Verona', 'old topic', 'a moving message');
  const channelMoved = await send(hamlet, 'Verona', 'travel', 'pelican crossing');
  const deleted = await send(hamlet, 'Verona', 'draft', 'pelican to delete');

  t.equal((await hamlet.patch(`/messages/${edited}`, { content: 'revised phrasing now' })).status, 200);
  t.same(await search(hamlet, 'original'), [], 'the old words are gone');
  t.same(await search(hamlet, 'revised'), [edited], 'the new words are found at once');
  t.equal((await hamlet.patch(`/messages/${moved}`, { topic: 'brand new topic' })).status, 200);
  // The notification bot's message about the move names both topics: only hamlet's are looked at.
  t.same(await search(hamlet, 'brand', [['sender', 'hamlet@example.com']]), [moved], 'a new topic is found');
  t.same(await search(hamlet, 'old', [['sender', 'hamlet@example.com']]), [], 'the old topic is not');
  t.equal((await iago.patch(`/messages/${channelMoved}`, { stream_id: 3 /* Denmark */ })).status, 200);
  t.same(await search(iago, 'pelican', [['stream', 'Denmark']]), [channelMoved], 'found in the channel it moved to');
  t.same(await search(iago, 'pelican', [['stream', 'Verona']]), [deleted], 'not in the one it left');
  t.equal((await iago.delete(`/messages/${deleted}`)).status, 200);
  t.same(await search(iago, 'pelican'), [channelMoved], 'a deleted message is not found');

  await w.server.services.search.flush();
  const restarted = await w.server.restart();
  t.teardown(() => restarted.stop());
  const again = await login(restarted.url, 'iago@example.com');
  t.same(await search(again, 'revised'), [edited], 'after a restart');
  t.same(await search(again, 'original'), []);
  t.same(await search(again, 'pelican', [['stream', 'Denmark']]), [channelMoved]);
  t.same(await search(again, 'pelican', [['stream', 'Verona']]), []);
  await restarted.stop();
  // The index is derived: without it, the server makes it again from the store at start.
  rmSync(searchIndexDir(restarted.dataDir), { recursive: true, force: true });
  const rebuilt = await restarted.restart();
  t.teardown(() => rebuilt.destroy());
  const fresh = await login(rebuilt.url, 'iago@example.com');
  t.same(await search(fresh, 'revised'), [edited], 'rebuilt from the store');
  await rebuilt.services.search.caughtUpPromise();
  t.ok(rebuilt.services.search.isCaughtUp, 'caught up');
  t.same(await search(fresh, 'pelican'), [channelMoved]);
  t.same(await search(fresh, 'brand', [['sender', 'hamlet@example.com']]), [moved]);
});

test('search with a sender narrow returns only their messages', async (t) => {
  const w = await messageWorld(t);
  const mine = await send(w.iago, 'Verona', 'x', 'heron sighting');
  await send(w.hamlet, 'Verona', 'x', 'heron too');
  t.same(await search(w.hamlet, 'heron', [['sender', 'iago@example.com']]), [mine]);
});

test('a search of one\'s own messages reaches every message one holds, however one came to hold it', async (t) => {
  // The index is asked only for the searcher's channels and rows (their scope): a message held
  // through a historical row, a channel one left or a direct message must still be found.
  const w = await messageWorld(t);
  const { hamlet, othello } = w;
  // Hamlet's channels must be a small share of the organization's for the index to be asked his scope.
  await othello.post('/users/me/subscriptions', { subscriptions: Array.from({ length: 40 }, (_, i) => ({ name: `Elsewhere ${i}` })) });
  await othello.post('/users/me/subscriptions', { subscriptions: [{ name: 'Outside' }] });
  const starred = await send(othello, 'Outside', 'birds', 'kestrel overhead');
  const reacted = await send(othello, 'Outside', 'birds', 'kestrel again');
  const unseen = await send(othello, 'Outside', 'birds', 'kestrel unseen');
  t.equal((await hamlet.post('/messages/flags', { messages: [starred], op: 'add', flag: 'starred' })).status, 200);
  t.equal((await hamlet.post(`/messages/${reacted}/reactions`, { emoji_name: 'smile' })).status, 200);
  await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Left behind' }] });
  const left = await send(hamlet, 'Left behind', 'x', 'kestrel before leaving');
  t.equal((await hamlet.delete('/users/me/subscriptions', { subscriptions: ['Left behind'] })).status, 200);
  const dm = await sendDm(othello, [HAMLET], 'kestrel in a direct message');
  const notHis = await sendDm(othello, [CORDELIA], 'kestrel not for hamlet');

  // Indexed (not matched from pending records): the index's scope is what is tested.
  await w.server.services.search.flush();
  const held = [starred, reacted, left, dm];
  // What hamlet holds, by the narrow of all his messages (no search, no index): the same set.
  const kestrels = new Set([starred, reacted, unseen, left, dm, notHis]);
  const all = await fetchIds(hamlet, { anchor: 'newest', num_before: 1000, narrow: [] });
  t.same(all.filter((id) => kestrels.has(id)), held, 'hamlet holds these of the kestrel messages');
  t.same(await search(hamlet, 'kestrel'), held, 'every held message is found, nothing else');
  t.same(await search(hamlet, 'kestrel', [['is', 'starred']]), [starred], 'with is:starred');
  t.same(await search(hamlet, 'kestrel', [['is', 'dm']]), [dm], 'with is:dm');
  t.same(await search(hamlet, 'kestrel', [['stream', 'Outside']]), [starred, reacted, unseen], 'a public channel named: its whole history');

  // The same from an index made again from the store.
  await w.server.stop();
  rmSync(searchIndexDir(w.server.dataDir), { recursive: true, force: true });
  const rebuilt = await w.server.restart();
  t.teardown(() => rebuilt.destroy());
  await rebuilt.services.search.caughtUpPromise();
  const again = await login(rebuilt.url, 'hamlet@example.com');
  t.same(await search(again, 'kestrel'), held, 'after the index was rebuilt');
});
