/**
 * Black-box tests of reading channels: the demo organization's channels, GET /streams (who sees
 * which), GET /streams/{stream_id}, GET /get_stream_id and GET /users/me/{stream_id}/topics.
 * Every subtest has its own demo organization.
 */
import { test } from 'tap';
import { world } from '../helpers/world.js';
import { CORE_TEAM, DENMARK, GENERAL, MISSING_SETTING, MODERATION, SCOTLAND, STREAM_FIELDS, VERONA, names } from '../helpers/channel-fields.js';


test('channels', async (t) => {
  t.test("the demo organization's channels and subscriptions are real ones", async (t) => {
    const { server, org, iago, othello, polonius } = await world(t);
    const channels = [...org.channels.all()].map((c) => [c.id, c.name, c.inviteOnly]);
    t.same(channels, [
      [GENERAL, 'general', false], [VERONA, 'Verona', false], [DENMARK, 'Denmark', false],
      [SCOTLAND, 'Scotland', false], [CORE_TEAM, 'core team', true], [MODERATION, 'moderation', true],
    ]);
    const subscribers = (id: number) => [...server.services.subscriptions.subscribersOf(id)].sort((a, b) => a - b);
    t.same(subscribers(GENERAL), [1, 2, 3, 4, 5, 6, 7]);
    t.same(subscribers(VERONA), [1, 2, 3, 4, 5, 6, 7, 8]);
    t.same(subscribers(DENMARK), [1, 2, 3, 4, 5, 6, 7]);
    t.same(subscribers(SCOTLAND), [5, 6]);
    t.same(subscribers(CORE_TEAM), [1, 2]);
    t.same(subscribers(MODERATION), [1, 2, 3]);
    t.equal(org.realm.settings.moderation_request_channel_id, MODERATION, 'moderation is the moderation request channel');

    const mine = (await othello.get('/users/me/subscriptions')).body.subscriptions;
    t.same(names(mine), ['Denmark', 'Scotland', 'Verona', 'general'], "sorted by name as Python sorts (code points: capitals first)");
    t.same(names((await polonius.get('/users/me/subscriptions')).body.subscriptions), ['Verona']);
    t.same(names((await iago.get('/users/me/subscriptions')).body.subscriptions), ['Denmark', 'Verona', 'core team', 'general', 'moderation']);
  });

  t.test('GET /streams: who sees which channels', async (t) => {
    const { iago, shiva, hamlet, polonius } = await world(t);
    const member = await hamlet.get('/streams');
    t.equal(member.status, 200);
    t.same(names(member.body.streams), ['Denmark', 'Scotland', 'Verona', 'general'], 'public channels, sorted by name; no private ones');
    const scotland = member.body.streams.find((s: any) => s.name === 'Scotland');
    t.same(Object.keys(scotland).filter((k) => k !== MISSING_SETTING).sort(), [...STREAM_FIELDS].sort());
    t.notOk(MISSING_SETTING in scotland, `${MISSING_SETTING} (feature level 441) is not sent at 416`);
    t.equal(scotland.subscriber_count, 2);
    t.notOk('is_default' in scotland);

    t.same(names((await iago.get('/streams')).body.streams), ['Denmark', 'Scotland', 'Verona', 'core team', 'general', 'moderation'], 'an admin sees the private channels he is in');
    t.same(names((await shiva.get('/streams')).body.streams), ['Denmark', 'Scotland', 'Verona', 'general', 'moderation']);
    t.same(names((await shiva.get('/streams', { include_all: true })).body.streams), ['Denmark', 'Scotland', 'Verona', 'general', 'moderation'], 'a moderator does not see other private channels');
    t.same(names((await hamlet.get('/streams', { include_all: true })).body.streams), ['Denmark', 'Scotland', 'Verona', 'general']);
    t.same(names((await polonius.get('/streams')).body.streams), ['Verona'], 'a guest sees only his channels');
    t.same(names((await polonius.get('/streams', { include_all: true, include_public: true })).body.streams), ['Verona']);
    t.same(names((await hamlet.get('/streams', { include_public: false })).body.streams), ['Denmark', 'Verona', 'general'], 'only subscribed ones');
    t.same(names((await hamlet.get('/streams', { include_public: false, include_subscribed: false })).body.streams), []);
    const defaults = await hamlet.get('/streams', { include_default: true });
    t.same(defaults.body.streams.map((s: any) => [s.name, s.is_default]), [['Denmark', false], ['Scotland', false], ['Verona', false], ['general', true]]);
  });

  t.test('GET /streams/{stream_id} and GET /get_stream_id', async (t) => {
    const { desdemona, iago, hamlet, polonius } = await world(t);
    const one = await hamlet.get(`/streams/${DENMARK}`);
    t.equal(one.status, 200);
    const listed = (await hamlet.get('/streams')).body.streams.find((s: any) => s.stream_id === DENMARK);
    t.same(one.body.stream, listed, 'the same object as in the list');
    t.same([(await hamlet.get('/streams/999')).status, (await hamlet.get('/streams/999')).body.msg], [400, 'Invalid channel ID']);
    t.equal((await hamlet.get(`/streams/${CORE_TEAM}`)).body.msg, 'Invalid channel ID');
    t.equal((await desdemona.get(`/streams/${CORE_TEAM}`)).body.stream.name, 'core team');
    t.equal((await polonius.get(`/streams/${SCOTLAND}`)).body.msg, 'Invalid channel ID', 'a guest cannot see a public channel he is not in');
    t.equal((await polonius.get(`/streams/${VERONA}`)).body.stream.name, 'Verona');

    t.same((await hamlet.get('/get_stream_id', { stream: 'Denmark' })).body, { result: 'success', msg: '', stream_id: DENMARK });
    t.equal((await hamlet.get('/get_stream_id', { stream: 'dEnMaRk' })).body.stream_id, DENMARK, 'case-insensitive');
    const unknown = await hamlet.get('/get_stream_id', { stream: 'nonexistent' });
    t.same([unknown.status, unknown.body.code, unknown.body.msg], [400, 'BAD_REQUEST', "Invalid channel name 'nonexistent'"]);
    t.equal((await hamlet.get('/get_stream_id', { stream: 'core team' })).body.msg, "Invalid channel name 'core team'");
    t.equal((await iago.get('/get_stream_id', { stream: 'core team' })).body.stream_id, CORE_TEAM);
    t.equal((await polonius.get('/get_stream_id', { stream: 'Scotland' })).body.msg, "Invalid channel name 'Scotland'");
    const missing = await hamlet.get('/get_stream_id');
    t.same([missing.body.code, missing.body.msg], ['REQUEST_VARIABLE_MISSING', "Missing 'stream' argument"]);
  });

  t.test('GET /users/me/{stream_id}/topics', async (t) => {
    const { org, iago, hamlet, othello, prospero, polonius } = await world(t);
    // Elsinore as the subscription subtests leave it: created by hamlet, othello and cordelia added.
    t.equal((await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Elsinore', description: 'The castle of Denmark' }] })).status, 200);
    t.equal((await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Elsinore' }], principals: [5, 6] })).status, 200);
    const send = (client: typeof hamlet, to: string, topic: string) => client.post('/messages', { type: 'stream', to, topic, content: 'hi' });
    const fresh = org.channels.byName('Elsinore')!;
    t.same((await hamlet.get(`/users/me/${fresh.id}/topics`)).body, { result: 'success', msg: '', topics: [] });
    const a = (await send(hamlet, 'Elsinore', 'Ghost')).body.id;
    const b = (await send(othello, 'Elsinore', 'play')).body.id;
    const c = (await send(hamlet, 'Elsinore', '')).body.id;
    const d = (await send(hamlet, 'Elsinore', 'ghost')).body.id;
    t.ok(a < b && b < c && c < d);
    const topics = await othello.get(`/users/me/${fresh.id}/topics`);
    t.same(topics.body.topics, [
      { name: 'ghost', max_id: d },
      { name: 'general chat', max_id: c },
      { name: 'play', max_id: b },
    ], 'newest first, one entry per topic in its latest casing; the empty topic by its display name');
    const raw = await othello.get(`/users/me/${fresh.id}/topics`, { allow_empty_topic_name: true });
    t.same(raw.body.topics.map((x: any) => x.name), ['ghost', '', 'play']);
    t.equal((await prospero.get(`/users/me/${fresh.id}/topics`)).status, 200, 'any member may read a public channel');
    t.equal((await polonius.get(`/users/me/${fresh.id}/topics`)).body.msg, 'Invalid channel ID', 'not a guest outside it');
    t.equal((await hamlet.get('/users/me/999/topics')).body.msg, 'Invalid channel ID');
    t.equal((await hamlet.get(`/users/me/${CORE_TEAM}/topics`)).body.msg, 'Invalid channel ID');
    t.equal((await iago.get(`/users/me/${CORE_TEAM}/topics`)).status, 200);

    // A private channel with protected history lists only the topics of messages one received.
    await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Yorick' }], invite_only: true });
    const yorick = org.channels.byName('Yorick')!;
    await send(hamlet, 'Yorick', 'before');
    await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Yorick' }], principals: [5] });
    const after = (await send(hamlet, 'Yorick', 'after')).body.id;
    t.same((await hamlet.get(`/users/me/${yorick.id}/topics`)).body.topics.map((x: any) => x.name), ['after', 'before']);
    t.same((await othello.get(`/users/me/${yorick.id}/topics`)).body.topics, [{ name: 'after', max_id: after }], 'not the topics from before he joined');
  });
});
