/**
 * Read state as reception intervals, read marks and sparse rows (docs/architecture.md, "Per-user
 * message state"): a channel send writes nothing per subscriber, yet every message keeps Zulip's
 * per-message flags through reading, marking, subscribing, moving, deleting and restarting.
 */
import { test } from 'tap';
import { createChannel, subscribeUsers } from '../../src/actions/subscriptions.js';
import type { BatchOp } from '../../src/store/database.js';
import { Transaction } from '../../src/store/transaction.js';
import { DENMARK, SCOTLAND, VERONA, messageWorld, send, flagsOf, fetchIds } from '../helpers/messages.js';
import type { World } from '../helpers/world.js';
import { register, take, ofType } from '../helpers/events.js';
import type { Api } from '../helpers/client.js';
import { clientFor } from '../helpers/server.js';

const unreadIds = (client: Api) => fetchIds(client, { anchor: 'newest', num_before: 100, num_after: 0, narrow: [{ operator: 'is', operand: 'unread' }] });
const allIds = (client: Api) => fetchIds(client, { anchor: 'newest', num_before: 100, num_after: 0, narrow: [] });

async function unreadState(client: Api) {
  const state = await client.post('/register', { fetch_event_types: ['message', 'update_message_flags'] });
  await client.delete('/events', { queue_id: state.body.queue_id });
  return state.body;
}

/** The store operations of every batch committed while `run` runs. */
async function opsDuring(w: World, run: () => Promise<unknown>): Promise<BatchOp[][]> {
  const db = w.server.services.db;
  const batches: BatchOp[][] = [];
  const commit = db.commit.bind(db);
  db.commit = (ops: readonly BatchOp[], rollback?: () => void) => {
    batches.push([...ops]);
    return commit(ops, rollback);
  };
  try {
    await run();
  } finally {
    db.commit = commit;
  }
  return batches;
}

