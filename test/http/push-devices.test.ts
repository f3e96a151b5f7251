/**
 * Black-box tests of push device registration: `POST /mobile_push/register` without a push service
 * (PUSH_SERVICE_NOT_CONFIGURED) and with one, against a fake push bouncer served by this test
 * (what it receives, what it answers: accepted, refused, down), the `push_device` events and
 * register state, and the deprecated APNs and FCM token endpoints; everything after a restart.
 */
import { test, t as root } from 'tap';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Api } from '../helpers/client.js';
import { clientFor } from '../helpers/server.js';
import { ofType, register, take } from '../helpers/events.js';
import { error } from '../helpers/messages.js';
import { world } from '../helpers/world.js';

interface BouncerRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  params: Record<string, string>;
}

/**
 * A Zulip-compatible bouncer: `push/e2ee/register` accepts, or refuses by `bouncer_public_key`;
 * `push/register` and `push/unregister` keep the deprecated tokens; or the whole bouncer is down.
 */
const received: BouncerRequest[] = [];
let down = false;
let nextDeviceId = 100;
/** The deprecated tokens the bouncer holds, as `user_uuid token_kind token`. */
const tokens = new Set<string>();
const bouncer = createServer((req: IncomingMessage, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    const params = Object.fromEntries(new URLSearchParams(body));
    // The server's own registration and metadata upload (notifications.test.ts checks those) are not counted here.
    if (req.url!.startsWith('/api/v1/remotes/server/')) return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: 'success', msg: '', realms: {} }));
    received.push({ method: req.method!, path: req.url!, authorization: req.headers.authorization, params });
    const answer = (status: number, json: Record<string, unknown>) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    if (down) return answer(502, { result: 'error', msg: 'Bad gateway', code: 'BAD_REQUEST' });
    if (req.url === '/api/v1/remotes/push/register') {
      tokens.add(`${params.user_uuid} ${params.token_kind} ${params.token}`);
      return answer(200, { result: 'success', msg: '' });
    }
    if (req.url === '/api/v1/remotes/push/unregister') {
      if (!tokens.delete(`${params.user_uuid} ${params.token_kind} ${params.token}`)) return answer(400, { result: 'error', msg: 'Token does not exist', code: 'BAD_REQUEST' });
      return answer(200, { result: 'success', msg: '' });
    }
    if (params.bouncer_public_key === 'invalid') return answer(400, { result: 'error', msg: 'Invalid bouncer_public_key', code: 'INVALID_BOUNCER_PUBLIC_KEY' });
    answer(200, { result: 'success', msg: '', device_id: nextDeviceId++ });
  });
});
await new Promise<void>((resolve) => bouncer.listen(0, '127.0.0.1', resolve));
root.teardown(() => new Promise<void>((resolve) => bouncer.close(() => resolve())));
const BOUNCER_ENV = {
  PARLEY_PUSH_BOUNCER_URL: `http://127.0.0.1:${(bouncer.address() as AddressInfo).port}/`,
  PARLEY_PUSH_BOUNCER_SERVER_UUID: '6cde5f7a-1f7e-4978-9716-49f69ebfc9fe',
  PARLEY_PUSH_BOUNCER_SERVER_KEY: 'server-secret',
};
const pushWorld = (t: Parameters<typeof world>[0]) => world(t, { env: BOUNCER_ENV });

const REGISTRATION = {
  token_kind: 'apns',
  push_account_id: 2408,
  push_public_key: 'MTaUDJDMWypQ1WufZ1NRTHSSvgYtXh1qVNSjN3aBiEFt',
  bouncer_public_key: 'bouncer-public-key',
  encrypted_push_registration: 'ZW5jcnlwdGVkIHJlZ2lzdHJhdGlvbg==',
};

const registerDevice = (api: Api, params: Record<string, unknown> = {}) => api.post('/mobile_push/register', { ...REGISTRATION, ...params });
const pushDevices = async (api: Api) => (await api.post('/register', { fetch_event_types: ['push_device'] })).body.push_devices;
const forwardedSince = (count: number) => received.slice(count);

