/**
 * Black-box tests of every event type from the operation that causes it: messages, reactions, flags, subscriptions. Every subtest has its own demo organization.
 */
import { test, type Test } from 'tap';
import type { ApiResponse } from '../helpers/client.js';
import { clientFor, startTestServer } from '../helpers/server.js';
import { world, type World } from '../helpers/world.js';
import { IAGO, HAMLET, OTHELLO, CORDELIA, VERONA, DENMARK, SCOTLAND, register, take, longPoll, settledWithin, waitFor, serverQueue, sorted, ofType, badQueue, send, MESSAGE_KEYS } from '../helpers/events.js';

test('every event type from its operation', async (t) => {
  t.test('message: per-user flags, Markdown or HTML', async (t) => {
    const { hamlet, othello, cordelia } = await world(t);
    const html = await register(othello, { apply_markdown: true, event_types: ['message'] });
    const raw = await register(othello, { event_types: ['message'] });
    const sender = await register(hamlet, { event_types: ['message'] });
    const bystander = await register(cordelia, { event_types: ['message'] });
    const id = await send(hamlet, 'Denmark', 'hi @**Othello, the Moor of Venice**', 'shapes');
    const id2 = await send(hamlet, 'Denmark', 'plain *text*', 'shapes', { read_by_sender: true });
    const [event] = await take(html);
    t.same(sorted(Object.keys(event)), ['flags', 'id', 'message', 'type']);
    t.same(sorted(Object.keys(event.message)), sorted(MESSAGE_KEYS), 'the message dict has exactly Zulip keys');
    t.match(event.message, {
      id, sender_id: HAMLET, sender_email: 'hamlet@example.com', sender_full_name: 'King Hamlet', type: 'stream',
      stream_id: DENMARK, display_recipient: 'Denmark', subject: 'shapes', content_type: 'text/html',
      topic_links: [], reactions: [], submessages: [], is_me_message: false,
    });
    t.match(event.message.content, /^<p>/);
    t.same(event.flags, ['mentioned'], 'mentioned flag for the mentioned user');
    const [rawEvent, rawSecond] = await take(raw);
    t.equal(rawEvent.message.content, 'hi @**Othello, the Moor of Venice**');
    t.equal(rawEvent.message.content_type, 'text/x-markdown', 'apply_markdown false: raw Markdown');
    t.equal(rawSecond.message.content, 'plain *text*');
    const senderEvents = await take(sender);
    t.same(senderEvents.map((e) => e.flags), [[], ['read']], "the sender's own flags (read with read_by_sender)");
    t.same((await take(bystander)).map((e) => [e.message.id, e.flags]), [[id, []], [id2, []]]);

    const emptyTopic = await register(othello, { event_types: ['message'], client_capabilities: { empty_topic_name: true } });
    const general = await send(hamlet, 'Denmark', 'no topic', '');
    t.equal((await take(raw))[0].message.subject, 'general chat', 'the empty topic by its display name without empty_topic_name');
    t.same((await take(emptyTopic)).map((e) => [e.message.id, e.message.subject]), [[general, '']], 'and as "" with it');
    await take(html);

    const dmQueue = await register(othello, { event_types: ['message'] });
    const dm = await send(hamlet, [OTHELLO], 'psst');
    const [dmEvent] = await take(dmQueue);
    t.match(dmEvent.message, { id: dm, type: 'private', subject: '' });
    t.notOk('stream_id' in dmEvent.message);
    t.same(dmEvent.message.display_recipient.map((r: any) => r.id).sort(), [HAMLET, OTHELLO], 'display_recipient lists both');
    t.same(sorted(Object.keys(dmEvent.message.display_recipient[0])), ['email', 'full_name', 'id', 'is_mirror_dummy']);
    t.same(dmEvent.flags, [], 'unread, unmentioned');
  });

  t.test('update_message: content edit and topic move', async (t) => {
    const { iago, hamlet, othello } = await world(t);
    const id = await send(hamlet, 'Denmark', 'first draft', 'to move');
    const later = await send(hamlet, 'Denmark', 'second message', 'to move');
    const queue = await register(othello, { event_types: ['update_message'] });
    const edited = await hamlet.patch(`/messages/${id}`, { content: 'final text' });
    t.equal(edited.status, 200);
    const [edit] = await take(queue);
    t.same(sorted(Object.keys(edit)), sorted([
      'type', 'user_id', 'edit_timestamp', 'message_id', 'message_ids', 'rendering_only', 'flags', 'stream_name', 'stream_id',
      'orig_content', 'orig_rendered_content', 'content', 'rendered_content', 'is_me_message', 'id',
    ]));
    t.match(edit, {
      type: 'update_message', user_id: HAMLET, message_id: id, message_ids: [id], rendering_only: false, stream_name: 'Denmark',
      stream_id: DENMARK, orig_content: 'first draft', orig_rendered_content: '<p>first draft</p>', content: 'final text',
      rendered_content: '<p>final text</p>', is_me_message: false, flags: [],
    });
    const moved = await iago.patch(`/messages/${id}`, { topic: 'moved', propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: false });
    t.equal(moved.status, 200);
    const [move] = await take(queue);
    t.match(move, { type: 'update_message', user_id: IAGO, message_id: id, message_ids: [id, later], propagate_mode: 'change_all', orig_subject: 'to move', subject: 'moved', topic_links: [], stream_id: DENMARK });
    t.notOk('content' in move, 'no content keys when the content did not change');
    t.notOk('new_stream_id' in move);
  });

  t.test('delete_message: singular without bulk_message_deletion, plural with it', async (t) => {
    const { iago, hamlet, othello } = await world(t);
    const single = await register(othello, { event_types: ['delete_message'] });
    const bulk = await register(othello, { event_types: ['delete_message'], client_capabilities: { bulk_message_deletion: true } });
    const id = await send(hamlet, 'Denmark', 'doomed', 'deletions');
    const dm = await send(hamlet, [OTHELLO], 'doomed too');
    t.equal((await iago.delete(`/messages/${id}`)).status, 200);
    t.equal((await hamlet.delete(`/messages/${dm}`)).status, 200);
    const singles = await take(single);
    t.same(singles.map(({ id: _, ...rest }) => rest), [
      { type: 'delete_message', message_id: id, message_type: 'stream', stream_id: DENMARK, topic: 'deletions' },
      { type: 'delete_message', message_id: dm, message_type: 'private' },
    ]);
    const bulks = await take(bulk);
    t.same(bulks.map(({ id: _, ...rest }) => rest), [
      { type: 'delete_message', message_ids: [id], message_type: 'stream', stream_id: DENMARK, topic: 'deletions' },
      { type: 'delete_message', message_ids: [dm], message_type: 'private' },
    ]);
  });

  t.test('reaction add and remove', async (t) => {
    const { hamlet, othello } = await world(t);
    const id = await send(othello, 'Denmark', 'react', 'reactions');
    const queue = await register(othello, { event_types: ['reaction'] });
    t.equal((await hamlet.post(`/messages/${id}/reactions`, { emoji_name: 'tada' })).status, 200);
    t.equal((await hamlet.delete(`/messages/${id}/reactions`, { emoji_name: 'tada' })).status, 200);
    const events = await take(queue);
    const expected = (op: string) => ({
      type: 'reaction', op, user_id: HAMLET, user: { user_id: HAMLET, email: 'hamlet@example.com', full_name: 'King Hamlet' },
      message_id: id, emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji',
    });
    t.same(events.map(({ id: _, ...rest }) => rest), [expected('add'), expected('remove')]);
  });

  t.test('update_message_flags add and remove (message_details when unreading)', async (t) => {
    const { hamlet, othello } = await world(t);
    const inChannel = await send(hamlet, 'Denmark', 'hey @**Othello, the Moor of Venice**', 'flags');
    const dm = await send(hamlet, [OTHELLO, CORDELIA], 'group');
    const queue = await register(othello, { event_types: ['update_message_flags'] });
    const other = await register(hamlet, { event_types: ['update_message_flags'] });
    await othello.post('/messages/flags', { messages: [inChannel], op: 'add', flag: 'starred' });
    await othello.post('/messages/flags', { messages: [inChannel, dm], op: 'add', flag: 'read' });
    await othello.post('/messages/flags', { messages: [inChannel, dm], op: 'remove', flag: 'read' });
    await othello.post('/messages/flags', { messages: [inChannel], op: 'add', flag: 'starred' });
    const events = (await take(queue)).map(({ id: _, ...rest }) => rest);
    t.same(events[0], { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [inChannel], all: false });
    t.same(events[1], { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [inChannel, dm], all: false });
    t.same(events[2], {
      type: 'update_message_flags', op: 'remove', operation: 'remove', flag: 'read', messages: [inChannel, dm], all: false,
      message_details: {
        [inChannel]: { type: 'stream', stream_id: DENMARK, topic: 'flags', unmuted_stream_msg: true, mentioned: true },
        [dm]: { type: 'private', user_ids: [HAMLET, CORDELIA] },
      },
    });
    t.same(events[3], { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [], all: false }, 'sent even when nothing changed');
    t.same(await take(other), [], 'only to the user');
  });

  t.test('subscription add, peer_add, remove, peer_remove; stream create', async (t) => {
    const { hamlet, othello } = await world(t);
    const mine = await register(hamlet, { event_types: ['subscription', 'stream'] });
    const peer = await register(othello, { event_types: ['subscription', 'stream'] });
    t.equal((await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Scotland' }] })).status, 200);
    const [add] = await take(mine);
    t.equal(add.type, 'subscription');
    t.equal(add.op, 'add');
    t.equal(add.subscriptions.length, 1);
    t.match(add.subscriptions[0], { stream_id: SCOTLAND, name: 'Scotland', in_home_view: true, is_muted: false });
    t.same(add.subscriptions[0].subscribers, [HAMLET, OTHELLO, CORDELIA].sort((a, b) => a - b), 'with subscribers');
    t.same((await take(peer)).map(({ id: _, ...rest }) => rest), [{ type: 'subscription', op: 'peer_add', stream_ids: [SCOTLAND], user_ids: [HAMLET] }]);

    t.equal((await hamlet.delete('/users/me/subscriptions', { subscriptions: ['Scotland'] })).status, 200);
    const removal = (await take(mine)).map(({ id: _, ...rest }) => rest);
    t.same(removal[0], { type: 'subscription', op: 'remove', subscriptions: [{ name: 'Scotland', stream_id: SCOTLAND }] });
    t.same(removal.slice(1), [], 'no peer_remove to the user who left (Zulip sends it to the other peers only)');
    t.same((await take(peer)).map(({ id: _, ...rest }) => rest), [{ type: 'subscription', op: 'peer_remove', stream_ids: [SCOTLAND], user_ids: [HAMLET] }]);

    t.equal((await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Elsinore', description: 'castle' }] })).status, 200);
    const created = await take(peer);
    const create = created.find((e) => e.type === 'stream');
    t.ok(create, 'others learn about a new public channel');
    t.equal(create.op, 'create');
    t.match(create.streams[0], { name: 'Elsinore', description: 'castle', invite_only: false, creator_id: HAMLET, is_archived: false });
    t.notOk('color' in create.streams[0], 'the channel, not a subscription');
    const forCreator = await take(mine);
    t.same(forCreator.map((e) => [e.type, e.op]), [['stream', 'create'], ['subscription', 'add']]);
  });
});
