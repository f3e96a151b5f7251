/**
 * Bots through HTTP: creating the three kinds, listing, changing, regenerating keys,
 * deactivating and reactivating, with `realm_bot` and `realm_user` events on other queues,
 * `realm_bots` in register, the creation permissions, and everything kept across a restart.
 */
import { test } from 'tap';
import { Api } from '../helpers/client.js';
import { ofType, register, take, HAMLET, OTHELLO } from '../helpers/events.js';
import { error } from '../helpers/messages.js';
import { setRealm, world } from '../helpers/world.js';

test('bots', async (t) => {
  t.test('POST /bots: a generic bot, its key, its events, and realm_bots', async (t) => {
    const w = await world(t);
    const iagoQueue = await register(w.iago, { event_types: ['realm_bot', 'realm_user'] });
    const othelloQueue = await register(w.othello, { event_types: ['realm_bot', 'realm_user'] });
    const created = await w.hamlet.post('/bots', { full_name: 'Hamlet Helper', short_name: 'helper' });
    t.equal(created.status, 200, JSON.stringify(created.body));
    const { user_id: botId, api_key: key } = created.body;
    t.match(key, /^[A-Za-z0-9]{32}$/);
    t.same(Object.keys(created.body).sort(), ['api_key', 'avatar_url', 'default_all_public_streams', 'default_events_register_stream', 'default_sending_stream', 'msg', 'result', 'user_id']);
    const email = `helper-bot@${w.org.host}`;
    const adminEvents = await take(iagoQueue);
    const add = ofType(adminEvents, 'realm_bot')[0];
    t.same(add.op, 'add');
    t.same(add.bot, {
      email, user_id: botId, full_name: 'Hamlet Helper', bot_type: 1, is_active: true, api_key: key, default_sending_stream: null,
      default_events_register_stream: null, default_all_public_streams: false, avatar_url: add.bot.avatar_url, services: [], owner_id: HAMLET,
    });
    t.equal(ofType(adminEvents, 'realm_user')[0].person.bot_owner_id, HAMLET, 'realm_user add to everyone');
    const othelloEvents = await take(othelloQueue);
    t.same(ofType(othelloEvents, 'realm_bot'), [], 'a member who does not own the bot hears no realm_bot');
    t.equal(ofType(othelloEvents, 'realm_user')[0].person.user_id, botId);

    const bot = new Api(w.server.url, email, key);
    t.equal((await bot.get('/users/me')).body.user_id, botId, 'the bot authenticates with its key');
    const listed = await w.hamlet.get('/bots');
    t.same(listed.body.bots.map((b: any) => [b.username, b.full_name, b.api_key]), [[email, 'Hamlet Helper', key]]);
    t.same((await w.othello.get('/bots')).body.bots, [], 'GET /bots lists only the caller\'s own');
    const state = (u: Api) => u.post('/register', { fetch_event_types: ['realm_bot'] }).then((r) => r.body.realm_bots.map((b: any) => b.user_id));
    t.same(await state(w.hamlet), [botId]);
    t.same(await state(w.iago), [botId], 'administrators see every bot');
    t.same(await state(w.othello), []);
    const integrations = (await w.hamlet.post('/register', { fetch_event_types: ['realm_incoming_webhook_bots'] })).body.realm_incoming_webhook_bots;
    t.same(integrations.map((i: any) => i.name), ['github', 'slack_incoming'], 'the integrations this server has');

    t.same(error(await w.othello.post('/bots', { full_name: 'Other Helper', short_name: 'helper' })), [400, 'BAD_REQUEST', 'Username already in use']);
    t.same(error(await w.othello.post('/bots', { full_name: 'Hamlet Helper', short_name: 'other' })), [400, 'BAD_REQUEST', 'Name is already in use!']);
    t.same(error(await w.othello.post('/bots', { full_name: 'X Y', short_name: '  ' })), [400, 'BAD_REQUEST', 'Bad name or username']);
    t.same(error(await w.othello.post('/bots', { full_name: 'X Y', short_name: 'a b' })), [400, 'BAD_REQUEST', 'Bad name or username']);
    t.same(error(await w.othello.post('/bots', { full_name: 'X Y', short_name: 'xy', bot_type: 4 })), [400, 'BAD_REQUEST', 'Invalid bot type']);
    t.same(error(await w.polonius.post('/bots', { full_name: 'Guest Bot', short_name: 'guest' })), [400, 'BAD_REQUEST', 'Insufficient permission'], 'guests may not');

    const restarted = await w.server.restart();
    t.teardown(() => restarted.destroy());
    t.equal((await new Api(restarted.url, email, key).get('/users/me')).body.user_id, botId, 'kept across a restart');
    t.same((await new Api(restarted.url, w.hamlet.email, w.hamlet.apiKey).get('/bots')).body.bots.length, 1);
  });

  t.test('outgoing and incoming webhook bots: services, configuration, channels', async (t) => {
    const w = await world(t);
    const outgoing = await w.hamlet.post('/bots', { full_name: 'Echo', short_name: 'echo', bot_type: 3, payload_url: JSON.stringify('https://example.com/hook'), interface_type: 2 });
    t.equal(outgoing.status, 200, JSON.stringify(outgoing.body));
    const incoming = await w.hamlet.post('/bots', { full_name: 'Feed', short_name: 'feed', bot_type: 2, service_name: 'github', config_data: { secret: 's' }, default_sending_stream: 'Verona' });
    t.equal(incoming.status, 200, JSON.stringify(incoming.body));
    t.equal(incoming.body.default_sending_stream, 'Verona');
    const bots = (await w.hamlet.post('/register', { fetch_event_types: ['realm_bot'] })).body.realm_bots;
    const echo = bots.find((b: any) => b.user_id === outgoing.body.user_id);
    t.same(echo.services.map((s: any) => [s.base_url, s.interface]), [['https://example.com/hook', 2]]);
    t.match(echo.services[0].token, /^[A-Za-z0-9]{32}$/);
    t.equal(bots.find((b: any) => b.user_id === incoming.body.user_id).bot_type, 2);
    const hook = new Api(w.server.url, `feed-bot@${w.org.host}`, incoming.body.api_key);
    t.same(error(await hook.get('/users/me')), [401, 'UNAUTHORIZED', 'This API is not available to incoming webhook bots.'], 'an incoming webhook bot only sends');
    t.equal((await hook.post('/messages', { type: 'stream', to: 'Verona', topic: 'feed', content: 'sent with the key' })).status, 200);
    t.same(error(await w.hamlet.post('/bots', { full_name: 'Bad', short_name: 'bad', bot_type: 3, payload_url: JSON.stringify('not a url') })), [400, 'BAD_REQUEST', 'payload_url is not a URL']);
    t.same(error(await w.hamlet.post('/bots', { full_name: 'Bad', short_name: 'bad', bot_type: 3, payload_url: JSON.stringify('https://x.org'), interface_type: 9 })), [400, 'BAD_REQUEST', 'Invalid interface type']);
    t.same(error(await w.hamlet.post('/bots', { full_name: 'Bad', short_name: 'bad', default_sending_stream: 'core team' })), [400, 'BAD_REQUEST', "Invalid channel name 'core team'"], 'a private channel the owner is not in');

    const queue = await register(w.hamlet, { event_types: ['realm_bot'] });
    const changed = await w.hamlet.patch(`/bots/${outgoing.body.user_id}`, { service_payload_url: JSON.stringify('https://example.org/new'), service_interface: 1 });
    t.equal(changed.status, 200, JSON.stringify(changed.body));
    const update = (await take(queue))[0];
    t.same(update.bot.services.map((s: any) => [s.base_url, s.interface]), [['https://example.org/new', 1]]);
    const config = await w.hamlet.patch(`/bots/${incoming.body.user_id}`, { config_data: { secret: 't' } });
    t.equal(config.status, 200);
    t.same((await take(queue))[0].bot.services, [{ config_data: { integration_id: 'github', secret: 't' } }]);
  });

  t.test('can_create_bots_group and can_create_write_only_bots_group', async (t) => {
    const w = await world(t);
    const admins = w.org.realm.systemGroups['role:administrators'];
    const members = w.org.realm.systemGroups['role:members'];
    await setRealm(w.server, { can_create_bots_group: admins, can_create_write_only_bots_group: members } as never);
    t.same(error(await w.hamlet.post('/bots', { full_name: 'Generic', short_name: 'generic' })), [400, 'BAD_REQUEST', 'Insufficient permission']);
    t.equal((await w.hamlet.post('/bots', { full_name: 'Hook', short_name: 'hook', bot_type: 2 })).status, 200, 'write-only bots are still allowed');
    t.equal((await w.iago.post('/bots', { full_name: 'Admin Bot', short_name: 'admin', bot_type: 1 })).status, 200);
    await setRealm(w.server, { can_create_write_only_bots_group: admins } as never);
    t.same(error(await w.hamlet.post('/bots', { full_name: 'Hook Two', short_name: 'hook2', bot_type: 2 })), [400, 'BAD_REQUEST', 'Insufficient permission']);
  });

  t.test('PATCH /bots/{id}: name, owner, default channels; who may', async (t) => {
    const w = await world(t);
    const botId = (await w.hamlet.post('/bots', { full_name: 'Helper', short_name: 'helper' })).body.user_id;
    const hamletQueue = await register(w.hamlet, { event_types: ['realm_bot', 'realm_user'] });
    const othelloQueue = await register(w.othello, { event_types: ['realm_bot', 'realm_user'] });
    const iagoQueue = await register(w.iago, { event_types: ['realm_bot'] });
    t.same(error(await w.othello.patch(`/bots/${botId}`, { full_name: 'Mine' })), [400, 'BAD_REQUEST', 'Insufficient permission']);
    t.same(error(await w.othello.patch(`/bots/${HAMLET}`, { full_name: 'Mine' })), [400, 'BAD_REQUEST', 'No such bot']);
    const renamed = await w.hamlet.patch(`/bots/${botId}`, { full_name: 'Helper Two', default_sending_stream: 'Verona', default_all_public_streams: true });
    t.equal(renamed.status, 200, JSON.stringify(renamed.body));
    t.same([renamed.body.full_name, renamed.body.default_sending_stream, renamed.body.default_all_public_streams, renamed.body.bot_owner], ['Helper Two', 'Verona', true, 'hamlet@example.com']);
    const events = await take(hamletQueue);
    t.same(ofType(events, 'realm_bot').map((e) => e.bot), [
      { user_id: botId, full_name: 'Helper Two' },
      { user_id: botId, default_sending_stream: 'Verona' },
      { user_id: botId, default_all_public_streams: true },
    ]);
    t.same(ofType(await take(othelloQueue), 'realm_user').map((e) => e.person), [{ user_id: botId, full_name: 'Helper Two' }]);
    await take(iagoQueue);

    const moved = await w.iago.patch(`/bots/${botId}`, { bot_owner_id: OTHELLO });
    t.equal(moved.status, 200, JSON.stringify(moved.body));
    t.same(ofType(await take(hamletQueue), 'realm_bot').map((e) => [e.op, e.bot.user_id]), [['delete', botId]], 'the old owner loses it');
    const gained = await take(othelloQueue);
    t.same(ofType(gained, 'realm_bot').map((e) => [e.op, e.bot.owner_id]), [['add', OTHELLO]], 'the new owner gains it');
    t.same(ofType(gained, 'realm_user').map((e) => e.person), [{ user_id: botId, bot_owner_id: OTHELLO }]);
    t.same((await take(iagoQueue)).map((e) => [e.op, e.bot]), [['update', { user_id: botId, owner_id: OTHELLO }]]);
    t.same(error(await w.iago.patch(`/bots/${botId}`, { bot_owner_id: 9999 })), [400, 'BAD_REQUEST', 'Failed to change owner, no such user']);
    t.same(error(await w.othello.patch(`/bots/${botId}`, { role: 200 })), [400, 'BAD_REQUEST', 'Must be an organization administrator']);
    t.same(error(await w.iago.patch(`/bots/${botId}`, { role: 100 })), [400, 'BAD_REQUEST', 'Must be an organization owner']);
    t.equal((await w.iago.patch(`/bots/${botId}`, { role: 200 })).status, 200);
    const restarted = await w.server.restart();
    t.teardown(() => restarted.destroy());
    const after = restarted.services.org.users.get(botId)!;
    t.same([after.fullName, after.botOwnerId, after.role], ['Helper Two', OTHELLO, 200], 'kept across a restart');
  });

  t.test('keys, deactivation and reactivation', async (t) => {
    const w = await world(t);
    const created = (await w.hamlet.post('/bots', { full_name: 'Helper', short_name: 'helper' })).body;
    const email = `helper-bot@${w.org.host}`;
    const queue = await register(w.hamlet, { event_types: ['realm_bot'] });
    const everyoneQueue = await register(w.othello, { event_types: ['realm_user'] });
    const regenerated = await w.hamlet.post(`/bots/${created.user_id}/api_key/regenerate`);
    t.equal(regenerated.status, 200);
    t.not(regenerated.body.api_key, created.api_key);
    t.same((await take(queue))[0].bot, { user_id: created.user_id, api_key: regenerated.body.api_key });
    t.equal((await new Api(w.server.url, email, created.api_key).get('/users/me')).status, 401, 'the old key stops working');
    t.same(error(await w.othello.post(`/bots/${created.user_id}/api_key/regenerate`)), [400, 'BAD_REQUEST', 'Insufficient permission']);

    t.same(error(await w.othello.delete(`/bots/${created.user_id}`)), [400, 'BAD_REQUEST', 'Insufficient permission']);
    t.equal((await w.hamlet.delete(`/bots/${created.user_id}`)).status, 200);
    t.same((await take(queue))[0].bot, { user_id: created.user_id, is_active: false });
    t.same((await take(everyoneQueue))[0].person, { user_id: created.user_id, is_active: false });
    t.equal((await new Api(w.server.url, email, regenerated.body.api_key).get('/users/me')).status, 401);
    t.same((await w.hamlet.get('/bots')).body.bots, [], 'GET /bots lists active bots');
    t.same((await w.hamlet.post('/register', { fetch_event_types: ['realm_bot'] })).body.realm_bots.map((b: any) => b.is_active), [false], 'realm_bots keeps deactivated ones');

    t.same(error(await w.othello.post(`/users/${created.user_id}/reactivate`)), [400, 'BAD_REQUEST', 'Insufficient permission']);
    t.equal((await w.hamlet.post(`/users/${created.user_id}/reactivate`)).status, 200, 'the owner reactivates it');
    t.same((await take(queue))[0].bot, { user_id: created.user_id, is_active: true });
    t.equal((await new Api(w.server.url, email, regenerated.body.api_key).get('/users/me')).status, 200);

    // A bot's own key regeneration is told to its administrators too.
    const bot = new Api(w.server.url, email, regenerated.body.api_key);
    const own = await bot.post('/users/me/api_key/regenerate');
    t.same((await take(queue))[0].bot, { user_id: created.user_id, api_key: own.body.api_key });

    const restarted = await w.server.restart();
    t.teardown(() => restarted.destroy());
    t.equal((await new Api(restarted.url, email, own.body.api_key).get('/users/me')).status, 200, 'kept across a restart');
  });
});
