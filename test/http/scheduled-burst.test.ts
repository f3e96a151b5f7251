/**
 * A burst of scheduled messages due in the same second (actions/scheduled-delivery.ts): each
 * turn's items are one write, so an item whose write throws must not take the others of its turn
 * down with it, and nothing may be sent twice when a turn is undone and written again item by
 * item; the search index, held during the burst, takes the messages in once it is out.
 */
import { test } from 'tap';
import { world } from '../helpers/world.js';
import { delay, pollPause } from '../helpers/events.js';
import { DENMARK, HAMLET, OTHELLO, VERONA } from '../helpers/demo-ids.js';
import { prepareMessage, writeMessage } from '../../src/actions/message-send.js';
import { flagsOf, send } from '../helpers/messages.js';
import type { Transaction } from '../../src/store/transaction.js';

const BURST = 12;

test('a burst due at once', async (t) => {
  const w = await world(t);
  const { hamlet, server } = w;
  const { services } = server;
  const topic = 'burst';
  const due = Math.floor(Date.now() / 1000) + 2;
  const ids: number[] = [];
  for (let i = 0; i < BURST; i++) {
    const response = await hamlet.post('/scheduled_messages', { type: 'stream', to: VERONA, topic, content: `zanzibar burst ${i}`, scheduled_delivery_timestamp: due });
    t.equal(response.status, 200);
    ids.push(response.body.scheduled_message_id);
  }
  // One item's write throws (a fault injected in the store): its whole turn is undone.
  const bad = ids[Math.floor(BURST / 2)]!;
  const book = services.scheduled;
  const remove = book.delete.bind(book);
  let throwing = true;
  book.delete = (id: number, tx: Transaction) => {
    if (id === bad && throwing) throw new Error('injected fault');
    remove(id, tx);
  };
  t.teardown(() => void (book.delete = remove));

  const contents = async () => {
    const response = await hamlet.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: [{ operator: 'channel', operand: VERONA }, { operator: 'topic', operand: topic }], apply_markdown: false });
    return (response.body.messages as { content: string }[]).map((m) => m.content);
  };
  const until = Date.now() + 60_000;
  let sent = await contents();
  for (let look = 0; sent.length < BURST - 1 && Date.now() < until; look++) {
    await delay(pollPause(look));
    sent = await contents();
  }
  const others = ids.map((_, i) => `zanzibar burst ${i}`).filter((_, i) => ids[i] !== bad);
  t.same([...sent].sort(), [...others].sort(), 'every other item of the burst is sent, each once');
  t.ok(services.scheduled.get(bad) && !services.scheduled.get(bad)!.failed, 'the faulty item waits to be tried again');
  t.ok(services.scheduler.retrying >= 1, 'with backoff');

  // The fault goes away: the next try sends it, once.
  throwing = false;
  for (let look = 0; sent.length < BURST && Date.now() < until; look++) {
    await delay(pollPause(look));
    sent = await contents();
  }
  t.equal(sent.length, BURST, 'all sent');
  t.equal(new Set(sent).size, BURST, 'none twice');
  const left = await hamlet.get('/scheduled_messages');
  t.same(left.body.scheduled_messages, [], 'nothing left waiting');

  // The search index was held during the burst and takes the messages in afterwards.
  for (let look = 0; services.search.pendingIds().length > 0 && Date.now() < until; look++) await delay(pollPause(look));
  t.same(services.search.pendingIds(), [], 'the index took the burst in');
  const found = await hamlet.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: [{ operator: 'search', operand: 'zanzibar' }] });
  t.equal(found.body.messages.length, BURST, 'and search finds every message');
});

test('senders of one turn are all participants of their topic', async (t) => {
  // A turn of deliveries is one write: each message must read the topic as the one before it
  // left it, or only the last sender would be kept among the participants @**topic** reaches.
  // Two sends in one write, as a turn makes them (a real turn's size depends on the machine's speed).
  const w = await world(t);
  const { hamlet, othello, cordelia, server } = w;
  const { services } = server;
  const topic = 'together';
  const senders = [HAMLET, OTHELLO].map((id) => services.org.users.get(id)!);
  const outs = senders.map((sender) => prepareMessage(services, sender, 'test', { type: 'stream', to: DENMARK, topic, content: 'here at the same second' }));
  await services.write((tx) => outs.forEach((out) => writeMessage(services, tx, out)));
  const id = await send(cordelia, DENMARK, topic, '@**topic** listen');
  t.ok((await flagsOf(hamlet, id)).includes('topic_wildcard_mentioned'), 'the first sender participates');
  t.ok((await flagsOf(othello, id)).includes('topic_wildcard_mentioned'), 'and the second');
});
