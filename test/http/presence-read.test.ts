/**
 * Reading presence and video calls through HTTP: `GET /users/{user_id_or_email}/presence`,
 * `GET /realm/presence` (kept across a restart), and `GET /calls/bigbluebutton/create` with and
 * without a BigBlueButton server.
 */
import { test } from 'tap';
import { Api } from '../helpers/client.js';
import { BOT, HAMLET, OTHELLO } from '../helpers/demo-ids.js';
import { error } from '../helpers/messages.js';
import { world } from '../helpers/world.js';

test('presence reads', async (t) => {
  t.test('one user and the whole organization', async (t) => {
    const w = await world(t, { clockStart: Date.UTC(2026, 0, 1, 12) });
    t.equal((await w.hamlet.post('/users/me/presence', { status: 'active' })).status, 200);
    const byId = await w.othello.get(`/users/${HAMLET}/presence`);
    t.equal(byId.status, 200, JSON.stringify(byId.body));
    t.same(byId.body.presence, { aggregated: { status: 'active', timestamp: w.seconds() }, website: { status: 'active', timestamp: w.seconds() } });
    const byEmail = await w.othello.get('/users/hamlet@example.com/presence');
    t.same(byEmail.body.presence, byId.body.presence, 'by email too');
    w.advance(600);
    t.equal((await w.othello.get(`/users/${HAMLET}/presence`)).body.presence.aggregated.status, 'offline', 'stale presence reads offline');
    t.same(error(await w.hamlet.get(`/users/${OTHELLO}/presence`)), [400, 'BAD_REQUEST', `No presence data for ${OTHELLO}`]);
    t.same(error(await w.hamlet.get('/users/99999/presence')), [400, 'BAD_REQUEST', 'No such user']);
    t.same(error(await w.hamlet.get('/users/nobody@example.com/presence')), [400, 'BAD_REQUEST', 'No such user']);
    const bot = (await w.hamlet.post('/bots', { full_name: 'Helper', short_name: 'helper' })).body.user_id;
    t.same(error(await w.hamlet.get(`/users/${bot}/presence`)), [400, 'BAD_REQUEST', 'Presence is not supported for bot users.']);
    t.same(error(await w.hamlet.get(`/users/${BOT}/presence`)), [400, 'BAD_REQUEST', 'No such user'], 'the system bots are not users here');

    const realm = await w.othello.get('/realm/presence');
    t.equal(realm.status, 200);
    t.same(Object.keys(realm.body.presences), ['hamlet@example.com']);
    // The legacy form: Zulip's /realm/presence does not turn stale entries into `offline`.
    t.same(realm.body.presences['hamlet@example.com'].aggregated.status, 'active');
    t.type(realm.body.server_timestamp, 'number');
    t.notOk('presence_last_update_id' in realm.body, 'Zulip leaves presence_last_update_id out of this answer');
    const restarted = await w.server.restart();
    t.teardown(() => restarted.destroy());
    // The presence book is held in memory (store/presence-book.ts): after a restart it fills again.
    t.equal((await new Api(restarted.url, w.othello.email, w.othello.apiKey).post('/users/me/presence', { status: 'idle' })).status, 200);
    const again = await new Api(restarted.url, w.hamlet.email, w.hamlet.apiKey).get(`/users/${OTHELLO}/presence`);
    t.same(again.body.presence.aggregated.status, 'idle', 'answers after a restart');
  });

  t.test('GET /calls/bigbluebutton/create', async (t) => {
    const w = await world(t);
    t.same(error(await w.hamlet.get('/calls/bigbluebutton/create', { meeting_name: 'standup' })), [400, 'BAD_REQUEST', 'BigBlueButton is not configured.']);
    t.same(error(await w.hamlet.get('/calls/bigbluebutton/create')), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'meeting_name' argument"]);
    const configured = await w.server.restart({ PARLEY_BIG_BLUE_BUTTON_URL: 'https://bbb.example.com/bigbluebutton/', PARLEY_BIG_BLUE_BUTTON_SECRET: 'secret' });
    t.teardown(() => configured.destroy());
    const hamlet = new Api(configured.url, w.hamlet.email, w.hamlet.apiKey);
    const made = await hamlet.get('/calls/bigbluebutton/create', { meeting_name: 'standup', voice_only: true });
    t.equal(made.status, 200, JSON.stringify(made.body));
    t.match(made.body.url, /^\/calls\/bigbluebutton\/join\?bigbluebutton=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const payload = JSON.parse(Buffer.from(decodeURIComponent(made.body.url.split('=')[1]).split('.')[0]!, 'base64url').toString());
    t.match(payload, { name: 'standup', lock_settings_disable_cam: true, moderator: HAMLET });
    t.match(payload.meeting_id, /^zulip-\d{12}$/);
    const second = await hamlet.get('/calls/bigbluebutton/create', { meeting_name: 'standup' });
    t.not(second.body.url, made.body.url, 'each call is a new meeting');
  });
});
