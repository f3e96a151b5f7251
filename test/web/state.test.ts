/** The web client's state logic, without a browser: narrows and search, message lists and echoes, unread counts, the event loop, feed rows, autocompletion. */
import { test } from 'tap';
import { applyCandidate, quoteReply, rank, tokenAt } from '../../web/src/state/autocomplete.js';
import { EventQueue, backoff, type QueueTransport, type Registration } from '../../web/src/state/event-queue.js';
import { feedRows, reuseRows } from '../../web/src/state/feed.js';
import { MessageStore, mergeSorted } from '../../web/src/state/messages.js';
import { channelNarrow, dmNarrow, HOME, matches, narrowFromPath, narrowPath, parseSearch, searchText } from '../../web/src/state/narrow.js';
import type { Message, ServerEvent } from '../../web/src/state/types.js';
import { Unread, documentTitle, topicKey } from '../../web/src/state/unread.js';
import { gravatarUrl, md5Hex } from '../../web/src/state/gravatar.js';
import { gravatarUrl as serverGravatarUrl } from '../../src/domain/avatar.js';
import { createHash } from 'node:crypto';
import { namesIn } from '../../web/src/state/seen-names.js';
import { channelsOf, REGISTER_PARAMS } from '../../web/src/app/register-params.js';
import { recentDms, RecentDmsMemo } from '../../web/src/state/recent-dms.js';
import { TopicPolicies, VisibilityPolicy } from '../../web/src/state/topic-policy.js';

const SELF = 10;

function channelMessage(id: number, streamId: number, topic: string, extra: Partial<Message> = {}): Message {
  return {
    id, sender_id: 20, sender_full_name: 'Other', sender_email: 'o@x', content: `<p>${id}</p>`, timestamp: 1000 + id,
    type: 'stream', stream_id: streamId, subject: topic, display_recipient: 'chan', flags: [], reactions: [], ...extra,
  };
}

function directMessage(id: number, userIds: number[], extra: Partial<Message> = {}): Message {
  return {
    id, sender_id: userIds[0]!, sender_full_name: 'Other', sender_email: 'o@x', content: '', timestamp: 1000 + id, type: 'private', subject: '',
    display_recipient: [...userIds, SELF].map((u) => ({ id: u, email: `${u}@x`, full_name: `U${u}` })), flags: [], reactions: [], ...extra,
  };
}

test('narrows: addresses, search operators, local matching', async (t) => {
  for (const narrow of [HOME, channelNarrow(3), channelNarrow(3, 'a topic/with slash'), dmNarrow([5, 2]), [{ operator: 'is', operand: 'starred' }]]) {
    t.same(narrowFromPath(narrowPath(narrow)), narrow, `round trip of ${narrowPath(narrow)}`);
  }
  t.same(parseSearch('channel:general topic:"big plans" -is:read has:image sender:iago@example.com hello world'), [
    { operator: 'channel', operand: 'general' },
    { operator: 'topic', operand: 'big plans' },
    { operator: 'is', operand: 'read', negated: true },
    { operator: 'has', operand: 'image' },
    { operator: 'sender', operand: 'iago@example.com' },
    { operator: 'search', operand: 'hello world' },
  ]);
  t.same(parseSearch('stream:x'), [{ operator: 'channel', operand: 'x' }], 'stream: is the old name of channel:');
  t.equal(searchText(parseSearch('topic:"big plans" words')), 'topic:"big plans" words');
  const m = channelMessage(5, 3, 'Plans');
  t.equal(matches(channelNarrow(3, 'plans'), m, SELF), true, 'topics compare without case');
  t.equal(matches(channelNarrow(4), m, SELF), false);
  t.equal(matches([{ operator: 'search', operand: 'x' }], m, SELF), undefined, 'full-text search is the server\'s to decide');
  t.equal(matches(dmNarrow([20]), directMessage(6, [20]), SELF), true);
  t.equal(matches(dmNarrow([20, 30]), directMessage(6, [20]), SELF), false);
  t.equal(matches([{ operator: 'is', operand: 'unread', negated: true }], { ...m, flags: ['read'] }, SELF), true, 'negated terms');
});

