/** The web client's state logic for its views beside the feed, without a browser: muted topics, the Inbox, Recent conversations, the message cursor, drafts and scheduled messages, page addresses; what each change re-renders, read flags that change nothing, when a switch shows its narrow. */
import { test } from 'tap';
import { initialCursor, moveCursor } from '../../web/src/state/cursor.js';
import { applyDraftsEvent, applyScheduledEvent, destinationOf, localInputValue, type Draft, type ScheduledMessage } from '../../web/src/state/drafts.js';
import { inbox, type InboxContext } from '../../web/src/state/inbox.js';
import { MessageStore } from '../../web/src/state/messages.js';
import { channelNarrow, HOME, matches, narrowFromPath, narrowPath, parseSearch } from '../../web/src/state/narrow.js';
import { pageFromHash, pageFromPath } from '../../web/src/state/pages.js';
import { recentConversations } from '../../web/src/state/recent.js';
import { mutePolicy, TopicPolicies, VisibilityPolicy } from '../../web/src/state/topic-policy.js';
import type { Message } from '../../web/src/state/types.js';
import { Unread, topicKey } from '../../web/src/state/unread.js';
import { NarrowSwitch } from '../../web/src/state/narrow-switch.js';
import { bump, newVersions, SCOPES, scopesOf } from '../../web/src/app/change-scope.js';
import { effect } from '@preact/signals';

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

test('topic policies: muted, unmuted in a muted channel, followed; the policy a mute button sets', async (t) => {
  const policies = new TopicPolicies([
    { stream_id: 3, topic_name: 'Noise', visibility_policy: VisibilityPolicy.MUTED },
    { stream_id: 4, topic_name: 'signal', visibility_policy: VisibilityPolicy.UNMUTED },
  ]);
  t.equal(policies.muted(3, 'noise', false), true, 'a muted topic, whatever its case');
  t.equal(policies.muted(3, 'other', false), false);
  t.equal(policies.muted(4, 'anything', true), true, 'a muted channel mutes its topics');
  t.equal(policies.muted(4, 'Signal', true), false, 'unless the topic is unmuted');
  policies.set(4, 'news', VisibilityPolicy.FOLLOWED);
  t.equal(policies.followed(4, 'news'), true);
  t.equal(policies.muted(4, 'news', true), false, 'a followed topic is not muted by its channel');
  policies.set(3, 'noise', VisibilityPolicy.INHERIT);
  t.equal(policies.policy(3, 'Noise'), VisibilityPolicy.INHERIT, 'INHERIT forgets the policy');
  t.equal(mutePolicy(false, true), VisibilityPolicy.MUTED);
  t.equal(mutePolicy(false, false), VisibilityPolicy.INHERIT);
  t.equal(mutePolicy(true, false), VisibilityPolicy.UNMUTED, 'in a muted channel unmuting is explicit');
  t.equal(mutePolicy(true, true), VisibilityPolicy.INHERIT);
});

test('the combined feed (in:home) leaves muted topics out, live too; a change of muting forgets it', async (t) => {
  const muted = new Set([topicKey(3, 'noise')]);
  const isMuted = (m: Message) => m.type === 'stream' && muted.has(topicKey(m.stream_id!, m.subject));
  t.equal(narrowPath(HOME), '/', 'the combined feed is at /');
  t.same(narrowFromPath('/'), HOME);
  t.same(parseSearch('in:home'), HOME, 'in: is a search operator');
  t.equal(matches(HOME, channelMessage(1, 3, 'Noise'), SELF, isMuted), false);
  t.equal(matches(HOME, channelMessage(1, 3, 'quiet'), SELF, isMuted), true);
  t.equal(matches(HOME, directMessage(2, [20]), SELF, isMuted), true, 'direct messages are never muted');
  t.equal(matches(HOME, channelMessage(1, 3, 'Noise'), SELF), undefined, 'without the mute state only the server can say');
  t.equal(matches([{ operator: 'in', operand: 'all' }], channelMessage(1, 3, 'Noise'), SELF, isMuted), true);

  const store = new MessageStore(SELF, isMuted);
  const home = store.addPage(HOME, { messages: [channelMessage(5, 3, 'quiet')], found_oldest: true, found_newest: true }, 'around');
  const all = store.addPage([], { messages: [channelMessage(5, 3, 'quiet')], found_oldest: true, found_newest: true }, 'around');
  store.addLive(channelMessage(6, 3, 'noise'), []);
  store.addLive(channelMessage(7, 3, 'quiet'), []);
  t.same(home.ids, [5, 7], 'a new message in a muted topic stays out of the combined feed');
  t.same(all.ids, [5, 6, 7], 'and is in the list of every message');
  store.forgetMuteDependent();
  t.equal(store.list(HOME), undefined, 'muting changed: the combined feed is fetched again');
  t.ok(store.list([]), 'lists that do not depend on muting stay');
});

