/**
 * Black-box tests of a user's settings for channels and topics: POST /users/me/subscriptions/properties,
 * PATCH /users/me/subscriptions/muted_topics and POST /user_topics, seen through the events they send.
 * Every subtest has its own demo organization.
 */
import { test } from 'tap';
import { world } from '../helpers/world.js';
import { VERONA, SCOTLAND, DENMARK, register, take, send } from '../helpers/events.js';
import { clientFor } from '../helpers/server.js';
import { CORE_TEAM, fetchIds, NEWEST } from '../helpers/messages.js';
import type { Api, ApiResponse } from '../helpers/client.js';

const error = (response: ApiResponse) => [response.status, response.body.code, response.body.msg];
const bad = (msg: string) => [400, 'BAD_REQUEST', msg];
const subscriptionOf = async (api: Api, channelId: number) =>
  ((await api.get('/users/me/subscriptions')).body.subscriptions as Record<string, unknown>[]).find((s) => s.stream_id === channelId)!;
const props = (stream_id: number, property: string, value: unknown) => ({ subscription_data: [{ stream_id, property, value }] });

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
      update('in_home_view', false), update('is_muted', true),
      update('in_home_view', true), update('is_muted', false),
      update('pin_to_top', true),
    ], 'muting sends both, in_home_view first (as Zulip)');
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
  t.test('the nine properties: each validated, all read back, after a restart too', async (t) => {
    const { server, hamlet } = await world(t);
    const queue = await register(hamlet, { event_types: ['subscription'] });
    const changes = [
      { stream_id: VERONA, property: 'color', value: '#a1b2c3' },
      { stream_id: VERONA, property: 'pin_to_top', value: true },
      { stream_id: VERONA, property: 'desktop_notifications', value: true },
      { stream_id: VERONA, property: 'audible_notifications', value: false },
      { stream_id: VERONA, property: 'push_notifications', value: true },
      { stream_id: VERONA, property: 'email_notifications', value: false },
      { stream_id: VERONA, property: 'wildcard_mentions_notify', value: false },
      { stream_id: VERONA, property: 'in_home_view', value: false },
    ];
    t.equal((await hamlet.post('/users/me/subscriptions/properties', { subscription_data: changes })).status, 200);
    const events = await take(queue);
    t.same(events.map((e) => [e.property, e.value]), [
      ['color', '#a1b2c3'], ['pin_to_top', true], ['desktop_notifications', true], ['audible_notifications', false],
      ['push_notifications', true], ['email_notifications', false], ['wildcard_mentions_notify', false], ['in_home_view', false], ['is_muted', true],
    ], 'one event per property, two for muting');
    const expected = {
      color: '#a1b2c3', pin_to_top: true, desktop_notifications: true, audible_notifications: false, push_notifications: true,
      email_notifications: false, wildcard_mentions_notify: false, in_home_view: false, is_muted: true,
    };
    t.match(await subscriptionOf(hamlet, VERONA), expected);
    t.match(((await hamlet.post('/register', { fetch_event_types: ['subscription'] })).body.subscriptions as Record<string, unknown>[]).find((s) => s.stream_id === VERONA), expected);
    const restarted = await server.restart();
    t.teardown(() => restarted.destroy());
    const again = clientFor(restarted, 'hamlet@example.com');
    t.match(await subscriptionOf(again, VERONA), expected, 'kept across a restart');
    t.equal((await again.post('/users/me/subscriptions/properties', props(VERONA, 'is_muted', false))).status, 200);
    t.same((await take({ ...queue, api: again })).map((e) => [e.property, e.value]), [['in_home_view', true], ['is_muted', false]], 'a restored queue hears the change');
  });

  t.test('the rules; one bad item changes nothing', async (t) => {
    const { hamlet } = await world(t);
    const queue = await register(hamlet, { event_types: ['subscription'] });
    const before = await subscriptionOf(hamlet, VERONA);
    const cases: [unknown, unknown[]][] = [
      [props(VERONA, 'colour', '#ffffff'), bad('Unknown subscription property: colour')],
      [props(VERONA, 'color', 'red'), bad('color is not a valid hex color code')],
      [props(VERONA, 'color', '#12345g'), bad('color is not a valid hex color code')],
      [props(VERONA, 'color', 7), bad('color is not a valid hex color code')],
      [props(VERONA, 'pin_to_top', 'yes'), bad('pin_to_top is not a boolean')],
      [props(VERONA, 'is_muted', 1), bad('is_muted is not a boolean')],
      [props(VERONA, 'in_home_view', null), bad('in_home_view is not a boolean')],
      [props(VERONA, 'push_notifications', 'true'), bad('push_notifications is not a boolean')],
      [props(SCOTLAND, 'pin_to_top', true), bad(`Not subscribed to channel ID ${SCOTLAND}`)],
      [props(CORE_TEAM, 'pin_to_top', true), bad('Invalid channel ID')],
      [props(4242, 'pin_to_top', true), bad('Invalid channel ID')],
      [{ subscription_data: [{ stream_id: VERONA, property: 'pin_to_top' }] }, [400, 'BAD_REQUEST', 'value key is missing from subscription_data[0]']],
      [{ subscription_data: [{ stream_id: VERONA, property: 'pin_to_top', value: true }, { stream_id: VERONA, property: 'color', value: 'blue' }] }, bad('color is not a valid hex color code')],
      [{ subscription_data: [{ stream_id: VERONA, property: 'is_muted', value: true }, { stream_id: SCOTLAND, property: 'is_muted', value: true }] }, bad(`Not subscribed to channel ID ${SCOTLAND}`)],
    ];
    for (const [params, expected] of cases) t.same(error(await hamlet.post('/users/me/subscriptions/properties', params as Record<string, unknown>)), expected, JSON.stringify(params));
    t.same(await subscriptionOf(hamlet, VERONA), before, 'nothing changed, not even the items before the bad one');
    t.same(await take(queue), [], 'and no event was sent');
    t.equal((await hamlet.post('/users/me/subscriptions/properties', props(VERONA, 'color', '#ABC'))).status, 200, 'three hex digits are a colour');
  });

  t.test('the deprecated muted_topics endpoint: exactly one of stream_id and stream; idempotent; topics with no messages', async (t) => {
    const { server, hamlet } = await world(t);
    const queue = await register(hamlet, { event_types: ['user_topic'] });
    const mute = (params: Record<string, unknown>) => hamlet.patch('/users/me/subscriptions/muted_topics', params);
    t.same(error(await mute({ stream_id: VERONA, stream: 'Verona', topic: 'x', op: 'add' })), bad("Please choose one: 'stream' or 'stream_id'."));
    t.same(error(await mute({ topic: 'x', op: 'add' })), bad("Please supply 'stream'."));
    t.same(error(await mute({ stream: 'Atlantis', topic: 'x', op: 'add' })), bad("Invalid channel name 'Atlantis'"));
    t.same(error(await mute({ stream: 'core team', topic: 'x', op: 'add' })), bad("Invalid channel name 'core team'"), 'a private channel one is not in is as unknown');
    t.same(error(await mute({ stream_id: 4242, topic: 'x', op: 'add' })), bad('Invalid channel ID'));
    t.same(error(await mute({ stream_id: VERONA, topic: 'x', op: 'mute' })), bad('Invalid op'));
    t.same(await take(queue), [], 'refusals send nothing');

    t.equal((await mute({ stream_id: VERONA, topic: 'never written in', op: 'add' })).status, 200, 'a topic without messages may be muted');
    t.match(await take(queue), [{ type: 'user_topic', stream_id: VERONA, topic_name: 'never written in', visibility_policy: 1 }]);
    t.equal((await mute({ stream: 'Verona', topic: 'never written in', op: 'add' })).status, 200, 'muting again succeeds');
    t.same(await take(queue), [], 'and changes nothing');
    t.equal((await mute({ stream: 'Denmark', topic: 'not muted', op: 'remove' })).status, 200, 'unmuting what is not muted succeeds');
    t.same(await take(queue), []);
    await mute({ stream_id: DENMARK, topic: 'muted in Denmark', op: 'add' });
    await take(queue);

    const restarted = await server.restart();
    t.teardown(() => restarted.destroy());
    const again = clientFor(restarted, 'hamlet@example.com');
    const state = (await again.post('/register', { fetch_event_types: ['user_topic'] })).body.user_topics as Record<string, unknown>[];
    t.match(state.map(({ stream_id, topic_name, visibility_policy }) => ({ stream_id, topic_name, visibility_policy })).sort((a, b) => Number(a.stream_id) - Number(b.stream_id)), [
      { stream_id: VERONA, topic_name: 'never written in', visibility_policy: 1 },
      { stream_id: DENMARK, topic_name: 'muted in Denmark', visibility_policy: 1 },
    ], 'kept across a restart');
    const legacy = (await again.post('/register', { fetch_event_types: ['muted_topics'], event_types: ['muted_topics'] })).body.muted_topics as unknown[][];
    t.same(legacy.map(([channel, topic]) => [channel, topic]).sort(), [['Denmark', 'muted in Denmark'], ['Verona', 'never written in']], 'the legacy list for clients without user_topic');
    t.equal((await again.patch('/users/me/subscriptions/muted_topics', { stream_id: VERONA, topic: 'never written in', op: 'remove' })).status, 200);
    t.match(await take({ ...queue, api: again }), [{ type: 'user_topic', topic_name: 'never written in', visibility_policy: 0 }], 'a restored queue hears the change');
  });

  t.test('POST /user_topics and the narrows is:followed and is:muted', async (t) => {
    const { hamlet, othello } = await world(t);
    await hamlet.patch('/settings', { automatically_follow_topics_policy: 4 });
    const ids: Record<string, number> = {};
    for (const topic of ['followed', 'muted', 'plain']) ids[topic] = await send(othello, 'Verona', `in ${topic}`, topic);
    t.same(error(await hamlet.post('/user_topics', { stream_id: VERONA, topic: 'followed', visibility_policy: 5 })), bad('Invalid visibility_policy'));
    t.same(error(await hamlet.post('/user_topics', { stream_id: CORE_TEAM, topic: 'followed', visibility_policy: 3 })), bad('Invalid channel ID'));
    const queue = await register(hamlet, { event_types: ['user_topic'] });
    t.equal((await hamlet.post('/user_topics', { stream_id: VERONA, topic: 'followed', visibility_policy: 3 })).status, 200);
    t.equal((await hamlet.post('/user_topics', { stream_id: VERONA, topic: 'muted', visibility_policy: 1 })).status, 200);
    t.same((await take(queue)).map((e) => [e.topic_name, e.visibility_policy]), [['followed', 3], ['muted', 1]]);
    const narrow = (operand: string, negated = false) => fetchIds(hamlet, { anchor: NEWEST, num_before: 20, num_after: 0, narrow: JSON.stringify([{ operator: 'channel', operand: VERONA }, { operator: 'is', operand, negated }]) });
    t.same(await narrow('followed'), [ids.followed], 'is:followed');
    t.same(await narrow('muted'), [ids.muted], 'is:muted');
    t.notOk((await narrow('muted', true)).includes(ids.muted), '-is:muted leaves it out');
    // A muted channel mutes its topics, except those unmuted or followed.
    await hamlet.post('/users/me/subscriptions/properties', props(VERONA, 'is_muted', true));
    t.same((await narrow('muted')).filter((id) => Object.values(ids).includes(id)), [ids.muted, ids.plain], 'in a muted channel every topic is muted but the followed one');
    t.equal((await hamlet.post('/user_topics', { stream_id: VERONA, topic: 'plain', visibility_policy: 2 })).status, 200);
    t.same((await narrow('muted')).filter((id) => Object.values(ids).includes(id)), [ids.muted], 'an unmuted topic of a muted channel is not muted');
  });
});
