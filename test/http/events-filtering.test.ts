/**
 * Black-box tests of per-queue filtering (event types, narrows, capabilities) and local echo. Every subtest has its own demo organization.
 */
import { test, type Test } from 'tap';
import type { ApiResponse } from '../helpers/client.js';
import { clientFor, startTestServer } from '../helpers/server.js';
import { world, type World } from '../helpers/world.js';
import { IAGO, HAMLET, OTHELLO, CORDELIA, VERONA, DENMARK, SCOTLAND, register, take, longPoll, settledWithin, waitFor, serverQueue, sorted, ofType, badQueue, send, MESSAGE_KEYS } from '../helpers/events.js';

test('filtering and local echo', async (t) => {
  t.test('event_types is exact', async (t) => {
    const { hamlet, othello } = await world(t);
    const reactions = await register(hamlet, { event_types: ['reaction'] });
    const messages = await register(hamlet, { event_types: ['message'] });
    const unknown = await register(hamlet, { event_types: ['no_such_type'] });
    const id = await send(othello, 'Denmark', 'react to me');
    t.equal((await hamlet.post(`/messages/${id}/reactions`, { emoji_name: 'tada' })).status, 200);
    t.equal((await othello.patch(`/messages/${id}`, { content: 'edited' })).status, 200);
    t.same((await take(reactions)).map((e) => e.type), ['reaction']);
    t.same((await take(messages)).map((e) => e.type), ['message'], '"message" does not include update_message or reaction');
    t.same(await take(unknown), [], 'unknown types match nothing');
  });

  t.test('narrow: message events only, matching terms, public channels even unsubscribed', async (t) => {
    const { hamlet, othello, cordelia } = await world(t);
    const denmark = await register(hamlet, { narrow: [['stream', 'denmark']] });
    const scotland = await register(hamlet, { narrow: [['channel', 'Scotland']] });
    const topic = await register(hamlet, { narrow: [['stream', 'Denmark'], ['topic', 'Lunch']] });
    const sender = await register(hamlet, { narrow: [['sender', 'OTHELLO@example.com']] });
    const dms = await register(hamlet, { narrow: [['is', 'dm']] });
    const inDenmark = await send(othello, 'Denmark', 'in Denmark', 'lunch');
    const inVerona = await send(cordelia, 'Verona', 'in Verona');
    const inScotland = await send(othello, 'Scotland', 'in Scotland');
    const dm = await send(othello, [HAMLET], 'private');
    t.equal((await othello.post('/messages/flags', { messages: [inVerona], op: 'add', flag: 'read' })).status, 200);
    const ids = (events: any[]) => ofType(events, 'message').map((e) => e.message.id);
    const denmarkEvents = await take(denmark);
    t.same(ids(denmarkEvents), [inDenmark], 'channel, case-insensitively');
    const scotlandEvents = ofType(await take(scotland), 'message');
    t.same(scotlandEvents.map((e) => e.message.id), [inScotland], 'a public channel the user is not subscribed to');
    t.same(scotlandEvents[0].flags, [], 'with no flags');
    t.same(ids(await take(topic)), [inDenmark], 'topic, case-insensitively');
    t.same(ids(await take(sender)), [inDenmark, inScotland, dm], 'sender by email, case-insensitively');
    t.same(ids(await take(dms)), [dm]);
  });

  t.test('a guest with a narrow sees only what the guest may read', async (t) => {
    const { server, hamlet } = await world(t);
    const polonius = clientFor(server, 'polonius@example.com');
    const denmark = await register(polonius, { narrow: [['stream', 'Denmark']] });
    const verona = await register(polonius, { narrow: [['stream', 'Verona']] });
    await send(hamlet, 'Denmark', 'members only', 'guests');
    const inVerona = await send(hamlet, 'Verona', 'for the guest too', 'guests');
    t.same(ofType(await take(denmark), 'message'), [], 'no messages of a public channel the guest is not in');
    t.same(ofType(await take(verona), 'message').map((e) => e.message.id), [inVerona]);
  });

  t.test('all_public_streams: public channel messages with no flags, other events as usual', async (t) => {
    const { hamlet, othello } = await world(t);
    const all = await register(hamlet, { all_public_streams: true, event_types: ['message'] });
    const plain = await register(hamlet, { event_types: ['message'] });
    const inScotland = await send(othello, 'Scotland', 'for everyone watching');
    const inDenmark = await send(othello, 'Denmark', '@**King Hamlet** look');
    const allEvents = await take(all);
    t.same(allEvents.map((e) => [e.message.id, e.flags]), [[inScotland, []], [inDenmark, ['mentioned']]], 'subscribed messages keep their flags');
    t.same((await take(plain)).map((e) => e.message.id), [inDenmark]);
  });

  t.test('local_message_id goes only to the queue that sent it', async (t) => {
    const { hamlet, othello } = await world(t);
    const first = await register(hamlet, { event_types: ['message'] });
    const second = await register(hamlet, { event_types: ['message'] });
    const watcher = await register(othello, { event_types: ['message'] });
    const id = await send(hamlet, 'Denmark', 'echo', 'events', { queue_id: first.id, local_id: '100.01' });
    const [mine] = await take(first);
    t.equal(mine.message.id, id);
    t.equal(mine.local_message_id, '100.01', 'the sending queue gets its local id back');
    const [other] = await take(second);
    t.notOk('local_message_id' in other, "the sender's other queue does not");
    const [theirs] = await take(watcher);
    t.notOk('local_message_id' in theirs, 'nor does anyone else');
    // With queue_id, local_id is required (refused without it); without either there is no echo.
    await send(hamlet, 'Denmark', 'no local id', 'events');
    t.notOk('local_message_id' in (await take(first))[0], 'only with local_id');
  });
});

test('POST /messages with a queue_id but no local_id is refused, and sends nothing', async (t) => {
  const { server } = await world(t);
  const api = clientFor(server, 'iago@example.com');
  const queue = (await api.post('/register', { event_types: ['message'] })).body.queue_id as string;
  const refused = await api.post('/messages', { type: 'stream', to: 'Verona', topic: 'local echo', content: 'no local id', queue_id: queue });
  t.equal(refused.status, 400);
  t.match(refused.body, { result: 'error', code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'local_id' argument", var_name: 'local_id' });
  const narrow = [{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: 'local echo' }];
  t.same((await api.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow })).body.messages, [], 'nothing was sent');
  const accepted = await api.post('/messages', { type: 'stream', to: 'Verona', topic: 'local echo', content: 'with one', queue_id: queue, local_id: '1.01' });
  t.equal(accepted.status, 200, JSON.stringify(accepted.body));
  const events = (await api.get('/events', { queue_id: queue, last_event_id: -1, dont_block: true })).body.events;
  t.equal(events.find((event: { type: string }) => event.type === 'message')?.local_message_id, '1.01', 'the queue gets its local id back');
});