test('unread counts and the n key leave muted topics out', async (t) => {
  const unread = new Unread(SELF, {
    streams: [
      { stream_id: 3, topic: 'noise', unread_message_ids: [1, 2] },
      { stream_id: 3, topic: 'plans', unread_message_ids: [5] },
      { stream_id: 4, topic: 'later', unread_message_ids: [3] },
    ],
    pms: [{ other_user_id: 20, unread_message_ids: [4] }],
    huddles: [],
    mentions: [5],
  });
  const mutedTopic = (s: number, topic: string) => s === 3 && topic === 'noise';
  const counts = unread.counts({ reader: mutedTopic, topic: mutedTopic });
  t.equal(counts.total, 3, 'the muted topic\'s two messages are left out of the total');
  t.equal(counts.channels.get(3), 1, 'and out of its channel\'s count');
  t.equal(counts.topics.get(topicKey(3, 'noise')), 2, 'the topic itself keeps its count (shown dimmed)');
  t.same(unread.nextTopic(mutedTopic), { streamId: 4, topic: 'later' }, 'the oldest unread topic that is not muted');
  t.same(unread.nextTopic(mutedTopic, { streamId: 4, topic: 'LATER' }), { streamId: 3, topic: 'plans' }, 'the topic being read is skipped');

  const conversations = unread.conversations();
  const plans = conversations.find((c) => c.kind === 'channel' && c.topic === 'plans');
  t.same(plans, { kind: 'channel', streamId: 3, topic: 'plans', count: 1, newestId: 5, mentioned: true });
  t.ok(conversations.some((c) => c.kind === 'dm' && c.key === '20' && c.count === 1));
});

test('the Inbox: direct messages first, channels in sidebar order, topics newest first, muted left out, a filter', async (t) => {
  const unread = new Unread(SELF, {
    streams: [
      { stream_id: 3, topic: 'old', unread_message_ids: [1] },
      { stream_id: 3, topic: 'new', unread_message_ids: [2, 9] },
      { stream_id: 3, topic: 'noise', unread_message_ids: [8] },
      { stream_id: 4, topic: 'x', unread_message_ids: [3] },
      { stream_id: 5, topic: 'pinned topic', unread_message_ids: [4] },
    ],
    pms: [{ other_user_id: 20, unread_message_ids: [6] }, { other_user_id: 21, unread_message_ids: [7] }],
    huddles: [],
    mentions: [],
  });
  const names: Record<number, string> = { 3: 'beta', 4: 'alpha', 5: 'zeta' };
  const context: InboxContext = {
    channelName: (id) => names[id]!,
    pinned: (id) => id === 5,
    topicMuted: (_s, topic) => topic === 'noise',
    dmName: (ids) => ids.map((id) => `U${id}`).join(', '),
  };
  const box = inbox(unread.conversations(), context);
  t.same(box.dms.map((d) => d.name), ['U21', 'U20'], 'conversations newest first');
  t.same(box.channels.map((c) => c.name), ['zeta', 'alpha', 'beta'], 'pinned first, then by name');
  const beta = box.channels[2]!;
  t.same(beta.topics.map((x) => [x.topic, x.count]), [['new', 2], ['old', 1]], 'newest topic first; the muted topic left out');
  t.equal(beta.count, 3);
  const filtered = inbox(unread.conversations(), context, 'NEW');
  t.same(filtered.channels.map((c) => c.topics.map((x) => x.topic)), [['new']], 'the filter matches topics (any case)');
  t.same(filtered.dms, []);
  t.same(inbox(unread.conversations(), context, 'u20').dms.map((d) => d.name), ['U20'], 'and people');
});

