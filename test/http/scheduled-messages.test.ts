/**
 * Black-box tests of /scheduled_messages and the scheduler actor that delivers them: every rule
 * of scheduling, editing and deleting, delivery (on the fake clock: the actor's one timer is
 * armed in real time to the due time, and finds the item due because the test moved the clock),
 * failure at delivery, Zulip's 10-minute cut-off, start-up with overdue items, events, register.
 */
import { test, type Test } from 'tap';
import type { Api } from '../helpers/client.js';
import { clientFor } from '../helpers/server.js';
import { delay, ofType, pollPause, register, take, takeUntil } from '../helpers/events.js';
import { setRealm, world } from '../helpers/world.js';
import { BOT, CORE_TEAM, DENMARK, MESSAGES_CLOCK_START, VERONA, error, messageWorld, send } from '../helpers/messages.js';
import { HAMLET, IAGO, OTHELLO } from '../helpers/demo-ids.js';
import { Transaction } from '../../src/store/transaction.js';

const MISSING = [404, 'BAD_REQUEST', 'Scheduled message does not exist'];
const IN_PAST = [400, 'BAD_REQUEST', 'Scheduled delivery time must be in the future.'];

const scheduled = async (api: Api) => {
  const response = await api.get('/scheduled_messages');
  if (response.status !== 200) throw new Error(`GET /scheduled_messages failed: ${JSON.stringify(response.body)}`);
  return response.body.scheduled_messages as any[];
};

async function schedule(api: Api, params: Record<string, unknown>): Promise<number> {
  const response = await api.post('/scheduled_messages', params);
  if (response.status !== 200) throw new Error(`schedule failed: ${JSON.stringify(response.body)}`);
  return response.body.scheduled_message_id;
}

/** Waits (bounded, in real time) until `check` holds. */
async function eventually(check: () => Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  for (let look = 0; !(await check()); look++) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await delay(pollPause(look));
  }
}

const newest = async (api: Api, narrow: unknown[]) =>
  (await api.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow, apply_markdown: false })).body.messages[0];

/**
 * The newest message of a narrow once it is `content`: the scheduled item leaves memory inside
 * the delivery's write, a moment before that write is on disk and the message can be read.
 */
async function arrived(api: Api, narrow: unknown[], content?: string): Promise<any> {
  let found: any;
  await eventually(async () => {
    found = await newest(api, narrow);
    return found !== undefined && (content === undefined || found.content === content);
  }, `a message in ${JSON.stringify(narrow)}`);
  return found;
}