test('read state', async (t) => {
  t.test('a channel send writes the same store operations for 10 and for 1,000 subscribers', async (t) => {
    const w = await messageWorld(t);
    const members = await w.addUsers('member', 1000);
    const services = w.server.services;
    const tx = new Transaction();
    const small = createChannel(services, tx, { name: 'small', description: '', inviteOnly: false, creatorId: null });
    const wide = createChannel(services, tx, { name: 'wide', description: '', inviteOnly: false, creatorId: null });
    subscribeUsers(services, tx, [w.org.users.get(4)!, ...members.slice(0, 9)], [small]);
    subscribeUsers(services, tx, [w.org.users.get(4)!, ...members.slice(0, 999)], [wide]);
    await services.commit(tx);
    // The first message of a channel also records it on the channel: measure the second.
    await send(w.hamlet, 'small', 'warm', 'first');
    await send(w.hamlet, 'wide', 'warm', 'first');
    const toSmall = await opsDuring(w, () => send(w.hamlet, 'small', 'measured', 'to ten'));
    const toWide = await opsDuring(w, () => send(w.hamlet, 'wide', 'measured', 'to a thousand'));
    t.equal(toSmall.length, 1, 'one batch');
    t.equal(toWide.length, 1, 'one batch');
    t.equal(toWide[0]!.length, toSmall[0]!.length, `${toSmall[0]!.length} operations either way`);
    t.ok(toWide[0]!.length <= 8, 'a handful: the record, its index entries, the topic, the counter, the sender');

    // A mention adds, for the one mentioned only, a row and its unread and mentioned index entries.
    const mention = await opsDuring(w, () => send(w.hamlet, 'wide', 'measured', `hello @**${members[5]!.fullName}**`));
    const addedKeys = mention[0]!.length - toWide[0]!.length;
    t.ok(addedKeys >= 3 && addedKeys <= 4, `${addedKeys} more: the row, its index entries (and following the topic, if the user's settings say so)`);

    // The event log entry names only those who listen, not the channel's subscribers.
    const listener = await register(clientFor(w.server, members[7]!.deliveryEmail));
    const logged = await opsDuring(w, () => send(w.hamlet, 'wide', 'measured', 'heard by one'));
    const entries = logged[0]!.filter((op) => op.type === 'put' && typeof op.value === 'object' && op.value !== null && 'event' in op.value);
    t.same(entries.map((op) => (op as { value: { userIds: number[] } }).value.userIds), [[members[7]!.id]]);
    t.equal(ofType(await take(listener), 'message').length, 1);

    // Yet every subscriber has it, unread.
    const member = w.server.services.org.users.get(members[500]!.id)!;
    const client = clientFor(w.server, member.deliveryEmail);
    const ids = await unreadIds(client);
    t.equal(ids.length, 4, "the wide channel's four messages are unread for a member");
    t.same(await flagsOf(client, ids[2]!), []);
    t.same(await flagsOf(clientFor(w.server, members[5]!.deliveryEmail), ids[2]!), ['mentioned']);
  });

  t.test('reading in order moves the read mark and leaves no exceptions; out of order keeps them exact', async (t) => {
    const w = await messageWorld(t);
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await send(w.hamlet, 'Denmark', i % 2 ? 'odd' : 'even', `m${i}`));
    const marks = w.server.services.readMarks;
    t.same(await unreadIds(w.othello), ids);

    // Out of order: the odd topic first.
    await w.othello.post('/messages/flags', { messages: [ids[1], ids[3]], op: 'add', flag: 'read' });
    t.same(await unreadIds(w.othello), [ids[0], ids[2], ids[4], ids[5]]);
    t.same([ids[1], ids[3]].map((id) => w.server.services.messages.row(5, id!)), [1, 1], 'two rows say read above the mark');
    // Reading the first lets the mark pass the read ones.
    await w.othello.post('/messages/flags', { messages: [ids[0], ids[2]], op: 'add', flag: 'read' });
    t.equal(marks.mark(5, DENMARK), ids[3], 'the mark stops below the first unread');
    t.same([ids[1], ids[3]].map((id) => w.server.services.messages.row(5, id!)), [undefined, undefined], 'the rows it passed are gone');
    t.same(await unreadIds(w.othello), [ids[4], ids[5]]);

    // Unread below the mark: an exception in the unread index.
    await w.othello.post('/messages/flags', { messages: [ids[1]], op: 'remove', flag: 'read' });
    t.same(await unreadIds(w.othello), [ids[1], ids[4], ids[5]]);
    const state = await unreadState(w.othello);
    const denmark = state.unread_msgs.streams.filter((s: { stream_id: number }) => s.stream_id === DENMARK);
    t.same(denmark.map((s: { topic: string; unread_message_ids: number[] }) => [s.topic, s.unread_message_ids]), [['even', [ids[4]]], ['odd', [ids[1], ids[5]]]]);
    // updated_count counts real changes only.
    const narrow = await w.othello.post('/messages/flags/narrow', {
      anchor: 'oldest', num_before: 0, num_after: 100, include_anchor: true, narrow: [{ operator: 'channel', operand: DENMARK }], op: 'add', flag: 'read',
    });
    t.equal(narrow.body.updated_count, 3);
    t.equal(narrow.body.processed_count, 6);
    t.same(await unreadIds(w.othello), []);
    t.equal(marks.mark(5, DENMARK), ids[5]);

    // Starring keeps a row; the read state stays with the mark.
    await w.othello.post('/messages/flags', { messages: [ids[2]], op: 'add', flag: 'starred' });
    t.same(await flagsOf(w.othello, ids[2]!), ['read', 'starred']);
    // The world's teardown deletes the directory: the restarted server stops first.
    const restarted = await w.server.restart();
    const othello = clientFor(restarted, 'othello@example.com');
    t.same(await flagsOf(othello, ids[2]!), ['read', 'starred'], 'after a restart');
    t.same(await unreadIds(othello), []);
    t.equal(restarted.services.readMarks.mark(5, DENMARK), ids[5]);
    await restarted.stop();
  });

  t.test('the sender reads on arrival without a row; mark all, channel and topic', async (t) => {
    const w = await messageWorld(t);
    const queue = await register(w.othello);
    const own = await send(w.othello, 'Denmark', 'mine', 'read by me', { read_by_sender: true });
    const [event] = ofType(await take(queue), 'message');
    t.same(event.flags, ['read'], 'the event says read for the sender');
    t.same(await unreadIds(w.othello), []);
    t.same(await flagsOf(w.cordelia, own), [], 'unread for the others');

    const a = await send(w.hamlet, 'Denmark', 'one', 'a');
    const b = await send(w.hamlet, 'Denmark', 'two', 'b');
    const c = await send(w.hamlet, 'Verona', 'three', 'c');
    await w.othello.post('/mark_topic_as_read', { stream_id: DENMARK, topic_name: 'two' });
    t.same(await unreadIds(w.othello), [a, c]);
    const events = ofType(await take(queue), 'update_message_flags');
    t.same(events.map((e) => e.messages), [[b]], 'the event lists what the topic marked');
    await w.othello.post('/mark_stream_as_read', { stream_id: DENMARK });
    t.same(ofType(await take(queue), 'update_message_flags').map((e) => e.messages), [[a]]);
    t.same(await unreadIds(w.othello), [c]);
    await w.othello.post('/mark_all_as_read', {});
    t.same(ofType(await take(queue), 'update_message_flags').map((e) => [e.all, e.messages]), [[true, []]]);
    t.same(await unreadIds(w.othello), []);

    const d = await send(w.hamlet, 'Denmark', 'one', 'd');
    t.same(await unreadIds(w.othello), [d], 'a new message after marking all is unread');
  });

  t.test('a topic read mark: marking a topic writes nothing per message, and moves keep what it said', async (t) => {
    const w = await messageWorld(t);
    const a1 = await send(w.hamlet, 'Denmark', 'alpha', 'a1');
    const b1 = await send(w.hamlet, 'Denmark', 'beta', 'b1');
    const a2 = await send(w.hamlet, 'Denmark', 'alpha', 'a2');
    const b2 = await send(w.hamlet, 'Denmark', 'beta', 'b2');
    const mine = (ids: number[]) => ids.filter((id) => [a1, b1, a2, b2].includes(id));
    const batches = await opsDuring(w, () => w.othello.post('/mark_topic_as_read', { stream_id: DENMARK, topic_name: 'ALPHA' }));
    t.equal(batches[0]!.filter((op) => op.type === 'put').length, 1, 'one write: the topic mark');
    t.same(mine(await unreadIds(w.othello)), [b1, b2]);
    t.same([a1, a2].map((id) => w.server.services.messages.row(5, id)), [undefined, undefined], 'no rows');
    await w.othello.post('/messages/flags', { messages: [a1], op: 'remove', flag: 'read' });
    t.same(mine(await unreadIds(w.othello)), [a1, b1, b2], 'unread below the topic mark: a row');
    // b1 moves into alpha, below alpha's mark: it stays unread for Othello (and for Cordelia, who has no mark).
    t.equal((await w.hamlet.patch(`/messages/${b1}`, { topic: 'alpha', propagate_mode: 'change_one' })).status, 200);
    t.same(mine(await unreadIds(w.othello)), [a1, b1, b2]);
    t.same(await flagsOf(w.cordelia, b1), []);
    const a3 = await send(w.hamlet, 'Denmark', 'alpha', 'a3');
    t.same(await flagsOf(w.othello, a3), [], 'a new message above the topic mark is unread');
    // b2 moves into alpha too, above the mark: unread either way, no row needed.
    t.equal((await w.hamlet.patch(`/messages/${b2}`, { topic: 'alpha', propagate_mode: 'change_one' })).status, 200);
    t.equal(w.server.services.messages.row(5, b2), undefined);
    const restarted = await w.server.restart();
    const othello = clientFor(restarted, 'othello@example.com');
    t.same((await unreadIds(othello)).filter((id) => [a1, b1, a2, b2, a3].includes(id)), [a1, b1, b2, a3], 'after a restart');
    await restarted.stop();
  });

  t.test('unsubscribing, resubscribing: messages sent meanwhile are historical, the rest keeps its state', async (t) => {
    const w = await messageWorld(t);
    const before = await send(w.hamlet, 'Scotland', 'away', 'before');
    const kept = await send(w.hamlet, 'Scotland', 'away', 'kept unread');
    await w.cordelia.post('/messages/flags', { messages: [before], op: 'add', flag: 'read' });
    await w.cordelia.delete('/users/me/subscriptions', { subscriptions: ['Scotland'] });
    const during = await send(w.othello, 'Scotland', 'away', 'during');
    await w.cordelia.post('/users/me/subscriptions', { subscriptions: [{ name: 'Scotland' }] });
    const after = await send(w.othello, 'Scotland', 'away', 'after');
    t.same(await flagsOf(w.cordelia, before), ['read']);
    t.same(await flagsOf(w.cordelia, kept), []);
    t.same(await flagsOf(w.cordelia, during), ['read', 'historical'], 'not received while away');
    t.same(await flagsOf(w.cordelia, after), []);
    t.same(await unreadIds(w.cordelia), [kept, after]);
    const mine = await allIds(w.cordelia);
    t.ok(mine.includes(before) && mine.includes(kept) && mine.includes(after) && !mine.includes(during), 'her messages are those she received');
    const me = await w.cordelia.get('/users/me');
    t.equal(me.body.max_message_id, after);
    await w.cordelia.delete('/users/me/subscriptions', { subscriptions: ['Scotland'] });
    await send(w.othello, 'Scotland', 'away', 'later');
    t.equal((await w.cordelia.get('/users/me')).body.max_message_id, after, 'the newest she has, from a closed interval');
    t.equal((await unreadState(w.cordelia)).max_message_id, after);
  });

  t.test('moves: within a channel nothing per user changes; between channels every holder keeps their flags', async (t) => {
    const w = await messageWorld(t);
    const a = await send(w.hamlet, 'Denmark', 'moving', 'a');
    const b = await send(w.hamlet, 'Denmark', 'moving', 'b');
    // The notices a move posts are unread too: look at these two.
    const mine = (ids: number[]) => ids.filter((id) => id === a || id === b);
    await w.othello.post('/messages/flags', { messages: [b], op: 'add', flag: 'read' });
    await w.othello.post('/messages/flags', { messages: [a], op: 'add', flag: 'starred' });
    t.equal((await w.hamlet.patch(`/messages/${a}`, { topic: 'moved', propagate_mode: 'change_all' })).status, 200);
    t.same(await flagsOf(w.othello, a), ['starred']);
    t.same(await flagsOf(w.othello, b), ['read']);
    t.same(await unreadIds(w.othello).then(mine), [a]);

    // To Scotland, where Othello and Cordelia are; Hamlet is not (he keeps the messages he had).
    t.equal((await w.iago.patch(`/messages/${a}`, { stream_id: SCOTLAND, propagate_mode: 'change_all' })).status, 200);
    t.same(await flagsOf(w.othello, a), ['starred'], 'still unread and starred');
    t.same(await flagsOf(w.othello, b), ['read']);
    t.same(await flagsOf(w.cordelia, a), [], 'cordelia had it unread in Denmark');
    t.same(await unreadIds(w.othello).then(mine), [a]);
    const record = w.server.services.messages.get(a)!;
    t.equal(record.explicit, true, 'a moved record lists its holders');
    // Marks in the new channel do not touch it: its rows are the truth.
    await w.othello.post('/mark_stream_as_read', { stream_id: SCOTLAND });
    t.same(await unreadIds(w.othello).then(mine), []);
    t.same(await flagsOf(w.othello, a), ['read', 'starred']);
    await w.othello.post('/messages/flags', { messages: [a], op: 'remove', flag: 'read' });
    t.same(await unreadIds(w.othello).then(mine), [a]);
    const restarted = await w.server.restart();
    t.same(await unreadIds(clientFor(restarted, 'othello@example.com')).then(mine), [a], 'after a restart');
    await restarted.stop();
  });

  t.test('deleting a message leaves nothing unread behind', async (t) => {
    const w = await messageWorld(t);
    const a = await send(w.hamlet, 'Denmark', 'gone', 'to delete');
    const b = await send(w.hamlet, 'Denmark', 'gone', `@**Othello, the Moor of Venice** also to delete`);
    await w.othello.post('/messages/flags', { messages: [a], op: 'add', flag: 'read' });
    await w.othello.post('/messages/flags', { messages: [a], op: 'remove', flag: 'read' });
    t.equal((await w.iago.delete(`/messages/${a}`)).status, 200);
    t.equal((await w.iago.delete(`/messages/${b}`)).status, 200);
    t.same(await unreadIds(w.othello), []);
    const state = await unreadState(w.othello);
    t.same(state.unread_msgs.streams, []);
    t.same(state.unread_msgs.mentions, []);
  });

  t.test('a private channel with protected history: only what one received while subscribed', async (t) => {
    const w = await messageWorld(t);
    const old = await send(w.iago, 'core team', 'plans', 'before hamlet');
    t.equal((await w.iago.post('/users/me/subscriptions', { subscriptions: [{ name: 'core team' }], principals: [4] })).status, 200);
    const fresh = await send(w.iago, 'core team', 'plans', 'for hamlet too');
    t.same(await allIds(w.hamlet).then((ids) => ids.filter((id) => id === old || id === fresh)), [fresh]);
    t.same(await unreadIds(w.hamlet), [fresh]);
    const topics = await w.hamlet.get('/users/me/5/topics');
    t.same(topics.body.topics.map((x: { name: string; max_id: number }) => [x.name, x.max_id]), [['plans', fresh]]);
    await w.hamlet.delete('/users/me/subscriptions', { subscriptions: ['core team'] });
    t.same(await allIds(w.hamlet).then((ids) => ids.filter((id) => id === fresh)), [], 'unsubscribed: no access, as Zulip');
    t.equal((await w.hamlet.get(`/messages/${fresh}`)).status, 400);
  });

  t.test('message events go to the subscribers who listen, with their flags', async (t) => {
    const w = await messageWorld(t);
    const othello = await register(w.othello);
    const polonius = await register(w.polonius);
    const id = await send(w.hamlet, 'Verona', 'events', 'hello @**Othello, the Moor of Venice**');
    const [event] = ofType(await take(othello), 'message');
    t.equal(event.message.id, id);
    t.same(event.flags, ['mentioned']);
    const [other] = ofType(await take(polonius), 'message');
    t.same(other.flags, []);
    t.equal(VERONA, other.message.stream_id);
  });
});