test('Recent conversations: newest first, people, participated and unread filters, muted left out', async (t) => {
  const messages = [
    channelMessage(1, 3, 'a', { sender_id: SELF }),
    channelMessage(2, 3, 'a', { sender_id: 21 }),
    channelMessage(3, 3, 'b'),
    channelMessage(4, 3, 'noise'),
    directMessage(5, [20]),
    channelMessage(6, 3, 'A', { sender_id: 22 }),
  ];
  const context = {
    selfId: SELF,
    unreadCount: (c: { type: string; topic?: string }) => (c.type === 'channel' && c.topic === 'b' ? 1 : 0),
    topicMuted: (_s: number, topic: string) => topic === 'noise',
  };
  const rows = recentConversations(messages, [{ user_ids: [30], max_message_id: 50 }], context);
  t.same(rows.map((r) => r.newestId), [50, 6, 5, 3], 'newest first; one row per topic whatever its case; muted left out');
  const a = rows.find((r) => r.newestId === 6)!;
  t.same(a.senders, [22, 21, SELF], 'people, the most recent first');
  t.equal(a.participated, true);
  t.equal(a.timestamp, 1006);
  t.equal(rows[0]!.timestamp, undefined, 'a conversation known only from register has no time yet');
  t.same(recentConversations(messages, [], context, { participated: true }).map((r) => r.newestId), [6, 5], 'participated: sent to, and direct messages');
  t.same(recentConversations(messages, [], context, { unread: true }).map((r) => r.newestId), [3]);
  t.same(recentConversations(messages, [], context, { includeMuted: true }).map((r) => r.newestId), [6, 5, 4, 3]);
  const echo = { ...channelMessage(7, 3, 'c'), id: 7.001 };
  t.same(recentConversations([...messages, echo], [], context).map((r) => r.newestId)[0], 6, 'a local echo is not a conversation yet');
});

test('the message cursor: starts at the first unread or the newest, moves and stops at the ends, skips echoes', async (t) => {
  const ids = [3, 5, 8, 8.001];
  t.equal(initialCursor(ids, (id) => id === 5 || id === 8), 5, 'the first unread');
  t.equal(initialCursor(ids, () => false), 8, 'else the newest server message');
  t.equal(moveCursor(ids, undefined, 1), 8, 'a first key press selects where the cursor starts');
  t.equal(moveCursor(ids, 5, 1), 8);
  t.equal(moveCursor(ids, 8, 1), 8, 'stops at the newest (an echo is not selectable)');
  t.equal(moveCursor(ids, 3, -1), 3, 'stops at the oldest');
  t.equal(moveCursor(ids, 4, 1), 5, 'from a message no longer in the view: the next one');
  t.equal(moveCursor(ids, 4, -1), 3, 'or the one before');
  t.equal(moveCursor([], 4, 1), undefined);
});

