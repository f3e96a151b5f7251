/**
 * GET /messages/{id}/read_receipts: who has read a message, from rows and read marks alike,
 * with Zulip's exclusions (the sender, users who do not share receipts, muting either way,
 * deactivated users) and
 * its errors.
 */
import { test } from 'tap';
import { setRealm } from '../helpers/world.js';
import { DENMARK, VERONA, messageWorld, send, sendDm, error, invalidMessage } from '../helpers/messages.js';
import { clientFor } from '../helpers/server.js';
import type { Api } from '../helpers/client.js';

const receipts = async (client: Api, id: number) => {
  const response = await client.get(`/messages/${id}/read_receipts`);
  if (response.status !== 200) throw new Error(`read_receipts: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.user_ids as number[];
};

test('read receipts', async (t) => {
  t.test('channel messages: rows and read marks, never the sender', async (t) => {
    const { hamlet, othello, cordelia, iago, desdemona } = await messageWorld(t);
    const first = await send(hamlet, 'Denmark', 'plans', 'first');
    const second = await send(hamlet, 'Denmark', 'plans', 'second');
    t.same(await receipts(othello, first), [], 'nobody has read it (the sender is never listed)');

    await othello.post('/messages/flags', { messages: [second], op: 'add', flag: 'read' });
    t.same(await receipts(hamlet, second), [5], 'read out of order: a row');
    t.same(await receipts(hamlet, first), [], 'the earlier one is still unread for othello');

    await cordelia.post('/mark_stream_as_read', { stream_id: DENMARK });
    t.same(await receipts(hamlet, first), [6], 'read by moving the read mark');
    t.same(await receipts(hamlet, second), [5, 6], 'both ways together, in id order');

    await iago.post('/mark_topic_as_read', { stream_id: DENMARK, topic_name: 'plans' });
    t.same(await receipts(hamlet, first), [2, 6], 'a topic mark counts');

    await othello.post('/messages/flags', { messages: [second], op: 'remove', flag: 'read' });
    t.same(await receipts(hamlet, second), [2, 6], 'marked unread again: no longer listed');

    await cordelia.delete('/users/me/subscriptions', { subscriptions: ['Denmark'] });
    t.same(await receipts(hamlet, first), [2, 6], 'unsubscribing does not unread what was read');

    const later = await send(hamlet, 'Denmark', 'plans', 'after cordelia left');
    await cordelia.post('/mark_all_as_read');
    t.same(await receipts(hamlet, later), [], 'a message sent after leaving is not hers to read');

    const moved = await send(hamlet, 'Denmark', 'plans', 'travelling');
    await desdemona.post('/messages/flags', { messages: [moved], op: 'add', flag: 'read' });
    await othello.post('/mark_stream_as_read', { stream_id: DENMARK });
    await hamlet.patch(`/messages/${moved}`, { stream_id: VERONA, send_notification_to_new_thread: false, send_notification_to_old_thread: false });
    const afterMove = await receipts(hamlet, moved);
    t.ok(afterMove.includes(1) && afterMove.includes(5), 'after a move between channels the readers are kept (rows of the holders)');
    t.notOk(afterMove.includes(4), 'still not the sender');
  });

  t.test('direct messages, settings, deactivated users, errors', async (t) => {
    const { server, hamlet, othello, cordelia, polonius, iago } = await messageWorld(t);
    const dm = await sendDm(hamlet, [5, 6], 'a word in private');
    t.same(await receipts(hamlet, dm), []);
    await othello.post('/messages/flags', { messages: [dm], op: 'add', flag: 'read' });
    await cordelia.post('/messages/flags', { messages: [dm], op: 'add', flag: 'read' });
    t.same(await receipts(hamlet, dm), [5, 6], 'participants who read it');
    t.same(await receipts(othello, dm), [5, 6], 'a reader sees themself');

    t.equal((await cordelia.patch('/settings', { send_read_receipts: false })).status, 200);
    t.same(await receipts(hamlet, dm), [5], 'a user who does not share read receipts is left out');
    t.equal((await cordelia.patch('/settings', { send_read_receipts: true })).status, 200);

    t.equal((await othello.post('/users/me/muted_users/4')).status, 200);
    t.same(await receipts(hamlet, dm), [6], 'someone who muted the asker is left out (muting would show)');
    t.same(await receipts(cordelia, dm), [5, 6], 'for others they are still listed');
    t.equal((await othello.delete('/users/me/muted_users/4')).status, 200);
    t.equal((await hamlet.post('/users/me/muted_users/6')).status, 200);
    t.same(await receipts(hamlet, dm), [5], 'someone the asker muted is left out');
    t.equal((await hamlet.delete('/users/me/muted_users/6')).status, 200);

    t.equal((await iago.delete('/users/5')).status, 200);
    t.same(await receipts(hamlet, dm), [6], 'deactivated users are left out');

    const channelMessage = await send(hamlet, 'Denmark', 'secret', 'not for guests');
    t.same(error(await polonius.get(`/messages/${channelMessage}/read_receipts`)), invalidMessage, 'a message one may not see');
    t.same(error(await hamlet.get('/messages/999999/read_receipts')), invalidMessage, 'an unknown message');
    await setRealm(server, { enable_read_receipts: false });
    t.same(error(await hamlet.get(`/messages/${dm}/read_receipts`)), [400, 'BAD_REQUEST', 'Read receipts are disabled in this organization.']);
    t.same(error(await polonius.get(`/messages/${channelMessage}/read_receipts`)), invalidMessage, 'access is checked first');
    const registered = await hamlet.post('/register', { fetch_event_types: ['realm'] });
    t.equal(registered.body.realm_enable_read_receipts, false, 'register reports the setting');
  });

  t.test('receipts after a restart', async (t) => {
    const w = await messageWorld(t);
    const id = await send(w.hamlet, 'Denmark', 'kept', 'remember me');
    await w.othello.post('/messages/flags', { messages: [id], op: 'add', flag: 'read' });
    await w.cordelia.post('/mark_stream_as_read', { stream_id: DENMARK });
    const restarted = await w.server.restart();
    t.teardown(() => restarted.destroy());
    t.same(await receipts(clientFor(restarted, 'hamlet@example.com'), id), [5, 6], 'a row and a read mark, both read back');
  });
});
