/**
 * Black-box tests of GET /messages and GET /messages/{id}: anchors and ranges, narrows, message
 * objects, who may reach which message, and the store reads of a topic fetch among 30,000 messages.
 * Every subtest has its own demo organization on its own fake clock.
 */
import { test } from 'tap';
import { Api } from '../helpers/client.js';
import { clientFor, startTestServer } from '../helpers/server.js';
import type { World } from '../helpers/world.js';
import { NEWEST, MESSAGE_FIELDS, messageWorld, send, sendDm, message, flagsOf, fetchIds, error, invalidMessage } from '../helpers/messages.js';
import { writeMessage } from '../../src/actions/message-send.js';
import { Transaction } from '../../src/store/transaction.js';

/**
 * The channel the range and narrow tests read: 'Fetch', with hamlet and othello, and ten messages
 * m[0..9] in topics alpha/Beta alternating (othello sends every third one, m[4] mentions a fox).
 */
async function fetchChannelOf(w: World): Promise<{ m: number[]; fetchChannel: number }> {
  const { hamlet, othello, org } = w;
  const m: number[] = [];
  await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Fetch' }], principals: [4, 5] });
  const fetchChannel = org.channels.byName('Fetch')!.id;
  for (let i = 0; i < 10; i++) m.push(await send(i % 3 === 0 ? othello : hamlet, 'Fetch', i % 2 ? 'Beta' : 'alpha', `message ${i} ${i === 4 ? 'The Quick brown fox' : 'plain'}`));
  return { m, fetchChannel };
}

