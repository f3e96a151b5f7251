/**
 * Black-box tests of the `first_unread` anchor (GET /messages `anchor=first_unread` and
 * `use_first_unread_anchor`, POST /messages/flags/narrow): it lands on the oldest message the
 * user has NOT read, whatever was read out of order before it, and with nothing unread it is
 * Zulip's "after newest" anchor.
 */
import { test } from 'tap';
import { clientFor } from '../helpers/server.js';
import { NEWEST, VERONA, messageWorld, send } from '../helpers/messages.js';

test('first_unread skips messages already read', async (t) => {
  const { othello, hamlet, server } = await messageWorld(t);
  const narrow = [['channel', 'Verona'], ['topic', 'T']];
  const anchorOf = async (params: Record<string, unknown>) => (await othello.get('/messages', { narrow, num_before: 0, num_after: 0, ...params })).body.anchor;

  // The repro: the sender's own message, read on sending, comes first.
  await send(othello, VERONA, 'T', 'mine, read by me', { read_by_sender: true });
  const h1 = await send(hamlet, VERONA, 'T', 'one');
  const h2 = await send(hamlet, VERONA, 'T', 'two');
  const h3 = await send(hamlet, VERONA, 'T', 'three');
  t.equal(await anchorOf({ anchor: 'first_unread' }), h1, 'not the own message read on sending');

  // Read one at a time, out of order: h2 is read ahead of the read mark.
  await othello.post('/messages/flags', { messages: [h2], op: 'add', flag: 'read' });
  t.equal(await anchorOf({ anchor: 'first_unread' }), h1);
  await othello.post('/messages/flags', { messages: [h1], op: 'add', flag: 'read' });
  t.equal(await anchorOf({ anchor: 'first_unread' }), h3, 'h1 and h2 read: h3');
  t.equal(await anchorOf({ anchor: 'oldest', use_first_unread_anchor: true }), h3, 'use_first_unread_anchor agrees');
  t.equal(await anchorOf({ anchor: 'first_unread', narrow: [] }), h3, 'without a narrow too');

  // POST /messages/flags/narrow from first_unread marks from h3 on.
  const marked = await othello.post('/messages/flags/narrow', { narrow, anchor: 'first_unread', num_before: 0, num_after: 10, op: 'add', flag: 'read' });
  t.match(marked.body, { first_processed_id: h3, last_processed_id: h3, processed_count: 1, updated_count: 1 });

  // Nothing unread: the anchor is "after newest", no message is found at it, num_after is moot.
  const none = await othello.get('/messages', { narrow, anchor: 'first_unread', num_before: 2, num_after: 2 });
  t.match(none.body, { anchor: NEWEST, found_anchor: false, found_newest: true, found_oldest: false });
  t.same(none.body.messages.map((m: any) => m.id), [h2, h3]);
  const noneNarrow = await othello.post('/messages/flags/narrow', { narrow, anchor: 'first_unread', num_before: 0, num_after: 10, op: 'add', flag: 'read' });
  t.match(noneNarrow.body, { processed_count: 0, first_processed_id: null, found_newest: true });

  // A message marked unread again is found again, after a restart too.
  await othello.post('/messages/flags', { messages: [h2], op: 'remove', flag: 'read' });
  const restarted = await server.restart();
  t.teardown(() => restarted.destroy());
  const again = clientFor(restarted, 'othello@example.com');
  const after = await again.get('/messages', { narrow, anchor: 'first_unread', num_before: 0, num_after: 0 });
  t.equal(after.body.anchor, h2, 'marked unread again: h2, also after a restart');
});