test('message lists: pages merge in order, live messages join matching lists, echoes are replaced once', async (t) => {
  t.same(mergeSorted([1, 3, 5], [4, 3, 6, 0]), [0, 1, 3, 4, 5, 6]);
  const store = new MessageStore(SELF);
  const narrow = channelNarrow(3);
  store.addPage(narrow, { messages: [channelMessage(8, 3, 'a'), channelMessage(9, 3, 'b')], found_oldest: false, found_newest: true }, 'around');
  store.addPage(narrow, { messages: [channelMessage(5, 3, 'a'), channelMessage(8, 3, 'a')], found_oldest: true, found_newest: false }, 'older');
  const list = store.list(narrow)!;
  t.same(list.ids, [5, 8, 9]);
  t.ok(list.foundOldest && list.foundNewest);

  store.addLive(channelMessage(12, 4, 'elsewhere'), []);
  t.same(list.ids, [5, 8, 9], 'another channel\'s message stays out');
  store.addLive(channelMessage(13, 3, 'a'), []);
  store.addLive(channelMessage(13, 3, 'a'), []);
  t.same(list.ids, [5, 8, 9, 13], 'a repeated event changes nothing');

  const echo = store.addEcho({ ...channelMessage(0, 3, 'a'), sender_id: SELF });
  t.ok(echo.id > 13 && !Number.isInteger(echo.id), 'the echo sorts after the newest message');
  t.same(list.ids.at(-1), echo.id);
  store.addLive({ ...channelMessage(14, 3, 'a'), sender_id: SELF }, ['read'], echo.local_id);
  t.same(list.ids, [5, 8, 9, 13, 14], 'the event replaced the echo');

  const second = store.addEcho({ ...channelMessage(0, 3, 'a'), sender_id: SELF });
  store.confirmEcho(second.local_id!, 15);
  t.ok(list.ids.includes(second.id), 'acknowledged: the echo stays until the event');
  store.addLive({ ...channelMessage(15, 3, 'a'), sender_id: SELF }, ['read']);
  t.same(list.ids, [5, 8, 9, 13, 14, 15], 'an event without the local id still replaces the acknowledged echo');

  const third = store.addEcho({ ...channelMessage(0, 3, 'a'), sender_id: SELF });
  store.addLive({ ...channelMessage(16, 3, 'a'), sender_id: SELF }, ['read']);
  store.confirmEcho(third.local_id!, 16);
  t.same(list.ids, [5, 8, 9, 13, 14, 15, 16], 'event first, then the answer: the echo goes');

  const failed = store.addEcho({ ...channelMessage(0, 3, 'a'), sender_id: SELF });
  store.failEcho(failed.local_id!);
  t.equal(store.byId.get(failed.id)?.failed, true, 'a failed send stays, marked');
  store.dropEcho(failed.local_id!);

  store.update({ message_id: 8, message_ids: [8], rendered_content: '<p>new</p>', edit_timestamp: 2000 });
  t.equal(store.byId.get(8)?.content, '<p>new</p>');
  t.equal(store.byId.get(8)?.last_edit_timestamp, 2000);
  const topicList = store.addPage(channelNarrow(3, 'a'), { messages: [5, 8, 13].map((id) => channelMessage(id, 3, 'a')), found_oldest: true, found_newest: true }, 'around');
  store.update({ message_id: 5, message_ids: [5, 8], subject: 'moved' });
  t.same(topicList.ids, [13], 'moved messages leave the old topic\'s list');
  t.same(list.ids, [5, 8, 9, 13, 14, 15, 16], 'and stay in the channel\'s');

  store.react('add', 9, { emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji', user_id: 20 });
  store.react('add', 9, { emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji', user_id: 20 });
  t.equal(store.byId.get(9)?.reactions.length, 1, 'a reaction is counted once');
  store.react('remove', 9, { emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji', user_id: 20 });
  t.equal(store.byId.get(9)?.reactions.length, 0);

  store.remove([9]);
  t.notOk(list.ids.includes(9), 'deleted');
  const starred = store.addPage([{ operator: 'is', operand: 'starred' }], { messages: [], found_oldest: true, found_newest: true }, 'around');
  store.flag('add', 'starred', [13]);
  t.same(starred.ids, [13], 'starring puts a message in the starred list');
  store.flag('remove', 'starred', [13]);
  t.same(starred.ids, []);
});

test('unread counts: seeded by register, kept by events, title', async (t) => {
  const unread = new Unread(SELF, {
    streams: [{ stream_id: 3, topic: 'A', unread_message_ids: [1, 2] }, { stream_id: 4, topic: 'b', unread_message_ids: [3] }],
    pms: [{ other_user_id: 20, unread_message_ids: [4] }],
    huddles: [{ user_ids_string: `20,${SELF},30`, unread_message_ids: [5] }],
    mentions: [2],
  });
  let counts = unread.counts({ reader: (id) => id === 4, topic: () => false });
  t.equal(counts.channels.get(3), 2);
  t.equal(counts.topics.get(topicKey(3, 'a')), 2, 'topic keys ignore case');
  t.equal(counts.dms.get('20'), 1);
  t.equal(counts.dms.get('20,30'), 1);
  t.equal(counts.total, 4, 'the muted channel is left out of the total');
  t.equal(counts.mentions, 1);

  unread.add(channelMessage(6, 3, 'a'), []);
  counts = unread.counts({ reader: () => false, topic: (id, topic) => id === 3 && topic.toLowerCase() === 'a' });
  t.equal(counts.topics.get(topicKey(3, 'a')), 3, 'a topic spelled two ways is one topic');
  t.equal(counts.channels.get(3), undefined, 'both spellings of a muted topic are left out of its channel');
  unread.add(channelMessage(7, 3, 'a'), ['read']);
  unread.add(directMessage(8, [20]), ['mentioned']);
  counts = unread.counts();
  t.equal(counts.channels.get(3), 3, 'a new unread message counts, a read one does not');
  t.equal(counts.mentions, 2);
  t.same(unread.unreadAmong([1, 7, 8]), [1, 8]);
  t.same(unread.nextTopic(() => false), { streamId: 3, topic: 'A' }, 'the oldest unread topic is next');
  unread.remove([1, 2, 6]);
  t.equal(unread.counts().channels.get(3), undefined, 'read: no longer counted');
  unread.move([3], 5, 'new');
  t.equal(unread.counts().topics.get(topicKey(5, 'new')), 1, 'moved messages keep their unread state');
  unread.removeAll();
  t.equal(unread.counts().total, 0);
  t.equal(documentTitle(3, '#general', 'Parley'), '(3) #general - Parley');
  t.equal(documentTitle(0, '', 'Parley'), 'Parley');
});

test('the event loop: resumes after network failures, registers again on BAD_EVENT_QUEUE_ID', async (t) => {
  const script: (ServerEvent[] | { code?: string; status?: number })[] = [
    [{ id: 0, type: 'message' }],
    { status: 0 },
    { status: 502 },
    [{ id: 0, type: 'message' }, { id: 1, type: 'heartbeat' }, { id: 2, type: 'reaction' }],
    { code: 'BAD_EVENT_QUEUE_ID', status: 400 },
    [{ id: 7, type: 'message' }],
  ];
  const polls: string[] = [];
  let registrations = 0;
  const seen: number[] = [];
  const statuses: string[] = [];
  const again: boolean[] = [];
  let queue: EventQueue;
  const transport: QueueTransport = {
    async register(): Promise<Registration> {
      registrations++;
      return { queue_id: `q${registrations}`, last_event_id: registrations === 1 ? -1 : 6 };
    },
    async poll(queueId, lastEventId) {
      polls.push(`${queueId}@${lastEventId}`);
      const next = script.shift();
      if (!next) {
        queue.stop();
        return [];
      }
      if (!Array.isArray(next)) throw next;
      return next;
    },
  };
  const sleeps: number[] = [];
  queue = new EventQueue(transport, {
    onRegistered: (_r, isAgain) => again.push(isAgain),
    onEvents: (events) => seen.push(...events.map((e) => e.id)),
    onStatus: (s) => statuses.push(s),
  }, async (ms) => void sleeps.push(ms));
  await queue.run();
  t.same(polls, ['q1@-1', 'q1@0', 'q1@0', 'q1@0', 'q1@2', 'q2@6', 'q2@7'], 'the same poll is retried after failures; a new queue after BAD_EVENT_QUEUE_ID');
  t.same(seen, [0, 2, 7], 'each event once, heartbeats not passed on');
  t.same(again, [false, true], 'the second registration is reported as such (the caller reloads)');
  t.same(sleeps, [backoff(1), backoff(2)], 'backing off between failures');
  t.same(statuses, ['connected', 'reconnecting', 'connected', 'connected']);
  t.ok(backoff(20) <= 10_000, 'backoff is bounded');

  const unauthorized = new EventQueue({ register: async () => ({ queue_id: 'x', last_event_id: -1 }), poll: async () => Promise.reject({ status: 401, code: 'UNAUTHORIZED' }) },
    { onRegistered: () => {}, onEvents: () => {}, onStatus: () => {} }, async () => {});
  const stopped = await unauthorized.run().then(() => undefined, (error: { status?: number }) => error);
  t.equal(stopped?.status, 401, 'a revoked key stops the loop (the client signs out)');
});

test('feed rows: a header per conversation run, sender lines grouped', async (t) => {
  const rows = feedRows([
    channelMessage(1, 3, 'a'), channelMessage(2, 3, 'a'), channelMessage(3, 3, 'A', { sender_id: 21 }), channelMessage(4, 3, 'b'),
    directMessage(5, [20]), { ...channelMessage(6, 3, 'b'), timestamp: 99_999 },
  ], SELF);
  t.same(rows.map((r) => (r.kind === 'header' ? 'H' : r.continued ? 'c' : 'm')), ['H', 'm', 'c', 'm', 'H', 'm', 'H', 'm', 'H', 'm']);
});

test('autocomplete: the token at the caret, ranking, insertion, quotes', async (t) => {
  t.same(tokenAt('hi @ia', 6), { kind: 'mention', query: 'ia', start: 3, end: 6 });
  t.same(tokenAt('hi @King Ha', 11), { kind: 'mention', query: 'King Ha', start: 3, end: 11 }, 'names with a space');
  t.same(tokenAt('see #gen', 8), { kind: 'channel', query: 'gen', start: 4, end: 8 });
  t.same(tokenAt('nice :ta', 8), { kind: 'emoji', query: 'ta', start: 5, end: 8 });
  t.equal(tokenAt('nice :t', 7), undefined, 'emoji need two letters (times like 10:30 stay quiet)');
  t.equal(tokenAt('mail a@b', 8), undefined, 'an @ inside a word is no mention');
  t.same(rank(['Othello', 'Iago', 'King Hamlet', 'Hamlet Jr'], 'ham', (s) => s), ['Hamlet Jr', 'King Hamlet']);
  const token = tokenAt('hi @ia', 6)!;
  t.same(applyCandidate('hi @ia', token, '@**Iago|2**'), { text: 'hi @**Iago|2** ', caret: 15 });
  t.equal(quoteReply('Iago', 2, 'hello'), '@_**Iago|2** said:\n```quote\nhello\n```\n');
  t.match(quoteReply('Iago', 2, 'a\n```\ncode\n```'), /^@_\*\*Iago\|2\*\* said:\n````quote\n/, 'a longer fence around fenced code');
});

test('gravatar: the client computes the URL the server sends without client_gravatar', async (t) => {
  // Empty, one block, exactly at the padding edges (55, 56, 64 bytes), several blocks, and non-ASCII.
  for (const text of ['', 'a', 'x'.repeat(55), 'x'.repeat(56), 'x'.repeat(64), 'y'.repeat(200), 'Cordélia-日本@example.com']) {
    t.equal(md5Hex(text), createHash('md5').update(text).digest('hex'), `md5 of ${text.length} characters`);
  }
  t.equal(gravatarUrl(' Hamlet@Example.com ', 3), serverGravatarUrl('hamlet@example.com', 3), 'trimmed, lower-cased, versioned as the server does');
});

test('the first page before the registration: names from its messages; channels from the subscription state', async (t) => {
  const page = { found_oldest: true, found_newest: true, messages: [channelMessage(1, 3, 'a', { display_recipient: 'general', sender_id: 20, sender_full_name: 'Othello' }), directMessage(2, [30])] };
  const seen = namesIn(page, { users: new Map([[40, 'Iago']]), channels: new Map() });
  t.equal(seen.channels.get(3), 'general', 'a channel message names its channel');
  t.equal(seen.users.get(20), 'Othello', 'a sender is named');
  t.equal(seen.users.get(30), 'U30', 'so is each person of a direct message conversation');
  t.equal(seen.users.get(40), 'Iago', 'names seen before are kept');

  const registration = {
    queue_id: 'q', last_event_id: -1,
    subscriptions: [{ stream_id: 1, name: 'one', description: 'd', invite_only: false, color: '#fff' }],
    unsubscribed: [{ stream_id: 2, name: 'two', description: '', invite_only: true }],
    never_subscribed: [{ stream_id: 3, name: 'three', invite_only: false }],
  };
  t.same(channelsOf(registration).map((c) => [c.stream_id, c.name, c.description]), [[1, 'one', 'd'], [2, 'two', ''], [3, 'three', '']], 'every channel the user can see');
  t.notOk(REGISTER_PARAMS.fetch_event_types.includes('stream'), 'streams are not asked for: the subscription state names every visible channel');
  t.ok(REGISTER_PARAMS.fetch_event_types.includes('subscription'));
});

test('the sidebar\'s direct message list: registered and seen conversations, newest first, kept until messages change', async (t) => {
  const registered = [{ user_ids: [21], max_message_id: 5 }, { user_ids: [], max_message_id: 7 }, { user_ids: [22, 23], max_message_id: 3 }];
  const seen = [directMessage(9, [22, 23]), directMessage(4, [21]), channelMessage(11, 1, 'not a dm')];
  t.same(recentDms(registered, seen, SELF), [[22, 23], [SELF], [21]], 'newest first; a seen message moves its conversation up; notes to self; channels left out');
  t.same(recentDms(registered, seen, SELF, 2), [[22, 23], [SELF]], 'at most the limit');

  const store = new MessageStore(SELF);
  const memo = new RecentDmsMemo();
  const first = memo.get(registered, store, SELF);
  t.same(first, [[SELF], [21], [22, 23]], 'from the registration alone');
  t.equal(memo.get(registered, store, SELF), first, 'the same list while nothing changed (not walked again)');
  store.addLive(directMessage(12, [24]), []);
  const after = memo.get(registered, store, SELF);
  t.same(after[0], [24], 'a new conversation comes first once a message arrives');
  store.flag('add', 'starred', [12]);
  t.equal(memo.get(registered, store, SELF), after, 'a flag change does not walk the messages again');
  const again = new MessageStore(SELF);
  t.same(memo.get(registered, again, SELF), first, 'a new store (after a lost queue) is read afresh');
  t.not(memo.get([], again, SELF), first, 'and so is a new registration');
});

test('versions that cached views are keyed on: unread set, topic policies, message store', async (t) => {
  const unread = new Unread(SELF);
  const other = new Unread(SELF);
  t.not(unread.id, other.id, 'each unread set is told apart');
  let v = unread.version;
  unread.add(channelMessage(1, 1, 'a'), ['read']);
  t.equal(unread.version, v, 'a message already read changes nothing');
  unread.add(channelMessage(2, 1, 'a'), []);
  t.ok(unread.version > v, 'an unread message does');
  for (const change of [() => unread.move([2], 3, 'b'), () => unread.remove([2]), () => unread.removeAll()]) {
    v = unread.version;
    change();
    t.ok(unread.version > v, 'moves and reads do');
  }
  v = unread.version;
  unread.remove([2]);
  t.equal(unread.version, v, 'reading a message already read does not (the server\'s echo of a read made here)');

  const policies = new TopicPolicies();
  v = policies.version;
  policies.set(1, 'a', VisibilityPolicy.MUTED);
  t.ok(policies.version > v, 'a topic policy set');

  const store = new MessageStore(SELF);
  v = store.version;
  store.addPage(channelNarrow(1), { messages: [channelMessage(3, 1, 'a')], found_oldest: true, found_newest: true }, 'around');
  t.ok(store.version > v, 'a fetched page');
  v = store.version;
  store.flag('add', 'read', [3]);
  t.equal(store.version, v, 'a flag does not count (no message added or removed)');
  store.remove([3]);
  t.ok(store.version > v, 'a deletion does');
});

test('feed rows keep their objects where nothing changed, for the memoised rows', async (t) => {
  const kept = new Map();
  const a = channelMessage(1, 1, 'x');
  const b = channelMessage(2, 1, 'x', { sender_id: 21 });
  const first = reuseRows(kept, feedRows([a, b], SELF));
  const again = reuseRows(kept, feedRows([a, b], SELF));
  t.equal(again.length, 3, 'a header and two messages');
  again.forEach((row, i) => t.equal(row, first[i], `row ${row.key} is the same object`));
  const starred = { ...b, flags: ['starred'] };
  const c = channelMessage(3, 1, 'x', { sender_id: 21 });
  const next = reuseRows(kept, feedRows([a, starred, c], SELF));
  t.equal(next[0], first[0], 'the header kept');
  t.equal(next[1], first[1], 'an unchanged message kept');
  t.not(next[2], first[2], 'a replaced message (a flag) is a new row');
  t.equal(next[3]!.key, 'm3', 'a new message added');
  t.ok(next[3]!.kind === 'message' && next[3].continued, 'and grouped with the one before');
  const moved = reuseRows(kept, feedRows([a, { ...starred, subject: 'y' }, c], SELF));
  t.same(moved.map((r) => r.key), ['h1', 'm1', 'h2', 'm2', 'h3', 'm3'], 'a moved message splits the run');
  t.equal(moved[1], next[1], 'the message before it kept');
  t.not(moved[5], next[3], 'the one after it is no longer grouped: a new row');
});