test('GET /messages', async (t) => {
  t.test('GET /messages: anchors and ranges', async (t) => {
    const w = await messageWorld(t);
    const { hamlet, othello } = w;
    const { m, fetchChannel } = await fetchChannelOf(w);
    const narrow = [['stream', 'Fetch']];
    const get = (params: Record<string, unknown>) => hamlet.get('/messages', { narrow, ...params });

    const newest = await get({ anchor: 'newest', num_before: 3 });
    t.equal(newest.status, 200);
    t.same(Object.keys(newest.body).sort(), ['anchor', 'found_anchor', 'found_newest', 'found_oldest', 'history_limited', 'messages', 'msg', 'result']);
    t.same(newest.body.messages.map((x: any) => x.id), m.slice(7));
    t.match(newest.body, { found_anchor: false, found_oldest: false, found_newest: true, history_limited: false, anchor: NEWEST });
    const all = await get({ anchor: 'newest', num_before: 20 });
    t.same(all.body.messages.map((x: any) => x.id), m);
    t.match(all.body, { found_oldest: true, found_newest: true });
    const oldest = await get({ anchor: 'oldest', num_after: 3 });
    t.same(oldest.body.messages.map((x: any) => x.id), m.slice(0, 3));
    t.match(oldest.body, { found_anchor: false, found_oldest: true, found_newest: false, anchor: 0 });
    const oldestOnly = await get({ anchor: 'oldest' });
    t.same(oldestOnly.body.messages, []);
    t.equal(oldestOnly.body.found_oldest, true, 'anchored at the oldest end even with nothing asked');
    const middle = await get({ anchor: String(m[5]), num_before: 2, num_after: 2 });
    t.same(middle.body.messages.map((x: any) => x.id), m.slice(3, 8));
    t.match(middle.body, { found_anchor: true, found_oldest: false, found_newest: false, anchor: m[5] });
    const exact = await get({ anchor: m[5], num_before: 0, num_after: 0 });
    t.same(exact.body.messages.map((x: any) => x.id), [m[5]], 'the anchor alone');
    const edges = await get({ anchor: m[1], num_before: 5, num_after: 20 });
    t.same(edges.body.messages.map((x: any) => x.id), m);
    t.match(edges.body, { found_anchor: true, found_oldest: true, found_newest: true });
    const excluded = await get({ anchor: m[5], num_before: 2, include_anchor: false });
    t.same(excluded.body.messages.map((x: any) => x.id), [m[3], m[4]]);
    t.equal(excluded.body.found_anchor, false);
    const excludedAfter = await get({ anchor: m[5], num_after: 2, include_anchor: false });
    t.same(excludedAfter.body.messages.map((x: any) => x.id), [m[6], m[7]]);
    const notInNarrow = await hamlet.get('/messages', { narrow: [['stream', 'Fetch'], ['topic', 'alpha']], anchor: m[5], num_before: 1, num_after: 1 });
    t.same(notInNarrow.body.messages.map((x: any) => x.id), [m[4], m[6]], 'an anchor outside the narrow is not returned');
    t.equal(notInNarrow.body.found_anchor, false);
    const huge = await get({ anchor: '99999999999999999999', num_before: 1 });
    t.same([huge.body.anchor, huge.body.messages.map((x: any) => x.id)], [NEWEST, [m[9]]], 'ids above the largest are clamped');
    const negative = await get({ anchor: '-5', num_after: 1 });
    t.same([negative.body.anchor, negative.body.messages.map((x: any) => x.id)], [0, [m[0]]]);

    // first_unread: othello reads m0..m3 (hamlet's are unread for him; his own are unread as sent by a script).
    await othello.post('/messages/flags', { messages: m.slice(0, 4), op: 'add', flag: 'read' });
    const firstUnread = await othello.get('/messages', { narrow, anchor: 'first_unread', num_before: 1, num_after: 1 });
    t.same(firstUnread.body.messages.map((x: any) => x.id), [m[3], m[4], m[5]]);
    t.match(firstUnread.body, { anchor: m[4], found_anchor: true });
    const legacy = await othello.get('/messages', { narrow, anchor: 'oldest', use_first_unread_anchor: true, num_before: 1, num_after: 1 });
    t.same(legacy.body.messages.map((x: any) => x.id), [m[3], m[4], m[5]], 'use_first_unread_anchor overrides anchor');
    t.equal(legacy.body.anchor, m[4]);
    const legacyNoAnchor = await othello.get('/messages', { narrow, use_first_unread_anchor: true, num_before: 1 });
    t.equal(legacyNoAnchor.body.anchor, m[4], 'and anchor may then be left out');
    await othello.post('/mark_stream_as_read', { stream_id: fetchChannel });
    const nothingUnread = await othello.get('/messages', { narrow, use_first_unread_anchor: true, num_before: 2, num_after: 2 });
    t.match(nothingUnread.body, { anchor: 10000000000000000, found_anchor: false, found_newest: true }, 'nothing unread: the anchor is 10000000000000000');
    t.same(nothingUnread.body.messages.map((x: any) => x.id), [m[8], m[9]]);
    const firstUnreadNone = await othello.get('/messages', { narrow, anchor: 'first_unread', num_before: 1 });
    t.equal(firstUnreadNone.body.anchor, NEWEST);

    t.same(error(await hamlet.get('/messages', { narrow, num_before: 1 })), [400, 'BAD_REQUEST', "Missing 'anchor' argument."]);
    t.same(error(await hamlet.get('/messages', { anchor: 'latest', num_before: 1 })), [400, 'BAD_REQUEST', 'Invalid anchor']);
    t.same(error(await hamlet.get('/messages', { anchor: 'newest', num_before: 4000, num_after: 1001 })), [400, 'BAD_REQUEST', 'Too many messages requested (maximum 5000).']);
    t.equal((await hamlet.get('/messages', { anchor: 'newest', num_before: 4000, num_after: 1000 })).status, 200, '5000 is allowed');
    t.same(error(await hamlet.get('/messages', { anchor: m[5], num_before: 1, num_after: 1, include_anchor: false })), [400, 'BAD_REQUEST', 'The anchor can only be excluded at an end of the range']);
    t.equal((await hamlet.get('/messages', { anchor: 'newest', num_before: -1 })).status, 400);
  });

  t.test('GET /messages: narrows', async (t) => {
    const w = await messageWorld(t);
    const { iago, hamlet, othello, prospero, polonius } = w;
    const { m, fetchChannel } = await fetchChannelOf(w);
    const ids = (narrow: unknown, client: Api = hamlet) => fetchIds(client, { anchor: 'newest', num_before: 100, narrow });
    const channelWide = await ids([['stream', 'Fetch']]);
    t.same(channelWide, m, 'the legacy pair form');
    t.same(await ids([{ operator: 'channel', operand: 'Fetch' }]), m, 'the object form');
    t.same(await ids([{ operator: 'stream', operand: fetchChannel }]), m, 'operands by id');
    t.same(await ids([{ operator: 'channel', operand: 'fetch', negated: false }]), m, 'names in any case');
    const topicA = m.filter((_, i) => i % 2 === 0);
    const topicB = m.filter((_, i) => i % 2 === 1);
    t.same(await ids([['stream', 'Fetch'], ['topic', 'ALPHA']]), topicA, 'topics in any case');
    t.same(await ids([['channel', 'Fetch'], ['subject', 'beta']]), topicB);
    t.same(await ids([{ operator: 'channel', operand: 'Fetch' }, { operator: 'topic', operand: 'alpha', negated: true }]), topicB, 'negated');
    t.same(await ids([['stream', 'Fetch'], ['sender', 'othello@example.com']]), [m[0], m[3], m[6], m[9]]);
    t.same(await ids([{ operator: 'channel', operand: fetchChannel }, { operator: 'sender', operand: 5 }]), [m[0], m[3], m[6], m[9]], 'sender by id');
    t.same(await ids([{ operator: 'channel', operand: fetchChannel }, { operator: 'sender', operand: 5, negated: true }, ['topic', 'beta']]), [m[1], m[5], m[7]]);
    t.same(await ids([['stream', 'Fetch'], ['search', 'QUICK fox']]), [m[4]], 'search: words, any case');
    t.same(await ids([['stream', 'Fetch'], ['search', 'qui']]), [m[4]], 'word prefixes');
    t.same(await ids([['stream', 'Fetch'], ['search', 'quick cat']]), [], 'every word must match');
    t.same(await ids([['stream', 'Fetch'], ['search', '"brown fox"']]), [m[4]], 'quoted phrases');
    t.same(await ids([['stream', 'Fetch'], ['search', '"fox brown"']]), []);
    t.same(await ids([['search', 'quick']], othello), [m[4]], 'search without a channel');
    const searched = await hamlet.get('/messages', { anchor: 'newest', num_before: 5, narrow: [['stream', 'Fetch'], ['search', 'quick']] });
    t.equal(searched.body.messages[0].match_content, '<p>message 4 The <span class="highlight">Quick</span> brown fox</p>');
    t.equal(searched.body.messages[0].match_subject, 'alpha');
    t.notOk('match_content' in (await message(hamlet, m[4])), 'only with a search');
    t.same(await ids([['stream', 'Fetch'], ['search', 'BETA']]), topicB, 'search looks at the topic too');
    t.same(await ids([{ operator: 'id', operand: m[3] }]), [m[3]]);
    t.same(await ids([{ operator: 'id', operand: String(m[3]) }, ['stream', 'Fetch']]), [m[3]]);
    t.same(await ids([{ operator: 'id', operand: m[3] }, ['stream', 'Denmark']]), []);

    // Direct-message narrows, seen by prospero (a fresh inbox).
    const withIago = await sendDm(prospero, [2], 'to iago');
    const fromIago = await sendDm(iago, [7], 'to prospero');
    const group = await sendDm(prospero, [2, 5], 'to iago and othello');
    const withOthello = await sendDm(othello, [7], 'othello to prospero');
    const self = await sendDm(prospero, [7], 'myself');
    const p = (narrow: unknown) => ids(narrow, prospero);
    t.same(await p([{ operator: 'dm', operand: [2] }]), [withIago, fromIago], 'dm: one conversation');
    t.same(await p([{ operator: 'dm', operand: [2, 7] }]), [withIago, fromIago], 'the viewer may be in the list');
    t.same(await p([['pm-with', 'iago@example.com']]), [withIago, fromIago], 'pm-with and emails');
    t.same(await p([['dm', 'iago@example.com,othello@example.com']]), [group]);
    t.same(await p([{ operator: 'dm', operand: [7] }]), [self], 'self-DMs');
    t.same(await p([{ operator: 'dm', operand: [6] }]), [], 'a conversation that does not exist');
    t.same(await p([{ operator: 'dm-including', operand: 5 }]), [group, withOthello], 'dm-including: 1:1 and groups');
    t.same(await p([['dm-including', 'iago@example.com']]), [withIago, fromIago, group]);
    const since = (list: number[]) => list.filter((id) => id >= withIago);
    t.same(since(await p([['is', 'dm']])), [withIago, fromIago, group, withOthello, self]);
    t.same(since(await p([['is', 'private']])), [withIago, fromIago, group, withOthello, self], 'is:private is is:dm');
    t.same(await p([{ operator: 'is', operand: 'dm', negated: true }, ['sender', 'iago@example.com']]), [], 'negated');
    t.same(await ids([{ operator: 'dm', operand: [7] }], othello), [withOthello]);

    // is: starred, mentioned, unread, resolved
    await prospero.post('/messages/flags', { messages: [withIago, m[2]], op: 'add', flag: 'starred' });
    t.same(await p([['is', 'starred']]), [m[2], withIago], 'starred, even a message prospero never received');
    const mentioning = await send(hamlet, 'Denmark', 'narrows', 'hey @**Prospero from The Tempest**');
    const wildcard = await send(hamlet, 'Denmark', 'narrows', 'hey @**all**');
    t.same((await p([['is', 'mentioned']])).filter((id) => id > withIago), [mentioning, wildcard], 'personal and wildcard mentions');
    await prospero.post('/mark_all_as_read');
    const unreadOne = await sendDm(iago, [7], 'unread');
    t.same(await p([['is', 'unread']]), [unreadOne]);
    const resolved = await send(hamlet, 'Fetch', '✔ done', 'finished');
    t.same(await ids([['stream', 'Fetch'], ['is', 'resolved']]), [resolved]);
    t.same(await ids([['is', 'resolved']]), [resolved]);
    t.same((await ids([{ operator: 'channel', operand: 'Fetch' }, { operator: 'is', operand: 'resolved', negated: true }])), m);

    // channels:public, and history: public channels one is not subscribed to.
    const hidden = await send(iago, 'core team', 'secret', 'hidden');
    const scottish = await send(othello, 'Scotland', 'narrows', 'in Scotland');
    const publicIds = await p([['channels', 'public']]);
    t.ok(publicIds.includes(scottish), 'channels:public shows public history');
    t.notOk(publicIds.includes(hidden));
    t.notOk(publicIds.includes(withIago), 'no direct messages');
    t.notOk((await p([])).includes(scottish), 'the default narrow shows only what one received');
    t.same(await p([['stream', 'Scotland'], ['topic', 'narrows']]), [scottish], 'a public channel narrow shows its history');
    t.same((await prospero.get('/messages', { anchor: 'newest', num_before: 1, narrow: [['stream', 'Scotland']] })).body.messages[0].flags, ['read', 'historical']);
    t.same(await p([['stream', 'core team']]), [], 'a private channel one is not in: nothing, and no error');
    t.same(await p([['stream', 'Scotland'], ['is', 'unread']]), [], 'an is: term turns history off');
    const forPolonius = await send(hamlet, 'Verona', 'narrows', 'polonius is here');
    const guestPublic = await ids([['channels', 'public']], polonius);
    t.ok(guestPublic.includes(forPolonius), 'guests: channels:public gives what they received');
    t.notOk(guestPublic.includes(scottish), 'but no public history');
    t.notOk((await ids([['stream', 'Scotland']], polonius)).length, 'not even for one channel');

    // Bad narrows.
    const bad = async (narrow: unknown, desc: string) => {
      const response = await hamlet.get('/messages', { anchor: 'newest', num_before: 1, narrow });
      t.same(response.body, { result: 'error', code: 'BAD_NARROW', msg: `Invalid narrow operator: ${desc}`, desc }, desc);
      t.equal(response.status, 400);
    };
    await bad([['foo', 'bar']], 'unknown operator foo');
    await bad([['stream', 'Atlantis']], 'unknown channel Atlantis');
    await bad([{ operator: 'channel', operand: 999 }], 'unknown channel 999');
    await bad([['sender', 'ghost@example.com']], 'unknown user ghost@example.com');
    await bad([{ operator: 'sender', operand: 999 }], 'unknown user 999');
    await bad([{ operator: 'dm', operand: [2, 999] }], 'unknown user in [2,999]');
    await bad([['dm-including', 'ghost@example.com']], 'unknown user ghost@example.com');
    await bad([['is', 'shiny']], "unknown 'is' operand shiny");
    await bad([['channels', 'private']], 'unknown channels operand private');
    await bad([['has', 'cats']], "unknown 'has' operand cats");
    await bad([['id', 'abc']], 'Invalid message ID');
    await bad([['stream', 'Denmark'], ['is', 'dm']], 'No message can be both a channel message and direct message');
    await bad([['topic', 'x'], { operator: 'dm', operand: [2] }], 'No message can be both a channel message and direct message');
    const shape = async (narrow: unknown, msg: string) => t.same(error(await hamlet.get('/messages', { anchor: 'newest', narrow })), [400, 'BAD_REQUEST', msg], msg);
    await shape([['stream']], 'Invalid narrow[0]: Value error, element is not a string pair');
    await shape([['stream', 3]], 'Invalid narrow[0]: Value error, element is not a string pair');
    await shape([5], 'Invalid narrow[0]: Value error, dict or list required');
    await shape([{ operator: 'stream' }], 'Invalid narrow[0]: Value error, operand is missing');
    await shape([['stream', 'Fetch'], { operand: 'x' }], 'Invalid narrow[1]: Value error, operator is missing');
  });

  t.test('GET /messages and /messages/{id}: message objects', async (t) => {
    const w = await messageWorld(t);
    const { org, hamlet, othello, seconds } = w;
    const { m, fetchChannel } = await fetchChannelOf(w);
    const id = await send(hamlet, 'Fetch', 'objects', '/me waves **boldly**', { client: 'ZulipPython' });
    const response = await othello.get(`/messages/${id}`);
    t.equal(response.status, 200);
    t.same(Object.keys(response.body).sort(), ['message', 'msg', 'raw_content', 'result']);
    t.equal(response.body.raw_content, '/me waves **boldly**');
    const object = response.body.message;
    t.same(Object.keys(object).sort(), [...MESSAGE_FIELDS, 'stream_id'].sort());
    t.same(object, {
      id, sender_id: 4, content: '<p>/me waves <strong>boldly</strong></p>', recipient_id: org.channels.get(fetchChannel)!.recipientId,
      timestamp: seconds(), client: 'ZulipPython', subject: 'objects', topic_links: [], is_me_message: true, reactions: [],
      submessages: [], sender_email: 'hamlet@example.com', sender_full_name: 'King Hamlet', avatar_url: null,
      sender_realm_str: org.realm.subdomain, display_recipient: 'Fetch', type: 'stream', content_type: 'text/html', flags: [],
      stream_id: fetchChannel,
    });
    const listed = await othello.get('/messages', { anchor: id, narrow: [['stream', 'Fetch']] });
    t.same(listed.body.messages, [object], 'the same object in a range');
    const raw = await message(othello, id, { apply_markdown: false });
    t.same([raw.content, raw.content_type, raw.is_me_message], ['/me waves **boldly**', 'text/x-markdown', true]);
    const gravatar = await message(othello, id, { client_gravatar: false });
    t.match(gravatar.avatar_url, /^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/);
    const rangeRaw = await othello.get('/messages', { anchor: id, narrow: [['stream', 'Fetch']], apply_markdown: false, client_gravatar: false });
    t.same([rangeRaw.body.messages[0].content, typeof rangeRaw.body.messages[0].avatar_url], ['/me waves **boldly**', 'string']);
    const emptyTopic = await send(hamlet, 'Fetch', '', 'x');
    const shown = await othello.get('/messages', { anchor: emptyTopic, narrow: [['stream', 'Fetch']] });
    t.equal(shown.body.messages[0].subject, 'general chat');
    const rawTopic = await othello.get('/messages', { anchor: emptyTopic, narrow: [['stream', 'Fetch']], allow_empty_topic_name: true });
    t.equal(rawTopic.body.messages[0].subject, '');
    t.same(error(await othello.get('/messages/999999')), invalidMessage);
  });

  t.test('access: only messages one received or that sit in public channels one may see', async (t) => {
    const { desdemona, iago, shiva, hamlet, othello, polonius } = await messageWorld(t);
    const secret = await send(iago, 'core team', 'plans', 'secret plans');
    const dm = await sendDm(iago, [1], 'between admins');
    const denmark = await send(iago, 'Denmark', 'access', 'public');
    const verona = await send(iago, 'Verona', 'access', 'public too');
    const scotland = await send(othello, 'Scotland', 'access', 'public, hamlet not subscribed');
    const refused = async (client: Api, id: number, who: string) => {
      t.same(error(await client.get(`/messages/${id}`)), invalidMessage, `${who}: GET`);
      t.same(error(await client.patch(`/messages/${id}`, { topic: 'stolen' })), invalidMessage, `${who}: PATCH`);
      t.same(error(await client.delete(`/messages/${id}`)), invalidMessage, `${who}: DELETE`);
      t.same(error(await client.get(`/messages/${id}/history`)), invalidMessage, `${who}: history`);
      t.same(error(await client.post(`/messages/${id}/reactions`, { emoji_name: 'tada' })), invalidMessage, `${who}: add reaction`);
      t.same(error(await client.delete(`/messages/${id}/reactions`, { emoji_name: 'tada' })), invalidMessage, `${who}: remove reaction`);
      t.same(error(await client.post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' })), invalidMessage, `${who}: star`);
      t.same(error(await client.post(`/messages/${id}/report`, { report_type: 'spam' })), invalidMessage, `${who}: report`);
      t.same(await fetchIds(client, { anchor: 'newest', num_before: 100, narrow: [{ operator: 'id', operand: id }] }), [], `${who}: not in any range`);
      t.notOk((await fetchIds(client, { anchor: 'newest', num_before: 100 })).includes(id));
    };
    await refused(hamlet, secret, 'a private channel one is not in');
    await refused(shiva, secret, 'not even a moderator');
    await refused(othello, dm, 'a direct message to others');
    await refused(polonius, denmark, 'a guest outside a public channel');
    t.equal((await polonius.get(`/messages/${verona}`)).status, 200, 'a guest in his channel');
    t.equal((await hamlet.get(`/messages/${scotland}`)).status, 200, 'a public channel one is not in');
    t.equal((await hamlet.get(`/messages/${denmark}`)).status, 200);
    t.equal((await desdemona.get(`/messages/${secret}`)).status, 200);

    // Private channels: shared history lets later subscribers read back; protected history does not.
    await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Shared' }], invite_only: true, history_public_to_subscribers: true });
    await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Sealed' }], invite_only: true });
    const sharedOld = await send(hamlet, 'Shared', 'h', 'before othello');
    const sealedOld = await send(hamlet, 'Sealed', 'h', 'before othello');
    await refused(othello, sharedOld, 'a private channel with shared history one is not in');
    await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Shared' }, { name: 'Sealed' }], principals: [5] });
    const sealedNew = await send(hamlet, 'Sealed', 'h', 'after othello');
    t.same(await flagsOf(othello, sharedOld), ['read', 'historical'], 'shared history: earlier messages once subscribed');
    t.same(await fetchIds(othello, { anchor: 'newest', num_before: 10, narrow: [['stream', 'Shared']] }), [sharedOld]);
    await refused(othello, sealedOld, 'protected history: messages from before one joined');
    t.same(await fetchIds(othello, { anchor: 'newest', num_before: 10, narrow: [['stream', 'Sealed']] }), [sealedNew]);

    await desdemona.delete('/users/me/subscriptions', { subscriptions: ['core team'] });
    t.same(error(await desdemona.get(`/messages/${secret}`)), invalidMessage, 'leaving a private channel loses its messages, even with a record');
    t.notOk((await fetchIds(desdemona, { anchor: 'newest', num_before: 100 })).includes(secret));
    t.equal((await iago.post('/users/me/subscriptions', { subscriptions: [{ name: 'core team' }], principals: [1] })).status, 200);
    t.equal((await desdemona.get(`/messages/${secret}`)).status, 200, 'and rejoining gets them back');
  });
});

test('fetching the newest 100 messages of a topic among 30,000 reads only what it returns, then nothing', async (t) => {
  // No periodic sweep during the measurement: the counters are the whole store's.
  const server = await startTestServer({ PARLEY_SWEEP_SECONDS: '3600' });
  t.teardown(() => server.destroy());
  const { services } = server;
  const hamlet = clientFor(server, 'hamlet@example.com');
  await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Big' }] });
  const big = services.org.channels.byName('Big')!;
  const senders = [services.org.users.get(4)!, services.org.users.get(5)!];
  const rendered = services.render('x');
  // 200 times the topic's messages: the bounds below are absolute counts, so a bigger store proves
  // no more (100,000 cost three times the CPU for the same assertions).
  const TOTAL = 30_000;
  const BATCH = 2000;
  const measured: number[] = [];
  const started = Date.now();
  for (let start = 0; start < TOTAL; start += BATCH) {
    const tx = new Transaction();
    for (let i = start; i < start + BATCH; i++) {
      // ~150 messages in the measured topic, spread over the whole history; the rest in 50 others.
      const topic = i % 200 === 0 ? 'measured' : `other ${i % 50}`;
      const written = writeMessage(services, tx, {
        sender: senders[i % 2], client: 'test', readBySender: false, content: 'x', rendered,
        destination: { type: 'stream', channel: services.org.channels.get(big.id)!, topic },
      });
      if (topic === 'measured') measured.push(written.record.id);
    }
    await services.commit(tx);
  }
  t.comment(`seeded ${TOTAL} messages in ${Date.now() - started} ms`);
  t.equal(measured.length, 150);

  const reads = services.db.reads;
  reads.gets = 0;
  reads.scanned = 0;
  const response = await hamlet.get('/messages', {
    anchor: 'newest', num_before: 100, num_after: 0,
    narrow: [{ operator: 'channel', operand: big.id }, { operator: 'topic', operand: 'measured' }],
  });
  const { gets, scanned } = reads;
  t.equal(response.status, 200);
  const returned = response.body.messages.length;
  t.equal(returned, 100);
  t.same(response.body.messages.map((x: any) => x.id), measured.slice(-100), 'the newest 100 of the topic');
  t.match(response.body, { found_oldest: false, found_newest: true, found_anchor: false });
  t.comment(`store reads: ${gets} gets, ${scanned} index entries scanned`);
  // The walk reads the page's index entries (+1 at most); the topic's whole list (its 150 ids) and
  // hamlet's rows are read once, in the background, to be held in memory from then on.
  t.ok(scanned >= returned && scanned <= returned + 1 + measured.length + 10, `index entries scanned (${scanned}): the page's, and the topic's list once`);
  // Each returned message costs its per-user flags and, unless cached, its record.
  t.ok(gets >= returned && gets <= 2 * returned, `gets (${gets}) are at most two per returned message`);
  const { lists, rowBook } = services.messages;
  // Loaded in the background: up to a minute on a loaded machine (100 looks 20 ms apart were not always enough).
  const until = Date.now() + 60_000;
  while ((lists.counts.loaded === 0 || rowBook.counts.loaded === 0) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  t.ok(lists.counts.loaded >= 1 && rowBook.counts.loaded === 1, `the topic's ids (${lists.counts.loaded} lists) and hamlet's rows are in memory`);
  reads.gets = 0;
  reads.scanned = 0;
  const again = await hamlet.get('/messages', {
    anchor: 'newest', num_before: 100, num_after: 0,
    narrow: [{ operator: 'channel', operand: big.id }, { operator: 'topic', operand: 'measured' }],
  });
  t.same(again.body.messages, response.body.messages);
  t.same([reads.gets, reads.scanned], [0, 0], 'with the ids, records and rows in memory, nothing is read from the store');

  // The same narrow, one message further back: the cost grows with what is returned, not with the channel.
  reads.gets = 0;
  reads.scanned = 0;
  const older = await hamlet.get('/messages', {
    anchor: String(measured[measured.length - 101]), num_before: 10, num_after: 0, include_anchor: true,
    narrow: [{ operator: 'channel', operand: big.id }, { operator: 'topic', operand: 'measured' }],
  });
  t.equal(older.body.messages.length, 11);
  t.ok(reads.scanned <= 12, `a smaller page scans less (${reads.scanned})`);

  // Flags over a narrow clamp their window to 5000 messages.
  const clamped = await hamlet.post('/messages/flags/narrow', {
    anchor: 'newest', num_before: 6000, num_after: 0, narrow: [{ operator: 'channel', operand: big.id }], op: 'add', flag: 'read',
  });
  t.match(clamped.body, { result: 'success', processed_count: 5000, updated_count: 5000, found_oldest: false, found_newest: true }, 'num_before is lowered to 5000');
  const middle = measured[75];
  const both = await hamlet.post('/messages/flags/narrow', {
    anchor: String(middle), num_before: 4000, num_after: 4000, narrow: [{ operator: 'channel', operand: big.id }], op: 'add', flag: 'starred',
  });
  t.match(both.body, { processed_count: 5001, updated_count: 5001, found_oldest: false, found_newest: false }, '2500 before, the anchor, 2500 after');
  t.equal(both.body.first_processed_id, middle - 2500);
  t.equal(both.body.last_processed_id, middle + 2500);
});