test('drafts and scheduled messages: events keep the lists, destinations, the time field', async (t) => {
  const draft = (id: number, timestamp: number): Draft => ({ id, type: 'stream', to: [3], topic: 't', content: `d${id}`, timestamp });
  let drafts = applyDraftsEvent([draft(1, 100)], { op: 'add', drafts: [draft(2, 200)] });
  t.same(drafts.map((d) => d.id), [2, 1], 'newest edit first');
  drafts = applyDraftsEvent(drafts, { op: 'update', draft: { ...draft(1, 300), content: 'changed' } });
  t.same(drafts.map((d) => [d.id, d.content]), [[1, 'changed'], [2, 'd2']]);
  drafts = applyDraftsEvent(drafts, { op: 'remove', draft_id: 2 });
  t.same(drafts.map((d) => d.id), [1]);
  t.same(applyDraftsEvent(drafts, { op: 'add', drafts: [draft(1, 300)] }).length, 1, 'an add repeated is not a second draft');

  const scheduled = (id: number, at: number): ScheduledMessage => ({
    scheduled_message_id: id, type: 'private', to: [20], content: 'x', rendered_content: '<p>x</p>', scheduled_delivery_timestamp: at, failed: false,
  });
  let list = applyScheduledEvent([scheduled(1, 500)], { op: 'add', scheduled_messages: [scheduled(2, 400)] });
  t.same(list.map((s) => s.scheduled_message_id), [2, 1], 'soonest first');
  list = applyScheduledEvent(list, { op: 'update', scheduled_message: { ...scheduled(2, 900), content: 'later' } });
  t.same(list.map((s) => [s.scheduled_message_id, s.content]), [[1, 'x'], [2, 'later']], 'an update can change the order');
  list = applyScheduledEvent(list, { op: 'remove', scheduled_message_id: 1 });
  t.same(list.map((s) => s.scheduled_message_id), [2]);

  t.same(destinationOf({ type: 'stream', to: 3, topic: 'plans' }, SELF), { type: 'channel', streamId: 3, topic: 'plans' });
  t.same(destinationOf({ type: 'private', to: [SELF, 21, 20] }, SELF), { type: 'dm', userIds: [20, 21] });
  t.same(destinationOf({ type: 'private', to: [SELF] }, SELF), { type: 'dm', userIds: [SELF] }, 'a note to self');
  t.equal(destinationOf({ type: '', to: [] }, SELF), undefined, 'a draft without a destination');

  const at = new Date(2030, 0, 2, 3, 4, 59);
  t.equal(localInputValue(at.getTime() / 1000), '2030-01-02T03:04', 'the field shows the reader\'s zone, to the minute');
  t.equal(new Date(localInputValue(at.getTime() / 1000)).getTime(), new Date(2030, 0, 2, 3, 4).getTime(), 'and reads back');
});

test('page addresses: paths and Zulip\'s hashes', async (t) => {
  t.equal(pageFromPath('/inbox'), 'inbox');
  t.equal(pageFromPath('/recent/'), 'recent');
  t.equal(pageFromPath('/channel/3'), undefined);
  t.equal(pageFromHash('#inbox'), 'inbox');
  t.equal(pageFromHash('#recent_topics'), 'recent', 'Zulip\'s older name');
  t.equal(pageFromHash('#scheduled'), 'scheduled');
  t.equal(pageFromHash('#settings/profile'), 'settings');
  t.equal(pageFromHash('#narrow/channel/3'), undefined, 'not a page');
  t.equal(pageFromHash(''), undefined);
  t.equal(narrowFromPath('/inbox'), undefined, 'a page is not a narrow');
});

test('change scopes: each event moves only the versions of what it changes, once per batch', async (t) => {
  t.same([...scopesOf({ type: 'presence' })], ['presence'], 'presence: only the people list');
  t.same([...scopesOf({ type: 'typing' })], ['typing'], 'typing: only the typing line');
  t.ok(scopesOf({ type: 'message' }).includes('typing'), 'a message ends its sender\'s typing');
  t.same([...scopesOf({ type: 'update_message_flags', flag: 'read' })], ['feed', 'unread'], 'a read mark: the rows and the counts');
  t.same([...scopesOf({ type: 'update_message_flags', flag: 'starred' })], ['feed'], 'a star: the rows only');
  t.same([...scopesOf({ type: 'subscription', op: 'peer_add' })], [], 'who is subscribed is not shown');
  t.ok(scopesOf({ type: 'subscription', op: 'update' }).includes('unread'), 'muting a channel changes the counts');
  t.same([...scopesOf({ type: 'drafts' })], ['drafts']);
  t.same([...scopesOf({ type: 'something_new' })], [...SCOPES], 'an unknown event may change anything');
  for (const type of ['message', 'update_message', 'delete_message']) t.ok(scopesOf({ type }).includes('feed') && scopesOf({ type }).includes('unread'), `${type}: the feed and the counts`);
  t.notOk(scopesOf({ type: 'message' }).includes('people') || scopesOf({ type: 'message' }).includes('presence'), 'a message does not re-render the people list');

  const versions = newVersions();
  const seen: string[] = [];
  const stop = effect(() => void seen.push(`feed ${versions.feed.value} unread ${versions.unread.value} people ${versions.people.value}`));
  bump(versions, ['feed', 'unread', 'feed']);
  bump(versions, []);
  stop();
  t.same(seen, ['feed 0 unread 0 people 0', 'feed 1 unread 1 people 0'], 'one notification per batch, each version once, others untouched');
});

