/**
 * Black-box tests of widgets: `/poll` and `/todo` messages carry their widget submessage (in
 * GET /messages and in message events), POST /submessage adds votes, options and tasks as
 * Zulip checks them, `submessage` events reach the message's other readers, a bot's zform
 * `widget_content`, widgets cannot be edited, and everything survives a restart.
 */
import { test } from 'tap';
import { clientFor } from '../helpers/server.js';
import { HAMLET, OTHELLO, register, take } from '../helpers/events.js';
import { VERONA, error, message, messageWorld, send, sendDm } from '../helpers/messages.js';

const submit = (client: any, messageId: number, data: unknown, msgType = 'widget') =>
  client.post('/submessage', { message_id: messageId, msg_type: msgType, content: typeof data === 'string' ? data : JSON.stringify(data) });

test('polls: the widget, votes and options, events, refusals, a restart', async (t) => {
  const { hamlet, othello, cordelia, server } = await messageWorld(t);
  const othelloQueue = await register(othello, { event_types: ['message', 'submessage'] });
  const poll = await send(hamlet, VERONA, 'lunch', '/poll What shall we eat?\n- Pizza\n* Salad\n\nSoup');
  const widget = {
    msg_type: 'widget',
    content: '{"widget_type": "poll", "extra_data": {"question": "What shall we eat?", "options": ["Pizza", "Salad", "Soup"]}}',
    message_id: poll,
    sender_id: HAMLET,
  };
  const fetched = await message(othello, poll);
  t.match(fetched.submessages, [widget]);
  t.type(fetched.submessages[0].id, 'number');
  t.ok(fetched.content.startsWith('<p>/poll What shall we eat?</p>'), 'the content renders as Markdown, as in Zulip');
  const [messageEvent] = await take(othelloQueue);
  t.same(messageEvent.message.submessages, fetched.submessages, 'the message event carries the widget');

  await othello.patch('/settings', { automatically_follow_topics_policy: 1 });
  const vote = { type: 'vote', key: 'canned,1', vote: 1 };
  t.same((await submit(othello, poll, vote)).body, { result: 'success', msg: '' });
  const [voted] = await take(othelloQueue);
  t.match(voted, { type: 'submessage', msg_type: 'widget', message_id: poll, sender_id: OTHELLO, content: JSON.stringify(vote) });
  t.type(voted.submessage_id, 'number');
  const cordeliaQueue = await register(cordelia, { event_types: ['submessage'] });
  t.equal((await submit(cordelia, poll, { type: 'new_option', option: 'Tea', idx: 1 })).status, 200);
  t.same((await take(cordeliaQueue)).map((e) => e.sender_id), [6], 'other readers are told');
  const after = await message(hamlet, poll);
  t.same(after.submessages.map((s: any) => [s.sender_id, s.content]), [
    [HAMLET, widget.content], [OTHELLO, JSON.stringify(vote)], [6, '{"type":"new_option","option":"Tea","idx":1}'],
  ], 'stored as sent, oldest first');
  const topics = (await othello.post('/register', { fetch_event_types: ['user_topic'] })).body.user_topics;
  t.match(topics, [{ stream_id: VERONA, topic_name: 'lunch', visibility_policy: 3 }], 'taking part follows the topic, per the setting');

  const refusals: [unknown, string][] = [
    [{ type: 'question', question: 'Breakfast?' }, "You can't edit a question unless you are the author."],
    [{ type: 'vote', key: 'canned,1', vote: 2 }, 'Invalid poll data["vote"]'],
    [{ type: 'vote', key: 'canned,1', vote: 1, extra: true }, 'Unexpected arguments: extra'],
    [{ type: 'vote', key: 7, vote: 1 }, 'poll data["key"] is not a string'],
    [{ type: 'new_option', option: 'Tea', idx: 1001 }, 'poll data["idx"] is too large'],
    [{ type: 'dance' }, 'Unknown type for poll data: dance'],
    [{ question: 'no type' }, 'type key is missing from poll data'],
    [[1, 2], 'poll data is not a dict'],
    ['not json', 'Invalid json for submessage'],
  ];
  for (const [data, msg] of refusals) t.same(error(await submit(othello, poll, data)), [400, 'BAD_REQUEST', msg], msg);
  t.equal((await submit(hamlet, poll, { type: 'question', question: 'Dinner?' })).status, 200, 'the author may change the question');
  t.same(error(await hamlet.patch(`/messages/${poll}`, { content: '/poll Changed' })), [400, 'BAD_REQUEST', 'Widgets cannot be edited.']);
  t.equal((await hamlet.patch(`/messages/${poll}`, { topic: 'lunch plans' })).status, 200, 'moving it is fine');

  const plain = await send(hamlet, VERONA, 'lunch', 'no widget here');
  t.same(error(await submit(othello, plain, vote)), [400, 'BAD_REQUEST', 'You cannot attach a submessage to this message.']);
  t.equal((await submit(hamlet, plain, { anything: 'goes' }, 'other')).status, 200, 'no widget: the sender may attach anything');
  t.equal((await submit(othello, plain, { anything: 'else' })).status, 200, 'then its readers too');
  const dm = await sendDm(hamlet, [OTHELLO], '/poll Secret?');
  t.same(error(await submit(cordelia, dm, vote)), [400, 'BAD_REQUEST', 'Invalid message(s)']);
  t.same(error(await othello.post('/submessage', { message_id: poll, msg_type: 'widget' })), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'content' argument"]);

  const restarted = await server.restart();
  t.teardown(() => restarted.destroy());
  const again = await message(clientFor(restarted, 'othello@example.com'), poll);
  t.same(again.submessages, (await message(clientFor(restarted, 'hamlet@example.com'), poll)).submessages);
  t.equal(again.submessages.length, 4, 'kept across a restart');
});

test('todo lists and a bot\'s zform', async (t) => {
  const { hamlet, othello } = await messageWorld(t);
  const todo = await send(hamlet, VERONA, 'chores', '/todo Groceries\nMilk: 2 litres\n- Eggs\n* Bread:  wholemeal ');
  t.equal((await message(othello, todo)).submessages[0].content,
    '{"widget_type": "todo", "extra_data": {"task_list_title": "Groceries", "tasks": [{"task": "Milk", "desc": "2 litres"}, {"task": "Eggs", "desc": ""}, {"task": "Bread", "desc": "wholemeal"}]}}');
  t.equal((await submit(othello, todo, { type: 'strike', key: '0,canned' })).status, 200);
  t.equal((await submit(othello, todo, { type: 'new_task', key: 3, task: 'Jam', desc: '', completed: false })).status, 200);
  t.same(error(await submit(othello, todo, { type: 'new_task_list_title', title: 'Mine' })), [400, 'BAD_REQUEST', "You can't edit the task list title unless you are the author."]);
  t.same(error(await submit(othello, todo, { type: 'new_task', key: 3, task: 'Jam', desc: '', completed: 'no' })), [400, 'BAD_REQUEST', 'todo data["completed"] is not a boolean']);
  const empty = await send(hamlet, VERONA, 'chores', '/todo');
  t.equal((await message(othello, empty)).submessages[0].content, '{"widget_type": "todo", "extra_data": {"task_list_title": "", "tasks": []}}');

  const zform = { widget_type: 'zform', extra_data: { type: 'choices', heading: 'Pick one', choices: [{ short_name: 'A', long_name: 'Apple', reply: 'apple' }] } };
  const withZform = await send(hamlet, VERONA, 'forms', 'Pick one', { widget_content: JSON.stringify(zform) });
  t.equal((await message(othello, withZform)).submessages[0].content,
    '{"widget_type": "zform", "extra_data": {"type": "choices", "heading": "Pick one", "choices": [{"short_name": "A", "long_name": "Apple", "reply": "apple"}]}}');
  const widgetError = async (content: string) => error(await hamlet.post('/messages', { type: 'stream', to: VERONA, topic: 'forms', content: 'x', widget_content: content }));
  t.same(await widgetError('{{{{'), [400, 'BAD_REQUEST', 'Widgets: API programmer sent invalid JSON content']);
  t.same(await widgetError('{"color": "red"}'), [400, 'BAD_REQUEST', 'Widgets: widget_type is not in widget_content']);
  t.same(await widgetError('{"widget_type": "poll", "extra_data": {}}'), [400, 'BAD_REQUEST', 'Widgets: unknown widget type: poll']);
  t.same(await widgetError('{"widget_type": "zform", "extra_data": {"type": "choices", "heading": "h", "choices": [{}]}}'),
    [400, 'BAD_REQUEST', 'Widgets: short_name key is missing from extra_data["choices"][0]']);
  const plain = await send(hamlet, VERONA, 'chores', 'use /poll to make a poll');
  t.same((await message(othello, plain)).submessages, [], 'only a first word starts a widget');
});