test('POST /mobile_push/register without a push service', async (t) => {
  const { hamlet } = await world(t);
  t.same(error(await registerDevice(hamlet)), [400, 'PUSH_SERVICE_NOT_CONFIGURED', 'Server is not configured to use push notification service.']);
  t.same(await pushDevices(hamlet), {}, 'nothing stored');
});

test('POST /mobile_push/register with a push bouncer', async (t) => {
  t.test('stores the registration, forwards it to the bouncer, and tells the clients it is active', async (t) => {
    const { server, hamlet } = await pushWorld(t);
    const before = received.length;
    const second = await register(hamlet, { event_types: ['push_device'] });
    t.equal((await registerDevice(hamlet)).status, 200);
    const [forwarded, ...more] = forwardedSince(before);
    t.same(more, [], 'one request to the bouncer');
    t.equal(forwarded!.method, 'POST');
    t.equal(forwarded!.path, '/api/v1/remotes/push/e2ee/register');
    t.equal(forwarded!.authorization, `Basic ${Buffer.from('6cde5f7a-1f7e-4978-9716-49f69ebfc9fe:server-secret').toString('base64')}`, "the server's bouncer credentials");
    t.match(forwarded!.params.realm_uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    t.same({ ...forwarded!.params, realm_uuid: undefined }, {
      realm_uuid: undefined,
      push_account_id: '2408',
      encrypted_push_registration: REGISTRATION.encrypted_push_registration,
      bouncer_public_key: REGISTRATION.bouncer_public_key,
    });
    t.match(ofType(await take(second), 'push_device'), [{ type: 'push_device', push_account_id: '2408', status: 'active' }], 'a second queue of the same user hears of it');
    t.same(await pushDevices(hamlet), { 2408: { status: 'active', error_code: null } });

    const count = received.length;
    t.equal((await registerDevice(hamlet)).status, 200, 'registering an active device again');
    t.same(forwardedSince(count), [], 'is not forwarded again');
    t.same(ofType(await take(second), 'push_device'), [], 'and changes nothing');

    const restarted = await server.restart();
    t.teardown(() => restarted.destroy());
    t.same(await pushDevices(clientFor(restarted, 'hamlet@example.com')), { 2408: { status: 'active', error_code: null } }, 'kept across a restart');
  });

  t.test('registrations are per user and push account id; the realm is the same for both users', async (t) => {
    const { hamlet, othello } = await pushWorld(t);
    const before = received.length;
    await registerDevice(hamlet);
    await registerDevice(hamlet, { push_account_id: 5555, token_kind: 'fcm' });
    await registerDevice(othello);
    t.same(Object.keys(await pushDevices(hamlet)).sort(), ['2408', '5555']);
    t.same(Object.keys(await pushDevices(othello)), ['2408']);
    const realms = new Set(forwardedSince(before).map((r) => r.params.realm_uuid));
    t.equal(realms.size, 1);
  });

  t.test('a refusal by the bouncer is recorded as failed with its code; a good registration then succeeds', async (t) => {
    const { hamlet } = await pushWorld(t);
    const second = await register(hamlet, { event_types: ['push_device'] });
    t.equal((await registerDevice(hamlet, { bouncer_public_key: 'invalid' })).status, 200, 'the client is not told: the bouncer answers later in Zulip');
    t.match(ofType(await take(second), 'push_device'), [{ type: 'push_device', push_account_id: '2408', status: 'failed', error_code: 'INVALID_BOUNCER_PUBLIC_KEY' }]);
    t.same(await pushDevices(hamlet), { 2408: { status: 'failed', error_code: 'INVALID_BOUNCER_PUBLIC_KEY' } });
    t.equal((await registerDevice(hamlet)).status, 200);
    t.match(ofType(await take(second), 'push_device'), [{ type: 'push_device', push_account_id: '2408', status: 'active' }]);
    t.same(await pushDevices(hamlet), { 2408: { status: 'active', error_code: null } });
  });

  t.test('with the bouncer down the registration waits; registering again forwards it again', async (t) => {
    const { hamlet } = await pushWorld(t);
    const second = await register(hamlet, { event_types: ['push_device'] });
    down = true;
    t.teardown(() => (down = false));
    t.equal((await registerDevice(hamlet)).status, 200);
    t.same(await pushDevices(hamlet), { 2408: { status: 'pending', error_code: null } });
    t.same(ofType(await take(second), 'push_device'), []);
    down = false;
    const before = received.length;
    t.equal((await registerDevice(hamlet)).status, 200);
    t.equal(forwardedSince(before).length, 1);
    t.same(await pushDevices(hamlet), { 2408: { status: 'active', error_code: null } });
  });

  t.test('every parameter is required and checked; refusals store and forward nothing', async (t) => {
    const { hamlet } = await pushWorld(t);
    const before = received.length;
    for (const name of Object.keys(REGISTRATION)) {
      const params: Record<string, unknown> = { ...REGISTRATION };
      delete params[name];
      t.same(error(await hamlet.post('/mobile_push/register', params)), [400, 'REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`]);
    }
    t.same(error(await registerDevice(hamlet, { token_kind: 'gcm' })), [400, 'BAD_REQUEST', 'Invalid token_kind']);
    t.same(error(await registerDevice(hamlet, { push_account_id: 'abc' })), [400, 'BAD_REQUEST', 'push_account_id is not valid JSON']);
    t.same(error(await registerDevice(hamlet, { push_account_id: 1.5 })), [400, 'BAD_REQUEST', 'push_account_id is not an integer']);
    for (const bad of ['push-public-key', 'abc', '', 'YWJj\n', 'YW=j']) {
      t.same(error(await registerDevice(hamlet, { push_public_key: bad })), [400, 'BAD_REQUEST', 'Invalid push_public_key'], `push_public_key ${JSON.stringify(bad)}`);
    }
    t.same(error(await registerDevice(hamlet, { encrypted_push_registration: 'not base64!' })), [400, 'BAD_REQUEST', 'Invalid encrypted_push_registration']);
    t.same(forwardedSince(before), [], 'nothing reached the bouncer');
    t.same(await pushDevices(hamlet), {}, 'nothing stored');
  });
});

test('deprecated device tokens', async (t) => {
  t.test('APNs and FCM tokens are stored per user, removed, and kept across a restart', async (t) => {
    const { server, hamlet, othello } = await world(t);
    t.equal((await hamlet.post('/users/me/apns_device_token', { token: 'c0ffee', appid: 'org.zulip.Zulip' })).status, 200);
    t.equal((await hamlet.post('/users/me/apns_device_token', { token: 'c0ffee', appid: 'org.zulip.Zulip' })).status, 200, 'again: idempotent');
    t.equal((await hamlet.post('/users/me/android_gcm_reg_id', { token: 'android-token' })).status, 200);
    t.same(error(await othello.delete('/users/me/apns_device_token', { token: 'c0ffee' })), [400, 'BAD_REQUEST', 'Token does not exist'], "another user's token is not theirs to remove");
    t.same(error(await hamlet.delete('/users/me/android_gcm_reg_id', { token: 'c0ffee' })), [400, 'BAD_REQUEST', 'Token does not exist'], 'an APNs token is no FCM token');
    const restarted = await server.restart();
    t.teardown(() => restarted.destroy());
    const again = clientFor(restarted, 'hamlet@example.com');
    t.equal((await again.delete('/users/me/apns_device_token', { token: 'c0ffee' })).status, 200, 'kept across a restart');
    t.equal((await again.delete('/users/me/android_gcm_reg_id', { token: 'android-token' })).status, 200);
    t.same(error(await again.delete('/users/me/apns_device_token', { token: 'c0ffee' })), [400, 'BAD_REQUEST', 'Token does not exist'], 'removed');
  });

  t.test('empty, too long and invalid tokens are refused, changing nothing', async (t) => {
    const { hamlet } = await world(t);
    const LENGTH = [400, 'BAD_REQUEST', 'Empty or invalid length token'];
    for (const path of ['/users/me/apns_device_token', '/users/me/android_gcm_reg_id']) {
      const extra = path.includes('apns') ? { appid: 'org.zulip.Zulip' } : {};
      t.same(error(await hamlet.post(path, { token: '', ...extra })), LENGTH, `${path}: empty`);
      t.same(error(await hamlet.post(path, { token: 'a'.repeat(4097), ...extra })), LENGTH, `${path}: too long`);
      t.same(error(await hamlet.delete(path, { token: '' })), LENGTH, `${path}: DELETE empty`);
      t.same(error(await hamlet.post(path, extra)), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'token' argument"]);
    }
    t.same(error(await hamlet.post('/users/me/apns_device_token', { token: 'not-hex', appid: 'org.zulip.Zulip' })), [400, 'BAD_REQUEST', 'Invalid APNS token']);
    t.same(error(await hamlet.post('/users/me/apns_device_token', { token: 'c0ffe', appid: 'org.zulip.Zulip' })), [400, 'BAD_REQUEST', 'Invalid APNS token'], 'an odd number of hex digits');
    t.same(error(await hamlet.delete('/users/me/apns_device_token', { token: 'zz' })), [400, 'BAD_REQUEST', 'Invalid APNS token']);
    t.same(error(await hamlet.post('/users/me/apns_device_token', { token: 'c0ffee' })), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'appid' argument"]);
    t.equal((await hamlet.post('/users/me/android_gcm_reg_id', { token: 'a'.repeat(4096) })).status, 200, 'FCM tokens are any text up to 4096 characters');
    t.same(error(await hamlet.delete('/users/me/apns_device_token', { token: 'c0ffee' })), [400, 'BAD_REQUEST', 'Token does not exist'], 'no refused token was stored');
  });

  t.test('with a bouncer, tokens are registered and unregistered there; its refusals reach the client', async (t) => {
    const { server, hamlet, othello } = await pushWorld(t);
    const before = received.length;
    t.equal((await hamlet.post('/users/me/apns_device_token', { token: 'c0ffee', appid: 'org.zulip.Zulip' })).status, 200);
    t.equal((await hamlet.post('/users/me/android_gcm_reg_id', { token: 'android-token' })).status, 200);
    const [apns, fcm, ...more] = forwardedSince(before);
    t.same(more, []);
    t.equal(apns!.path, '/api/v1/remotes/push/register');
    t.match(apns!.params, { user_id: String(server.services.org.users.byEmail('hamlet@example.com')!.id), token: 'c0ffee', token_kind: '1', ios_app_id: 'org.zulip.Zulip' });
    t.match(apns!.params.user_uuid, /^[0-9a-f-]{36}$/);
    t.match(fcm!.params, { token: 'android-token', token_kind: '2' });
    t.notOk('ios_app_id' in fcm!.params, 'no app id for FCM');
    t.same(error(await othello.delete('/users/me/apns_device_token', { token: 'c0ffee' })), [400, 'BAD_REQUEST', 'Token does not exist'], "the bouncer knows othello has no such token");
    t.equal((await hamlet.delete('/users/me/apns_device_token', { token: 'c0ffee' })).status, 200);
    t.equal(forwardedSince(before).at(-1)!.path, '/api/v1/remotes/push/unregister');
    t.same(error(await hamlet.delete('/users/me/apns_device_token', { token: 'c0ffee' })), [400, 'BAD_REQUEST', 'Token does not exist'], 'gone at the bouncer too');
    down = true;
    t.teardown(() => (down = false));
    t.same(error(await hamlet.post('/users/me/android_gcm_reg_id', { token: 'another-token' })), [502, 'BAD_REQUEST', 'Received 502 from push notification bouncer']);
    down = false;
    t.equal((await hamlet.delete('/users/me/android_gcm_reg_id', { token: 'another-token' })).status, 400, 'the bouncer never got it, and says so when asked to forget it');
  });
});
