/**
 * Black-box tests of GET /messages/{id}/history, on a fresh demo organization with a fake clock.
 */
import { test } from 'tap';
import { setRealm } from '../helpers/world.js';
import { VERONA, DENMARK, messageWorld, send, message, error, invalidMessage } from '../helpers/messages.js';

test('GET /messages/{id}/history', async (t) => {
  t.test('GET /messages/{id}/history', async (t) => {
    const { server, hamlet, othello, polonius, seconds, advance } = await messageWorld(t);
    const sentAt = seconds();
    const id = await send(hamlet, 'Denmark', 'story', 'Hello world');
    const original = { topic: 'story', content: 'Hello world', rendered_content: '<p>Hello world</p>', timestamp: sentAt, user_id: 4 };
    const first = await othello.get(`/messages/${id}/history`);
    t.equal(first.status, 200);
    t.same(first.body, { result: 'success', msg: '', message_history: [original] }, 'a message never edited: only the original, with five fields');

    advance(30);
    const editedAt = seconds();
    await hamlet.patch(`/messages/${id}`, { content: 'Hello brave world' });
    advance(30);
    const movedAt = seconds();
    await othello.patch(`/messages/${id}`, { topic: 'saga', send_notification_to_new_thread: false });
    advance(30);
    const bothAt = seconds();
    await hamlet.patch(`/messages/${id}`, { content: 'Hello world', topic: '', send_notification_to_new_thread: false });
    const history = (await othello.get(`/messages/${id}/history`)).body.message_history;
    t.equal(history.length, 4);
    t.same(history[0], original, 'oldest first');
    t.same(history[1], {
      topic: 'story', content: 'Hello brave world', rendered_content: '<p>Hello brave world</p>', timestamp: editedAt, user_id: 4,
      prev_content: 'Hello world', prev_rendered_content: '<p>Hello world</p>',
      content_html_diff: '<div><p>Hello <span class="highlight_text_inserted">brave</span> world</p></div>',
    }, 'a content edit: prev_content and the diff, no prev_topic');
    t.same(history[2], {
      topic: 'saga', prev_topic: 'story', content: 'Hello brave world', rendered_content: '<p>Hello brave world</p>', timestamp: movedAt, user_id: 5,
    }, 'a topic edit by someone else: prev_topic only');
    t.same(history[3], {
      topic: 'general chat', prev_topic: 'saga', content: 'Hello world', rendered_content: '<p>Hello world</p>', timestamp: bothAt, user_id: 4,
      prev_content: 'Hello brave world', prev_rendered_content: '<p>Hello brave world</p>',
      content_html_diff: '<div><p>Hello <span class="highlight_text_deleted">brave</span> world</p></div>',
    }, 'both at once; the empty topic by its display name');
    const raw = (await othello.get(`/messages/${id}/history`, { allow_empty_topic_name: true })).body.message_history;
    t.same([raw[3].topic, raw[3].prev_topic, raw[2].topic], ['', 'saga', 'saga'], 'allow_empty_topic_name');

    const objectHistory = (await message(othello, id)).edit_history;
    t.same(objectHistory.map((e: any) => Object.keys(e).sort()), [
      ['prev_content', 'prev_rendered_content', 'prev_topic', 'timestamp', 'topic', 'user_id'],
      ['prev_topic', 'timestamp', 'topic', 'user_id'],
      ['prev_content', 'prev_rendered_content', 'timestamp', 'user_id'],
    ], 'message objects carry the stored history, newest first');

    const traveller = await send(hamlet, 'Denmark', 'travel', 'going');
    await hamlet.patch(`/messages/${traveller}`, { stream_id: VERONA, send_notification_to_new_thread: false });
    const travelled = (await hamlet.get(`/messages/${traveller}/history`)).body.message_history;
    t.same(travelled[1], { topic: 'travel', content: 'going', rendered_content: '<p>going</p>', timestamp: seconds(), user_id: 4, prev_stream: DENMARK, stream: VERONA }, 'a channel move: stream and prev_stream');

    t.same(error(await polonius.get(`/messages/${id}/history`)), invalidMessage);
    t.same(error(await othello.get('/messages/999999/history')), invalidMessage);
    await setRealm(server, { allow_edit_history: false });
    t.same(error(await othello.get(`/messages/${id}/history`)), [400, 'BAD_REQUEST', 'Message edit history is disabled in this organization']);
    const hidden = await message(othello, id);
    t.notOk('edit_history' in hidden, 'nor is it in message objects');
    t.equal(hidden.last_edit_timestamp, bothAt);
    await setRealm(server, { allow_edit_history: true });
  });
});
