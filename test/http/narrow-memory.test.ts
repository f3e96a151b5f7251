/**
 * GET /messages answered at once from memory (store/memory-walk.ts, queries/message-page.ts):
 * a topic read through history by a non-subscriber and `is:unread`, first from the store (the
 * lists are not in memory yet), then from memory, through every change of what the pages hold
 * (new messages, flags, a move, an edit, a reaction, a deletion, a channel marked read), each
 * page checked against ids and fields this test computes; after a restart, the store again.
 */
import { test } from 'tap';
import type { TestServer } from '../helpers/server.js';
import { clientFor } from '../helpers/server.js';
import { heldIds } from '../../src/store/memory-walk.js';
import { unreadCandidatesRange } from '../../src/queries/message-state.js';
import { topicKey } from '../../src/domain/topics.js';
import type { MessageRange } from '../../src/store/messages.js';
import { fetchIds, messageWorld, send } from '../helpers/messages.js';
import { HAMLET, PROSPERO } from '../helpers/demo-ids.js';

type Message = { id: number; content: string; subject: string; flags: string[]; reactions: { emoji_name: string }[] };

const newest = (ids: number[], n: number) => [...ids].sort((a, b) => a - b).slice(-n);

/** Asks until memory holds the range (lists are read in the background, one at a time, on first use). */
async function untilHeld(server: TestServer, range: () => MessageRange, ask: () => Promise<unknown>): Promise<boolean> {
  const until = Date.now() + 60_000;
  for (;;) {
    await ask();
    if (heldIds(server.services.messages, range(), { reverse: true }) !== undefined) return true;
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('GET /messages from memory: the pages the store gives, through every change', async (t) => {
  const { server, org, hamlet, iago, prospero } = await messageWorld(t);
  t.equal((await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Held' }], principals: [HAMLET, PROSPERO] })).status, 200);
  const channelId = org.channels.byName('Held')!.id;
  const unreadBefore = await fetchIds(prospero, { anchor: 'newest', num_before: 1000, num_after: 0, narrow: [['is', 'unread']] });
  const inTopic: number[] = [];
  const unread = new Set(unreadBefore);
  for (let i = 0; i < 18; i++) {
    const id = await send(hamlet, 'Held', i % 3 === 2 ? 'other' : 'held', `message ${i}`);
    if (i % 3 !== 2) inTopic.push(id);
    unread.add(id);
  }
  const topicNarrow = [{ operator: 'channel', operand: channelId }, { operator: 'topic', operand: 'held' }];
  const topicPage = async () => {
    const response = await iago.get('/messages', { narrow: topicNarrow, anchor: 'newest', num_before: 5, num_after: 0 });
    t.equal(response.status, 200);
    return response.body as { messages: Message[]; found_oldest: boolean; found_newest: boolean };
  };
  const unreadPage = async () => (await prospero.get('/messages', { narrow: [['is', 'unread']], anchor: 'newest', num_before: 5, num_after: 0 })).body as { messages: Message[] };
  const topicRange = (): MessageRange => ({ of: 'topic', channelId, topicKey: topicKey('held') });
  const unreadRange = () => unreadCandidatesRange(server.services, PROSPERO);

  const check = async (label: string) => {
    const page = await topicPage();
    t.same(page.messages.map((m) => m.id), newest(inTopic, 5), `${label}: the topic's newest five`);
    t.ok(page.messages.every((m) => m.flags.includes('historical') && m.subject === 'held'), `${label}: read through history`);
    t.match(page, { found_oldest: false, found_newest: true });
    const unreadIds = (await unreadPage()).messages.map((m) => m.id);
    t.same(unreadIds, newest([...unread], 5), `${label}: prospero's newest five unread`);
    return page;
  };

  const fromStore = await check('from the store');
  t.ok(await untilHeld(server, topicRange, () => topicPage()), "the topic's ids are held in memory");
  t.ok(await untilHeld(server, unreadRange, () => unreadPage()), "prospero's unread candidates are held in memory");
  t.same((await check('from memory')).messages, fromStore.messages, 'the same page, field by field');

  inTopic.push(await send(hamlet, 'Held', 'held', 'a new one'));
  unread.add(inTopic[inTopic.length - 1]!);
  await check('a new message');

  const readTwo = newest([...unread], 2);
  t.equal((await prospero.post('/messages/flags', { messages: readTwo, op: 'add', flag: 'read' })).status, 200);
  for (const id of readTwo) unread.delete(id);
  await check('two marked read');

  const moved = inTopic[inTopic.length - 2]!;
  t.equal((await hamlet.patch(`/messages/${moved}`, {
    topic: 'elsewhere', propagate_mode: 'change_one', send_notification_to_old_thread: false, send_notification_to_new_thread: false,
  })).status, 200);
  inTopic.splice(inTopic.indexOf(moved), 1);
  await check('one moved out of the topic');

  const edited = inTopic[inTopic.length - 1]!;
  t.equal((await hamlet.patch(`/messages/${edited}`, { content: 'edited **now**' })).status, 200);
  t.equal((await iago.post(`/messages/${edited}/reactions`, { emoji_name: 'tada' })).status, 200);
  const page = await check('edited, with a reaction');
  const shown = page.messages.find((m) => m.id === edited)!;
  t.equal(shown.content, '<p>edited <strong>now</strong></p>');
  t.same(shown.reactions.map((r) => r.emoji_name), ['tada']);

  const deleted = inTopic[inTopic.length - 3]!;
  t.equal((await iago.delete(`/messages/${deleted}`)).status, 200);
  inTopic.splice(inTopic.indexOf(deleted), 1);
  unread.delete(deleted);
  await check('one deleted');

  t.equal((await prospero.post('/mark_stream_as_read', { stream_id: channelId })).status, 200);
  unread.clear();
  for (const id of unreadBefore) unread.add(id);
  await check('the channel marked read');

  const last = await topicPage();
  const restarted = await server.restart();
  t.teardown(() => restarted.destroy());
  const again = await clientFor(restarted, 'iago@example.com').get('/messages', { narrow: topicNarrow, anchor: 'newest', num_before: 5, num_after: 0 });
  t.same(again.body.messages, last.messages, 'the same page from the store after a restart');
});