test('flags say whether they changed anything: the server\'s echo of a read mark made here changes nothing', async (t) => {
  const store = new MessageStore(SELF);
  store.addPage(channelNarrow(1), { messages: [channelMessage(3, 1, 'a'), channelMessage(4, 1, 'a')], found_oldest: true, found_newest: true }, 'around');
  const unread = new Unread(SELF);
  unread.add(channelMessage(3, 1, 'a'), []);
  unread.add(channelMessage(4, 1, 'a'), []);
  t.equal(store.flag('add', 'read', [3, 4]), 2, 'two messages marked read');
  t.equal(unread.remove([3, 4]), 2, 'two fewer unread');
  t.equal(store.flag('add', 'read', [3, 4]), 0, 'the echo: no message changed');
  t.equal(unread.remove([3, 4]), 0, 'and no count');
  t.equal(store.flag('add', 'read', [99]), 0, 'a message not loaded');
  t.equal(store.flag('remove', 'read', [3]), 1, 'marked unread again');
  t.equal(store.flag('add', 'starred', [], true), 2, 'all messages starred');
});

test('a switch shows its narrow with its first page, or after a while without it; the last one asked wins', async (t) => {
  let now = 0;
  let timers: { at: number; work: () => void; id: number }[] = [];
  let ids = 0;
  const clock = {
    setTimeout: (work: () => void, ms: number) => (timers.push({ at: now + ms, work, id: ++ids }), ids),
    clearTimeout: (id: unknown) => void (timers = timers.filter((x) => x.id !== id)),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const due of timers.filter((x) => x.at <= now)) (timers = timers.filter((x) => x !== due), due.work());
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const shown: string[] = [];
  const then: string[] = [];
  const switcher = new NarrowSwitch<string>((n) => shown.push(n), 100, clock);

  switcher.go('loaded', undefined, () => then.push('loaded'));
  t.same(shown, ['loaded'], 'a narrow already loaded is shown at once');
  t.same(then, ['loaded'], 'with what goes with it');
  t.equal(switcher.waiting, undefined, 'nothing waits');

  let arrive!: () => void;
  switcher.go('fetched', new Promise<void>((resolve) => (arrive = resolve)), () => then.push('fetched'));
  advance(50);
  await settle();
  t.same(shown, ['loaded'], 'nothing changes while its page is on its way');
  t.equal(switcher.waiting, 'fetched', 'the narrow waiting for its page');
  arrive();
  await settle();
  t.same(shown, ['loaded', 'fetched'], 'shown when its page is here');
  advance(100);
  t.same(shown, ['loaded', 'fetched'], 'and not again when the wait ends');

  switcher.go('slow', new Promise<void>(() => {}));
  advance(99);
  t.same(shown.length, 2);
  advance(1);
  t.same(shown, ['loaded', 'fetched', 'slow'], 'a slow page: the narrow is shown after the wait, without it');

  let failA!: (e: Error) => void;
  let arriveB!: () => void;
  switcher.go('a', new Promise<void>((_, reject) => (failA = reject)));
  switcher.go('b', new Promise<void>((resolve) => (arriveB = resolve)));
  failA(new Error('gone'));
  await settle();
  advance(100);
  t.same(shown.slice(3), ['b'], 'a switch asked meanwhile wins: the first is never shown (its wait ended with the second\'s)');
  arriveB();
  await settle();
  t.same(shown.slice(3), ['b'], 'shown once');
  switcher.go('c', Promise.reject(new Error('refused')));
  await settle();
  t.same(shown.slice(4), ['c'], 'a failed page still shows its narrow (with the error)');
});
