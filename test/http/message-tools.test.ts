/**
 * Black-box tests of POST /messages/render, GET /messages/matches_narrow and
 * POST /messages/{message_id}/typing (typing_edit_message events, seen on other queues).
 */
import { test } from 'tap';
import { clientFor } from '../helpers/server.js';
import { HAMLET, OTHELLO, register, take } from '../helpers/events.js';
import { VERONA, error, messageWorld, send, sendDm } from '../helpers/messages.js';

test('POST /messages/render', async (t) => {
  const { hamlet, polonius } = await messageWorld(t);
  const newest = async () => (await hamlet.get('/messages', { anchor: 'newest', num_before: 1 })).body.messages.map((m: { id: number }) => m.id);
  const before = await newest();
  const rendered = await hamlet.post('/messages/render', { content: '**foo** @**Othello, the Moor of Venice**\n```py\nx = 1\n```' });
  t.equal(rendered.status, 200);
  t.same(Object.keys(rendered.body).sort(), ['msg', 'rendered', 'result']);
  t.equal(
    rendered.body.rendered,
    `<p><strong>foo</strong> <span class="user-mention" data-user-id="${OTHELLO}">@Othello, the Moor of Venice</span></p>\n` +
      '<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\n</code></pre></div>',
  );
  t.equal((await polonius.post('/messages/render', { content: 'guests too' })).body.rendered, '<p>guests too</p>');
  t.same(await newest(), before, 'nothing is stored');
  t.same(error(await hamlet.post('/messages/render', {})), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'content' argument"]);
});

test('GET /messages/matches_narrow', async (t) => {
  const { hamlet, othello, iago, server } = await messageWorld(t);
  const fox = await send(hamlet, VERONA, 'alpha', 'The quick brown fox');
  const dog = await send(hamlet, VERONA, 'beta <b>', 'a lazy dog');
  const secret = await send(iago, 'core team', 'private', 'a fox in the core team');
  const dm = await sendDm(hamlet, [OTHELLO], 'a fox in a DM');
  const check = (client: typeof hamlet, msg_ids: number[], narrow: unknown[]) => client.get('/messages/matches_narrow', { msg_ids, narrow });

  const searched = await check(othello, [fox, dog, secret, dm, 999999], [{ operator: 'search', operand: 'fox' }]);
  t.equal(searched.status, 200);
  t.same(searched.body.messages, {
    [fox]: { match_content: '<p>The quick brown <span class="highlight">fox</span></p>', match_subject: 'alpha' },
    [dm]: { match_content: '<p>a <span class="highlight">fox</span> in a DM</p>', match_subject: '' },
  }, 'only messages othello received, with the search words highlighted');
  const topic = await check(othello, [fox, dog], [{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: 'beta <b>' }]);
  t.same(topic.body.messages, { [dog]: { match_content: '<p>a lazy dog</p>', match_subject: 'beta &lt;b&gt;' } }, 'no search: content and escaped topic as they are');
  t.same((await check(iago, [secret], [{ operator: 'channel', operand: 'core team' }])).body.messages, { [secret]: { match_content: '<p>a fox in the core team</p>', match_subject: 'private' } });
  t.same((await check(othello, [dm], [{ operator: 'is', operand: 'starred' }])).body.messages, {}, 'no match');
  t.same(error(await othello.get('/messages/matches_narrow', { narrow: [] })), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'msg_ids' argument"]);
  t.same(error(await othello.get('/messages/matches_narrow', { msg_ids: [fox] })), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'narrow' argument"]);

  const restarted = await server.restart();
  t.teardown(() => restarted.destroy());
  const after = await clientFor(restarted, 'othello@example.com').get('/messages/matches_narrow', { msg_ids: [fox], narrow: [{ operator: 'search', operand: 'quick' }] });
  t.same(after.body.messages, { [fox]: { match_content: '<p>The <span class="highlight">quick</span> brown fox</p>', match_subject: 'alpha' } }, 'after a restart');
});

test('POST /messages/{message_id}/typing', async (t) => {
  const { hamlet, othello, cordelia, iago } = await messageWorld(t);
  const inChannel = await send(hamlet, VERONA, 'edit me', 'first draft');
  const direct = await sendDm(hamlet, [OTHELLO], 'a direct draft');
  const othelloQueue = await register(othello, { event_types: ['typing_edit_message'] });
  const cordeliaQueue = await register(cordelia, { event_types: ['typing_edit_message'] });
  const iagoQueue = await register(iago, { event_types: ['typing_edit_message'] });

  t.same((await hamlet.post(`/messages/${inChannel}/typing`, { op: 'start' })).body, { result: 'success', msg: '' });
  const channelEvent = { type: 'typing_edit_message', op: 'start', sender_id: HAMLET, message_id: inChannel, recipient: { type: 'channel', channel_id: VERONA, topic: 'edit me' } };
  t.same((await take(othelloQueue)).map(({ id: _, ...rest }) => rest), [channelEvent], 'a subscriber is told');
  t.same((await take(cordeliaQueue)).map(({ id: _, ...rest }) => rest), [channelEvent]);
  t.same((await take(iagoQueue)).map(({ id: _, ...rest }) => rest), [channelEvent]);

  t.equal((await hamlet.post(`/messages/${direct}/typing`, { op: 'stop' })).status, 200);
  t.same((await take(othelloQueue)).map(({ id: _, ...rest }) => rest), [
    { type: 'typing_edit_message', op: 'stop', sender_id: HAMLET, message_id: direct, recipient: { type: 'direct', user_ids: [HAMLET, OTHELLO] } },
  ]);
  t.same(await take(cordeliaQueue), [], 'not the DM to others');
  t.same(await take(iagoQueue), [], 'nor to an administrator outside it');

  t.same(error(await othello.post(`/messages/${inChannel}/typing`, { op: 'start' })), [400, 'BAD_REQUEST', "You don't have permission to edit this message"]);
  t.same(error(await cordelia.post(`/messages/${direct}/typing`, { op: 'start' })), [400, 'BAD_REQUEST', 'Invalid message(s)']);
  t.same(error(await hamlet.post(`/messages/${inChannel}/typing`, { op: 'begin' })), [400, 'BAD_REQUEST', 'Invalid op']);
  t.same(error(await hamlet.post(`/messages/${inChannel}/typing`, {})), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'op' argument"]);
  await hamlet.patch('/settings', { send_stream_typing_notifications: false });
  t.same(error(await hamlet.post(`/messages/${inChannel}/typing`, { op: 'start' })), [400, 'BAD_REQUEST', 'User has disabled typing notifications for channel messages']);
  await othello.patch('/settings', { receives_typing_notifications: false });
  t.equal((await hamlet.post(`/messages/${direct}/typing`, { op: 'start' })).status, 200);
  t.same(await take(othelloQueue), [], 'not to someone who turned typing notifications off');
  t.same(await take(cordeliaQueue), [], 'nothing left over');
});