test('POST /scheduled_messages', async (t) => {
  t.test('schedules channel and direct messages with the type aliases', async (t) => {
    const { hamlet, seconds } = await messageWorld(t);
    const at = seconds() + 3600;
    const first = await schedule(hamlet, { type: 'stream', to: VERONA, topic: 'plans', content: 'Meet at **noon**', scheduled_delivery_timestamp: at });
    const second = await schedule(hamlet, { type: 'channel', to: [VERONA], topic: 'plans', content: 'again', scheduled_delivery_timestamp: at + 60 });
    await send(hamlet, 'Verona', 'between', 'a message between');
    const third = await schedule(hamlet, { type: 'direct', to: [OTHELLO], content: 'psst', scheduled_delivery_timestamp: at - 60 });
    const fourth = await schedule(hamlet, { type: 'private', to: [OTHELLO, IAGO], content: 'all of us', scheduled_delivery_timestamp: at + 120 });
    const fifth = await schedule(hamlet, { type: 'direct', to: [HAMLET], content: 'note to self', scheduled_delivery_timestamp: at + 180 });
    t.same([second - first, third - second, fourth - third, fifth - fourth], [1, 1, 1, 1], 'ids from their own counter: a message sent between takes none');
    const list = await scheduled(hamlet);
    t.same(list.map((s) => s.scheduled_message_id), [third, first, second, fourth, fifth], 'in due order');
    t.same(list[1], {
      scheduled_message_id: first, type: 'stream', to: VERONA, topic: 'plans', content: 'Meet at **noon**',
      rendered_content: '<p>Meet at <strong>noon</strong></p>', scheduled_delivery_timestamp: at, failed: false,
    });
    t.same(list[0], { scheduled_message_id: third, type: 'private', to: [OTHELLO], content: 'psst', rendered_content: '<p>psst</p>', scheduled_delivery_timestamp: at - 60, failed: false });
    t.same(list[2].type, 'stream', "'channel' is 'stream'");
    t.same(list[3].to, [IAGO, HAMLET, OTHELLO].sort((a, b) => a - b), "a group's recipients, the sender included (Zulip's get_recipient_ids)");
    t.same(list[4].to, [HAMLET], 'to oneself');
  });

  t.test('topics follow the rules of POST /messages', async (t) => {
    const { server, hamlet, seconds } = await messageWorld(t);
    const at = seconds() + 600;
    const base = { type: 'stream', to: VERONA, content: 'x', scheduled_delivery_timestamp: at };
    for (const topic of ['(no topic)', 'general chat', '  ']) await schedule(hamlet, { ...base, topic });
    t.same((await scheduled(hamlet)).map((s) => s.topic), ['', '', ''], '(no topic) and the display name are the empty topic');
    t.same(error(await hamlet.post('/scheduled_messages', { ...base })), [400, 'BAD_REQUEST', 'Missing topic']);
    const long = await schedule(hamlet, { ...base, topic: 't'.repeat(70), content: 'c'.repeat(10_050) });
    const record = (await scheduled(hamlet)).find((s) => s.scheduled_message_id === long);
    t.equal(record.topic, 't'.repeat(57) + '...', 'topics are cut at max_topic_length');
    t.ok(record.content.endsWith('\n[message truncated]') && record.content.length <= 10_000, 'content is cut at max_message_length');
    t.same(error(await hamlet.post('/scheduled_messages', { ...base, topic: 'x', content: '  \n' })), [400, 'BAD_REQUEST', 'Message must not be empty']);
    t.same(error(await hamlet.post('/scheduled_messages', { ...base, topic: 'bad\u0007topic' })), [400, 'BAD_REQUEST', 'Invalid character in topic, at position 4!']);
    await setRealm(server, { mandatory_topics: true });
    for (const topic of ['', '(no topic)', 'general chat']) {
      t.same(error(await hamlet.post('/scheduled_messages', { ...base, topic })), [400, 'BAD_REQUEST', 'Sending messages to the general chat is not allowed in this channel.'], `required topic: '${topic}'`);
    }
    t.equal((await scheduled(hamlet)).length, 4, 'refused requests changed nothing');
  });

  t.test('refuses bad addressing and times, changing nothing', async (t) => {
    const { hamlet, seconds } = await messageWorld(t);
    const at = seconds() + 600;
    const missing = await hamlet.post('/scheduled_messages', { type: 'stream', to: 999, topic: 'x', content: 'x', scheduled_delivery_timestamp: at });
    t.same(missing.body, { result: 'error', msg: "Channel with ID '999' does not exist", code: 'STREAM_DOES_NOT_EXIST', stream_id: 999 });
    t.same(error(await hamlet.post('/scheduled_messages', { type: 'direct', to: [999], content: 'x', scheduled_delivery_timestamp: at })), [400, 'BAD_REQUEST', 'Invalid user ID 999']);
    t.same(error(await hamlet.post('/scheduled_messages', { type: 'direct', to: [], content: 'x', scheduled_delivery_timestamp: at })), [400, 'BAD_REQUEST', 'Message must have recipients']);
    t.same(error(await hamlet.post('/scheduled_messages', { type: 'direct', to: OTHELLO, content: 'x', scheduled_delivery_timestamp: at })), [400, 'BAD_REQUEST', 'Invalid data type for recipients']);
    t.same(error(await hamlet.post('/scheduled_messages', { type: 'stream', to: [VERONA, DENMARK], topic: 'x', content: 'x', scheduled_delivery_timestamp: at })), [400, 'BAD_REQUEST', 'Expected exactly one channel']);
    // Names and addresses are for POST /messages only: here `to` is ids.
    t.equal((await hamlet.post('/scheduled_messages', { type: 'stream', to: 'Verona', topic: 'x', content: 'x', scheduled_delivery_timestamp: at })).status, 400);
    t.same(error(await hamlet.post('/scheduled_messages', { type: 'direct', to: ['othello@example.com'], content: 'x', scheduled_delivery_timestamp: at })), [400, 'BAD_REQUEST', 'Recipient list may only contain user IDs']);
    t.same(error(await hamlet.post('/scheduled_messages', { type: 'stream', to: ['Verona'], topic: 'x', content: 'x', scheduled_delivery_timestamp: at })), [400, 'BAD_REQUEST', 'Invalid data type for channel']);
    t.same(error(await hamlet.post('/scheduled_messages', { type: 'stream', to: CORE_TEAM, topic: 'x', content: 'x', scheduled_delivery_timestamp: at })), [400, 'STREAM_DOES_NOT_EXIST', `Channel with ID '${CORE_TEAM}' does not exist`], 'a private channel one may not know of is missing');
    t.equal((await hamlet.post('/scheduled_messages', { type: 'huddle', to: [OTHELLO], content: 'x', scheduled_delivery_timestamp: at })).status, 400);
    t.same(error(await hamlet.post('/scheduled_messages', { type: 'direct', to: [OTHELLO], content: 'x', scheduled_delivery_timestamp: seconds() })), IN_PAST, 'now is not the future');
    t.same(error(await hamlet.post('/scheduled_messages', { type: 'direct', to: [OTHELLO], content: 'x', scheduled_delivery_timestamp: seconds() - 10 })), IN_PAST);
    t.same(error(await hamlet.post('/scheduled_messages', { type: 'direct', to: [OTHELLO], content: 'x' })), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'scheduled_delivery_timestamp' argument"]);
    t.same(error(await hamlet.post('/scheduled_messages', { type: 'direct', to: [OTHELLO], content: 'x', scheduled_delivery_timestamp: 'soon' })), [400, 'BAD_REQUEST', 'scheduled_delivery_timestamp is not valid JSON']);
    t.same(await scheduled(hamlet), [], 'nothing was scheduled');
  });
});

test('GET, PATCH and DELETE /scheduled_messages/{id}', async (t) => {
  t.test('partial edits, each checked again', async (t) => {
    const { hamlet, seconds } = await messageWorld(t);
    const at = seconds() + 600;
    const id = await schedule(hamlet, { type: 'stream', to: VERONA, topic: 'plans', content: 'first', scheduled_delivery_timestamp: at });
    const get = async () => (await scheduled(hamlet)).find((s) => s.scheduled_message_id === id);
    t.same(error(await hamlet.patch(`/scheduled_messages/${id}`, {})), [400, 'BAD_REQUEST', 'Nothing to change']);
    t.equal((await hamlet.patch(`/scheduled_messages/${id}`, { content: '*second*' })).status, 200);
    t.match(await get(), { type: 'stream', to: VERONA, topic: 'plans', content: '*second*', rendered_content: '<p><em>second</em></p>', scheduled_delivery_timestamp: at });
    t.equal((await hamlet.patch(`/scheduled_messages/${id}`, { topic: 'renamed' })).status, 200);
    t.equal((await hamlet.patch(`/scheduled_messages/${id}`, { to: DENMARK })).status, 200);
    t.match(await get(), { to: DENMARK, topic: 'renamed', content: '*second*' }, 'a new channel keeps the topic');
    t.same(error(await hamlet.patch(`/scheduled_messages/${id}`, { type: 'direct' })), [400, 'BAD_REQUEST', 'Recipient required when updating type of scheduled message.']);
    t.equal((await hamlet.patch(`/scheduled_messages/${id}`, { type: 'direct', to: [OTHELLO] })).status, 200);
    const direct = await get();
    t.same([direct.type, direct.to, 'topic' in direct], ['private', [OTHELLO], false]);
    t.same(error(await hamlet.patch(`/scheduled_messages/${id}`, { type: 'channel', to: VERONA })), [400, 'BAD_REQUEST', 'Topic required when updating scheduled message type to channel.']);
    t.equal((await hamlet.patch(`/scheduled_messages/${id}`, { type: 'channel', to: VERONA, topic: 'back' })).status, 200);
    t.match(await get(), { type: 'stream', to: VERONA, topic: 'back' });
    t.same(error(await hamlet.patch(`/scheduled_messages/${id}`, { to: 999 })), [400, 'STREAM_DOES_NOT_EXIST', "Channel with ID '999' does not exist"]);
    t.same(error(await hamlet.patch(`/scheduled_messages/${id}`, { scheduled_delivery_timestamp: seconds() - 1 })), IN_PAST);
    t.equal((await hamlet.patch(`/scheduled_messages/${id}`, { scheduled_delivery_timestamp: at + 100 })).status, 200);
    t.match(await get(), { type: 'stream', to: VERONA, topic: 'back', content: '*second*', scheduled_delivery_timestamp: at + 100, failed: false }, 'refused edits changed nothing');
  });

  t.test("another user's, unknown and deleted ids do not exist", async (t) => {
    const { hamlet, othello, iago, seconds } = await messageWorld(t);
    const id = await schedule(hamlet, { type: 'direct', to: [OTHELLO], content: 'secret plan', scheduled_delivery_timestamp: seconds() + 600 });
    t.same(await scheduled(othello), [], "one sees only one's own");
    t.same(await scheduled(iago), [], 'administrators too');
    t.same(error(await othello.patch(`/scheduled_messages/${id}`, { content: 'hijacked' })), MISSING);
    t.same(error(await iago.delete(`/scheduled_messages/${id}`)), MISSING);
    t.same(error(await hamlet.patch('/scheduled_messages/9999', { content: 'x' })), MISSING);
    t.same(error(await hamlet.delete('/scheduled_messages/9999')), MISSING);
    t.equal((await scheduled(hamlet))[0].content, 'secret plan');
    t.same((await hamlet.delete(`/scheduled_messages/${id}`)).body, { result: 'success', msg: '' });
    t.same(await scheduled(hamlet), []);
    t.same(error(await hamlet.delete(`/scheduled_messages/${id}`)), MISSING);
    t.same(error(await hamlet.patch(`/scheduled_messages/${id}`, { content: 'x' })), MISSING);
  });

  t.test('events to the owner, register state and restart', async (t) => {
    const { server, hamlet, othello, seconds } = await messageWorld(t);
    const mine = await register(hamlet, { event_types: ['scheduled_messages'] });
    const theirs = await register(othello, {});
    const at = seconds() + 600;
    const id = await schedule(hamlet, { type: 'stream', to: VERONA, topic: 'plans', content: 'hello', scheduled_delivery_timestamp: at });
    const object = { scheduled_message_id: id, type: 'stream', to: VERONA, topic: 'plans', content: 'hello', rendered_content: '<p>hello</p>', scheduled_delivery_timestamp: at, failed: false };
    t.match(await take(mine), [{ type: 'scheduled_messages', op: 'add', scheduled_messages: [object] }]);
    await hamlet.patch(`/scheduled_messages/${id}`, { content: 'hello there' });
    t.match(await take(mine), [{ type: 'scheduled_messages', op: 'update', scheduled_message: { ...object, content: 'hello there', rendered_content: '<p>hello there</p>' } }]);
    const state = await hamlet.post('/register', { fetch_event_types: ['scheduled_messages'] });
    t.same(state.body.scheduled_messages, [{ ...object, content: 'hello there', rendered_content: '<p>hello there</p>' }]);
    t.same((await othello.post('/register', { fetch_event_types: ['scheduled_messages'] })).body.scheduled_messages, []);

    const restarted = await server.restart();
    t.teardown(() => restarted.destroy());
    const again = clientFor(restarted, 'hamlet@example.com');
    t.same((await scheduled(again)).map((s) => s.content), ['hello there'], 'kept across a restart');
    t.equal((await again.delete(`/scheduled_messages/${id}`)).status, 200);
    const removed = ofType(await take({ ...mine, api: again }), 'scheduled_messages');
    t.match(removed, [{ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }], 'the queue, restored, hears of the removal');
    t.equal(removed.length, 1);
    t.same(ofType(await take({ ...theirs, api: clientFor(restarted, 'othello@example.com') }), 'scheduled_messages'), [], "nobody else's queue hears of it");
  });
});

test('the scheduler actor delivers', async (t) => {
  t.test('at the due second, on the real clock, through the rules of POST /messages', async (t) => {
    // A machine too slow to schedule both before their due time starts over with twice the lead.
    for (let lead = 2; !(await onTime(t, lead)); lead *= 2) {
      if (lead >= 16) throw new Error('too slow for a 16-s lead');
      t.comment(`too slow for a ${lead}-s lead: again with ${lead * 2} s`);
    }
  });

  t.test('on the fake clock, with read_by_sender and after edits', async (t) => {
    const { hamlet, seconds, advance } = await messageWorld(t);
    const early = await schedule(hamlet, { type: 'stream', to: VERONA, topic: 'fake', content: 'moved later', scheduled_delivery_timestamp: seconds() + 1, read_by_sender: true });
    await schedule(hamlet, { type: 'stream', to: VERONA, topic: 'fake', content: 'first', scheduled_delivery_timestamp: seconds() + 2, read_by_sender: true });
    await hamlet.patch(`/scheduled_messages/${early}`, { scheduled_delivery_timestamp: seconds() + 3600 });
    advance(2);
    await eventually(async () => (await scheduled(hamlet)).length === 1, 'the first delivery');
    const sent = await arrived(hamlet, [{ operator: 'channel', operand: VERONA }, { operator: 'topic', operand: 'fake' }]);
    t.match(sent, { content: 'first', flags: ['read'] });
    t.equal((await scheduled(hamlet))[0].scheduled_message_id, early, 'the one moved later waits');
    await delay(1_200);
    t.equal((await scheduled(hamlet)).length, 1, 'not sent before its time');
  });

  t.test("read_by_sender's default: read when a person's client scheduled it, unless it is to oneself", async (t) => {
    const { hamlet, seconds, advance } = await messageWorld(t);
    await schedule(hamlet, { type: 'stream', to: VERONA, topic: 'default', content: 'from the web app', scheduled_delivery_timestamp: seconds() + 1, client: 'website' });
    await schedule(hamlet, { type: 'direct', to: [HAMLET], content: 'a note to self', scheduled_delivery_timestamp: seconds() + 1, client: 'website' });
    await schedule(hamlet, { type: 'stream', to: VERONA, topic: 'script', content: 'from a script', scheduled_delivery_timestamp: seconds() + 1 });
    advance(1);
    t.same((await arrived(hamlet, [{ operator: 'channel', operand: VERONA }, { operator: 'topic', operand: 'default' }])).flags, ['read']);
    t.same((await arrived(hamlet, [{ operator: 'dm', operand: [HAMLET] }])).flags, [], 'to oneself: unread, as Zulip does');
    t.same((await arrived(hamlet, [{ operator: 'channel', operand: VERONA }, { operator: 'topic', operand: 'script' }])).flags, []);
  });

  t.test('a sender deactivated meanwhile: it fails, without a notice', async (t) => {
    const { server, hamlet, seconds, advance } = await messageWorld(t);
    const id = await schedule(hamlet, { type: 'direct', to: [OTHELLO], content: 'from beyond', scheduled_delivery_timestamp: seconds() + 1 });
    const { org } = server.services;
    const tx = new Transaction();
    org.users.save({ ...org.users.get(HAMLET)!, isActive: false }, tx);
    await server.services.commit(tx);
    const nextMessageId = server.services.counters.upcomingServerId('message');
    advance(1);
    await eventually(async () => server.services.scheduled.get(id)?.failed === true, 'the failure');
    t.equal(server.services.scheduled.get(id)!.failureMessage, 'Account is deactivated', "Zulip's reason");
    t.equal(server.services.counters.upcomingServerId('message'), nextMessageId, 'nothing sent, and no notice to an account that cannot read it');
  });

  t.test('a sender who may no longer post gets a failure, not a message', async (t) => {
    const { iago, desdemona, seconds, advance } = await messageWorld(t);
    const own = await register(iago, { event_types: ['scheduled_messages'] });
    const at = seconds() + 1;
    const id = await schedule(iago, { type: 'stream', to: CORE_TEAM, topic: 'secret', content: 'for the core team', scheduled_delivery_timestamp: at });
    await take(own);
    t.equal((await iago.delete('/users/me/subscriptions', { subscriptions: ['core team'] })).status, 200);
    advance(1);
    await eventually(async () => (await scheduled(iago))[0]?.failed === true, 'the failure');
    const reason = "Not authorized to send to channel 'core team'";
    const notice = await arrived(iago, [{ operator: 'dm', operand: [BOT] }]);
    t.match(await takeUntil(own, (events) => events.length > 0, 'the update event'), [{ type: 'scheduled_messages', op: 'update', scheduled_message: { scheduled_message_id: id, failed: true } }], 'once durable, the owner hears of it');
    const inChannel = await newest(desdemona, [{ operator: 'channel', operand: CORE_TEAM }]);
    t.not(inChannel?.content, 'for the core team', 'nothing was sent');
    const when = new Date(at * 1000).toISOString().replace('.000Z', '+00:00');
    t.match(notice, { sender_id: BOT, content: `The message you scheduled for <time:${when}> was not sent because of the following error:\n\n> ${reason}\n\n[View scheduled messages](#scheduled)` });

    t.same(error(await iago.patch(`/scheduled_messages/${id}`, { content: 'again' })), IN_PAST, 'a failed one needs a new time');
    t.equal((await desdemona.post('/users/me/subscriptions', { subscriptions: [{ name: 'core team' }], principals: [IAGO] })).status, 200);
    t.equal((await iago.patch(`/scheduled_messages/${id}`, { scheduled_delivery_timestamp: seconds() + 1 })).status, 200);
    t.equal((await scheduled(iago))[0].failed, false, 'editing clears failed');
    advance(1);
    await eventually(async () => (await scheduled(iago)).length === 0, 'the second try');
    t.match(await arrived(desdemona, [{ operator: 'channel', operand: CORE_TEAM }], 'for the core team'), { sender_id: IAGO });
  });

  t.test('more than 10 minutes late, it fails as Zulip\'s do', async (t) => {
    const { hamlet, seconds, advance } = await messageWorld(t);
    await schedule(hamlet, { type: 'direct', to: [OTHELLO], content: 'too late', scheduled_delivery_timestamp: seconds() + 1 });
    advance(1 + 601);
    await eventually(async () => (await scheduled(hamlet))[0]?.failed === true, 'the failure');
    const notice = await arrived(hamlet, [{ operator: 'dm', operand: [BOT] }]);
    t.match(notice.content, /\n> Message could not be sent at the scheduled time\.\n/);
    t.not((await newest(hamlet, [{ operator: 'dm', operand: [OTHELLO] }]))?.content, 'too late');
  });

  t.test('items overdue at start-up go at once; over 10 minutes overdue, they fail', async (t) => {
    const { server, hamlet, seconds, advance } = await messageWorld(t);
    const start = seconds();
    await schedule(hamlet, { type: 'stream', to: VERONA, topic: 'downtime', content: 'slightly late', scheduled_delivery_timestamp: start + 700 });
    const old = await schedule(hamlet, { type: 'stream', to: VERONA, topic: 'downtime', content: 'far too late', scheduled_delivery_timestamp: start + 30 });
    await server.stop();
    advance(720);
    const restarted = await server.restart();
    t.teardown(() => restarted.destroy());
    const again = clientFor(restarted, 'hamlet@example.com');
    await eventually(async () => {
      const list = await scheduled(again);
      return list.length === 1 && list[0].failed === true;
    }, 'the overdue deliveries');
    t.equal((await scheduled(again))[0].scheduled_message_id, old);
    const sent = await arrived(again, [{ operator: 'channel', operand: VERONA }, { operator: 'topic', operand: 'downtime' }]);
    t.match(sent, { content: 'slightly late', timestamp: Math.floor(MESSAGES_CLOCK_START / 1000) + 720 }, 'sent when the server came back');
  });
});

test('/reminders', async (t) => {
  t.test('a reminder is a message to oneself from the notification bot', async (t) => {
    const { hamlet, othello, iago, seconds, advance } = await messageWorld(t);
    const target = await send(othello, 'Verona', 'dinner', 'Dinner at **eight**');
    const own = await register(hamlet, { event_types: ['reminders'] });
    const at = seconds() + 1;
    const response = await hamlet.post('/reminders', { message_id: target, scheduled_delivery_timestamp: at, note: 'bring wine' });
    t.equal(response.status, 200);
    const id = response.body.reminder_id;
    const list = (await hamlet.get('/reminders')).body.reminders;
    t.match(list, [{ reminder_id: id, type: 'private', to: [HAMLET], scheduled_delivery_timestamp: at, failed: false, reminder_target_message_id: target }]);
    const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const expected = [
      `You requested a reminder for #**Verona>dinner@${target}**. Note:\n > bring wine`,
      '',
      `@_**Othello, the Moor of Venice|${OTHELLO}** [said](http://127.0.0.1:PORT/#narrow/channel/${VERONA}-Verona/topic/dinner/near/${target}):`,
      '```quote',
      'Dinner at **eight**',
      '```',
    ].join('\n');
    t.match(list[0].content, new RegExp(`^${escaped(expected).replace('PORT', '\\d+')}$`), "Zulip's reminder text: a link, the note, the message quoted");
    t.match(list[0].rendered_content, /<blockquote>/);
    t.same(Object.keys(list[0]).sort(), ['content', 'failed', 'reminder_id', 'reminder_target_message_id', 'rendered_content', 'scheduled_delivery_timestamp', 'to', 'type']);
    t.same(await scheduled(hamlet), [], 'reminders are not scheduled messages');
    t.match(await take(own), [{ type: 'reminders', op: 'add', reminders: [{ reminder_id: id }] }]);
    t.same((await hamlet.post('/register', { fetch_event_types: ['reminders'] })).body.reminders, list);
    t.same((await othello.get('/reminders')).body.reminders, []);

    t.same(error(await othello.delete(`/reminders/${id}`)), [404, 'BAD_REQUEST', 'Reminder does not exist']);
    t.same(error(await hamlet.delete(`/scheduled_messages/${id}`)), MISSING, 'a reminder is not a scheduled message');
    const secret = await send(iago, 'core team', 'x', 'secret');
    t.same(error(await hamlet.post('/reminders', { message_id: secret, scheduled_delivery_timestamp: at })), [400, 'BAD_REQUEST', 'Invalid message(s)']);
    t.same(error(await hamlet.post('/reminders', { message_id: target, scheduled_delivery_timestamp: seconds() })), IN_PAST);
    t.same(error(await hamlet.post('/reminders', { message_id: target, scheduled_delivery_timestamp: at, note: 'x'.repeat(1001) })), [400, 'BAD_REQUEST', 'Maximum reminder note length: 1000 characters']);
    const long = await hamlet.post('/reminders', { message_id: target, scheduled_delivery_timestamp: at + 60, note: 'x'.repeat(1000) + '   \n' });
    t.equal(long.status, 200, 'the length counts once trailing space is gone');
    t.equal((await hamlet.delete(`/reminders/${long.body.reminder_id}`)).status, 200);

    advance(1);
    await eventually(async () => (await hamlet.get('/reminders')).body.reminders.length === 0, 'the reminder');
    const reminder = await arrived(hamlet, [{ operator: 'dm', operand: [BOT] }]);
    t.match(reminder, { sender_id: BOT, content: list[0].content, flags: [] });
    t.match((await takeUntil(own, (all) => all.some((e) => e.reminder_id === id), 'the removal')).filter((e) => e.reminder_id === id), [{ type: 'reminders', op: 'remove', reminder_id: id }], 'sent: removed from the list by an event');
  });

  t.test('reminders: kept across a restart, removed by an event to another queue', async (t) => {
    const { server, hamlet, othello, seconds } = await messageWorld(t);
    const target = await send(othello, 'Verona', 'later', 'Tomorrow, then');
    const id = (await hamlet.post('/reminders', { message_id: target, scheduled_delivery_timestamp: seconds() + 600 })).body.reminder_id;
    const before = (await hamlet.get('/reminders')).body.reminders;
    const own = await register(hamlet, { event_types: ['reminders'] });
    // The world's teardown deletes the directory: the restarted server stops first.
    const restarted = await server.restart();
    const again = clientFor(restarted, 'hamlet@example.com');
    t.same((await again.get('/reminders')).body.reminders, before, 'the same reminder after a restart');
    t.equal((await again.delete(`/reminders/${id}`)).status, 200);
    t.match(ofType(await take({ ...own, api: again }), 'reminders'), [{ op: 'remove', reminder_id: id }], 'the queue registered before the restart hears it');
    t.same((await again.get('/reminders')).body.reminders, []);
    await restarted.stop();
  });
  t.test('DELETE /reminders/{id}', async (t) => {
    const { hamlet, seconds } = await messageWorld(t);
    const target = await send(hamlet, 'Verona', 'x', 'remember me');
    const id = (await hamlet.post('/reminders', { message_id: target, scheduled_delivery_timestamp: seconds() + 60 })).body.reminder_id;
    t.same((await hamlet.delete(`/reminders/${id}`)).body, { result: 'success', msg: '' });
    t.same((await hamlet.get('/reminders')).body.reminders, []);
    t.same(error(await hamlet.delete(`/reminders/${id}`)), [404, 'BAD_REQUEST', 'Reminder does not exist']);
  });
});

/** Lateness allowed: a timer armed to the due time (not the hourly wake-up), on a loaded machine. */
const LATE_MS = 30_000;
/** The real-clock delivery of two messages due in `lead` s; false (nothing asserted) when a POST or the list came after the due time. */
async function onTime(t: Test, lead: number): Promise<boolean> {
  const { hamlet, othello } = await world(t);
  // Messages sent first: the scheduled ids (their own counter) and the message ids part ways.
  for (const content of ['one', 'two', 'three']) await send(hamlet, 'Verona', 'before', content);
  const queue = await register(othello, { event_types: ['message'] });
  const own = await register(hamlet, { event_types: ['scheduled_messages'] });
  const due = Math.floor(Date.now() / 1000) + lead;
  const post = async (params: Record<string, unknown>): Promise<number | undefined> => {
    const response = await hamlet.post('/scheduled_messages', { ...params, scheduled_delivery_timestamp: due });
    if (response.status === 200) return response.body.scheduled_message_id;
    if (response.body.msg === IN_PAST[2]) return undefined;
    throw new Error(`schedule failed: ${JSON.stringify(response.body)}`);
  };
  const channel = await post({ type: 'stream', to: VERONA, topic: 'timed', content: 'on time', read_by_sender: false });
  const dm = channel && (await post({ type: 'direct', to: [OTHELLO], content: 'on time too' }));
  const listed = dm && (await scheduled(hamlet));
  if (!listed || Date.now() >= due * 1000) return false;
  t.equal(listed.length, 2);
  await eventually(async () => (await scheduled(hamlet)).length === 0, 'delivery');
  const lateness = Date.now() - due * 1000;
  t.ok(lateness < LATE_MS, `delivered when it was due (seen ${lateness} ms after)`);
  const sent = await arrived(hamlet, [{ operator: 'channel', operand: VERONA }, { operator: 'topic', operand: 'timed' }]);
  t.match(sent, { content: 'on time', sender_id: HAMLET });
  t.ok(sent.timestamp >= due && (sent.timestamp - due) * 1000 < LATE_MS, `sent at its due second, or just after on a busy machine (${sent.timestamp - due} s)`);
  t.equal(channel, 1, 'the first scheduled message of the organization');
  t.not(sent.id, channel, 'the message has its own id');
  t.same(sent.flags, [], 'read_by_sender: false leaves it unread for the sender');
  const direct = await arrived(othello, [{ operator: 'dm', operand: [HAMLET] }]);
  t.match(direct, { content: 'on time too', sender_id: HAMLET, timestamp: sent.timestamp });
  const events = await takeUntil(queue, (all) => ofType(all, 'message').length >= 2, 'the two message events');
  t.same(ofType(events, 'message').map((e) => e.message.content).sort(), ['on time', 'on time too']);
  const removals = (await takeUntil(own, (all) => all.filter((e) => e.op === 'remove').length >= 2, 'the two removals')).filter((e) => e.op === 'remove');
  t.match(removals, [{ scheduled_message_id: channel }, { scheduled_message_id: dm }], 'removed from the owner\'s list by events');
  return true;
}
