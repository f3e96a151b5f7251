/**
 * Black-box tests of a user's settings for channels and topics: POST /users/me/subscriptions/properties,
 * PATCH /users/me/subscriptions/muted_topics and POST /user_topics, seen through the events they send.
 * Every subtest has its own demo organization.
 */
import { test } from 'tap';
import { world } from '../helpers/world.js';
import { VERONA, SCOTLAND, register, take, send } from '../helpers/events.js';

test('subscription settings', async (t) => {
  t.test('subscription update events from POST /users/me/subscriptions/properties', async (t) => {
    const { hamlet, othello } = await world(t);
    // Hamlet joins Scotland before the queues exist, so they hold only what the property changes send.
    t.equal((await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Scotland' }] })).status, 200);
    const mine = await register(hamlet, { event_types: ['subscription', 'stream'] });
    const peer = await register(othello, { event_types: ['subscription', 'stream'] });
    t.equal((await hamlet.post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: SCOTLAND, property: 'is_muted', value: true }] })).status, 200);
    t.equal((await hamlet.post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: SCOTLAND, property: 'in_home_view', value: true }] })).status, 200);
    t.equal((await hamlet.post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: SCOTLAND, property: 'pin_to_top', value: true }] })).status, 200);
    const updates = (await take(mine)).map(({ id: _, ...rest }) => rest);
    const update = (property: string, value: unknown) => ({ type: 'subscription', op: 'update', stream_id: SCOTLAND, property, value });
    t.same(updates, [
      update('is_muted', true), update('in_home_view', false),
      update('is_muted', false), update('in_home_view', true),
      update('pin_to_top', true),
    ], 'muting sends both is_muted and in_home_view');
    t.same(await take(peer), [], 'personal settings are not sent to others');
  });

  t.test('user_topic: automatic follow on first send, and muting through muted_topics', async (t) => {
    const { hamlet } = await world(t);
    const queue = await register(hamlet, { event_types: ['user_topic', 'message'] });
    const response = await hamlet.post('/messages', { type: 'stream', to: 'Verona', topic: 'brand new', content: 'I start this' });
    t.equal(response.body.automatic_new_visibility_policy, 3);
    const events = await take(queue);
    t.same(events.map((e) => e.type), ['message', 'user_topic']);
    const { id: _, last_updated, ...rest } = events[1];
    t.same(rest, { type: 'user_topic', stream_id: VERONA, topic_name: 'brand new', visibility_policy: 3 });
    t.type(last_updated, 'number');
    await send(hamlet, 'Verona', 'again', 'brand new');
    t.same((await take(queue)).map((e) => e.type), ['message'], 'no event when nothing changes');

    const legacy = await register(hamlet, { event_types: ['muted_topics'] });
    t.equal((await hamlet.patch('/users/me/subscriptions/muted_topics', { stream_id: VERONA, topic: 'brand new', op: 'add' })).status, 200);
    const [muted] = await take(queue);
    t.match(muted, { type: 'user_topic', stream_id: VERONA, topic_name: 'brand new', visibility_policy: 1 });
    const legacyEvents = await take(legacy);
    t.match(legacyEvents, [{ type: 'muted_topics', muted_topics: [['Verona', 'brand new']] }], 'the legacy muted_topics event, with the full list');
    t.equal((await hamlet.patch('/users/me/subscriptions/muted_topics', { stream: 'Verona', topic: 'brand new', op: 'remove' })).status, 200);
    t.match((await take(queue))[0], { type: 'user_topic', topic_name: 'brand new', visibility_policy: 0 });
    t.equal((await hamlet.post('/user_topics', { stream_id: VERONA, topic: 'brand new', visibility_policy: 2 })).status, 200);
    t.match((await take(queue))[0], { type: 'user_topic', visibility_policy: 2 });
  });
});
