/** Black-box tests of the foundation through HTTP: routing, envelope, parameters, authentication, users, limits, restart. */
import { test } from 'tap';
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Api, login } from '../helpers/client.js';
import { clientFor, freePort, startTestServer, tempDataDir } from '../helpers/server.js';
import { EmailVisibility } from '../../src/domain/users.js';
import { Transaction } from '../../src/store/transaction.js';

const require = createRequire(import.meta.url);
const zulip = require('zulip-js') as (config: Record<string, string>) => Promise<any>;

test('foundation over HTTP', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.destroy());
  const anonymous = new Api(server.url);
  const iago = clientFor(server, 'iago@example.com');
  const hamlet = clientFor(server, 'hamlet@example.com');
  const org = server.services.org;

  t.test('ready line and the demo organization', async (t) => {
    t.same(server.printed.at(-1), `Parley listening on ${server.url}`);
    const users = [...org.users.all()];
    t.equal(users.length, 9, 'eight people and the notification bot');
    t.same(users.map((u) => [u.deliveryEmail, u.role]).slice(0, 8), [
      ['desdemona@example.com', 100],
      ['iago@example.com', 200],
      ['shiva@example.com', 300],
      ['hamlet@example.com', 400],
      ['othello@example.com', 400],
      ['cordelia@example.com', 400],
      ['prospero@example.com', 400],
      ['polonius@example.com', 600],
    ]);
    t.ok(users.every((u) => u.passwordHash === null || u.passwordHash.startsWith('scrypt$')), 'passwords are stored hashed');
  });

  t.test('routing: 404, 405, OPTIONS, HEAD', async (t) => {
    const missing = await anonymous.get('/no/such/endpoint');
    t.equal(missing.status, 404);
    t.same(missing.body, { result: 'error', msg: 'Not Found', code: 'NOT_FOUND' });
    const outside = await fetch(`${server.url}/elsewhere`);
    t.equal(outside.status, 404, 'paths outside /api/v1 are unknown too');
    t.equal(((await outside.json()) as any).code, 'NOT_FOUND');

    const wrongMethod = await anonymous.request('PUT', '/server_settings');
    t.equal(wrongMethod.status, 405);
    t.same(wrongMethod.body, { result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET', 'HEAD'] });
    t.equal(wrongMethod.headers.get('allow'), 'GET, HEAD');
    const wrongOnPost = await anonymous.request('GET', '/fetch_api_key');
    t.same(wrongOnPost.body.allowed_methods, ['POST']);

    const options = await fetch(`${server.url}/api/v1/users`, { method: 'OPTIONS' });
    t.equal(options.status, 204);
    t.equal(options.headers.get('allow'), 'GET, HEAD, POST');
    const both = await anonymous.request('PUT', '/users');
    t.same(both.body.allowed_methods, ['GET', 'POST', 'HEAD'], 'HEAD follows the methods, as Zulip lists it');

    const head = await fetch(`${server.url}/api/v1/users/me`, { method: 'HEAD', headers: { authorization: iago.authorization! } });
    t.equal(head.status, 200, 'HEAD is served by GET');
    t.equal(await head.text(), '', 'without a body');
    t.ok(Number(head.headers.get('content-length')) > 0, 'but with the length GET would send');
  });

  t.test('authentication errors', async (t) => {
    const none = await anonymous.get('/users/me');
    t.equal(none.status, 401);
    t.same(none.body, { result: 'error', msg: 'Not logged in: API authentication or user session required', code: 'UNAUTHORIZED' });
    t.equal(none.headers.get('www-authenticate'), 'Basic realm="zulip"');

    const wrongKey = await anonymous.as('iago@example.com', 'x'.repeat(32)).get('/users/me');
    t.equal(wrongKey.status, 401);
    t.same(wrongKey.body, { result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' }, 'as Zulip: every credential error is UNAUTHORIZED');
    t.equal(wrongKey.headers.get('www-authenticate'), 'Basic realm="zulip"');
    const unknownUser = await anonymous.as('nobody@example.com', 'x'.repeat(32)).get('/users/me');
    t.same(unknownUser.body, wrongKey.body, 'an unknown user looks like a wrong key');
    const malformed = await anonymous.as('iago@example.com', 'short').get('/users/me');
    t.same([malformed.status, malformed.body.code, malformed.body.msg], [401, 'UNAUTHORIZED', 'Malformed API key']);
    const bearer = await anonymous.request('GET', '/users/me', {}, { authorization: 'Bearer abc' });
    t.same([bearer.status, bearer.body.msg], [400, 'This endpoint requires HTTP basic authentication.']);
    const garbage = await anonymous.request('GET', '/users/me', {}, { authorization: 'Basic !!!' });
    t.same([garbage.status, garbage.body.code, garbage.body.msg], [401, 'UNAUTHORIZED', 'Invalid authorization header for basic auth']);
    const caseInsensitive = await anonymous.request('GET', '/users/me', {}, { AUTHORIZATION: iago.authorization! });
    t.equal(caseInsensitive.status, 200, 'header names match in any case');
    const upperEmail = await anonymous.as('IAGO@example.com', iago.apiKey!).get('/users/me');
    t.equal(upperEmail.status, 200, 'emails match case-insensitively');

    const prospero = org.users.byEmail('prospero@example.com')!;
    const client = clientFor(server, 'prospero@example.com');
    const tx = new Transaction();
    org.users.save({ ...prospero, isActive: false }, tx);
    await server.services.commit(tx);
    const deactivated = await client.get('/users/me');
    t.same([deactivated.status, deactivated.body.code, deactivated.body.msg], [401, 'UNAUTHORIZED', 'Account is deactivated']);
    const loginDeactivated = await anonymous.post('/fetch_api_key', { username: 'prospero@example.com', password: 'wrong' });
    t.same([loginDeactivated.status, loginDeactivated.body.code], [401, 'USER_DEACTIVATED'], 'reported even with a wrong password, as Zulip does');
    const tx2 = new Transaction();
    org.users.save({ ...org.users.get(prospero.id)!, isActive: true }, tx2);
    org.saveRealm({ ...org.realm, deactivated: true }, tx2);
    await server.services.commit(tx2);
    const realmGone = await client.get('/users/me');
    t.same([realmGone.status, realmGone.body.code, realmGone.body.msg], [401, 'UNAUTHORIZED', 'This organization has been deactivated']);
    const tx3 = new Transaction();
    org.saveRealm({ ...org.realm, deactivated: false }, tx3);
    await server.services.commit(tx3);
    t.equal((await client.get('/users/me')).status, 200);
  });

  t.test('POST /fetch_api_key', async (t) => {
    const ok = await anonymous.post('/fetch_api_key', { username: 'hamlet@example.com', password: 'parley-demo' });
    t.equal(ok.status, 200);
    t.same(ok.body, { result: 'success', msg: '', api_key: hamlet.apiKey, email: 'hamlet@example.com', user_id: 4 });
    const wrong = await anonymous.post('/fetch_api_key', { username: 'hamlet@example.com', password: 'nope' });
    t.equal(wrong.status, 401);
    t.same(wrong.body, { result: 'error', msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' });
    const unknown = await anonymous.post('/fetch_api_key', { username: 'ghost@example.com', password: 'nope' });
    t.same(unknown.body, wrong.body, 'reveals nothing about whether the user exists');
    const bot = await anonymous.post('/fetch_api_key', { username: 'notification-bot@example.com', password: '' });
    t.same(bot.body, wrong.body, 'bots have no password');
    const missing = await anonymous.post('/fetch_api_key', { username: 'hamlet@example.com' });
    t.same(missing.body, { result: 'error', msg: "Missing 'password' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'password' });
    const notEmail = await anonymous.post('/fetch_api_key', { username: 'hamlet', password: 'x' });
    t.same([notEmail.status, notEmail.body.msg], [400, 'Enter a valid email address.']);

    // Built by hand: zulip-js (loaded above) replaces the global FormData with a stream-based one.
    const boundary = '----parley-test-boundary';
    const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const multipart = await fetch(`${server.url}/api/v1/fetch_api_key`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: part('username', 'hamlet@example.com') + part('password', 'parley-demo') + `--${boundary}--\r\n`,
    });
    t.equal(((await multipart.json()) as any).api_key, hamlet.apiKey, 'multipart/form-data bodies are read');
    const both = await fetch(`${server.url}/api/v1/fetch_api_key?username=hamlet%40example.com`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'password=parley-demo',
    });
    t.equal(((await both.json()) as any).api_key, hamlet.apiKey, 'parameters come from the query string and the body alike');
  });

  t.test('GET /users', async (t) => {
    const response = await hamlet.get('/users');
    t.equal(response.status, 200);
    const members = response.body.members as any[];
    t.equal(members.length, 8, 'system bots are not listed');
    const iagoJson = members.find((m) => m.user_id === 2);
    t.same(Object.keys(iagoJson).sort(), [
      'avatar_url', 'avatar_version', 'bot_type', 'date_joined', 'delivery_email', 'email', 'full_name', 'is_active',
      'is_admin', 'is_bot', 'is_guest', 'is_owner', 'role', 'timezone', 'user_id',
    ]);
    t.match(iagoJson, { email: 'iago@example.com', delivery_email: 'iago@example.com', full_name: 'Iago', role: 200, is_admin: true, is_owner: false, is_guest: false, is_bot: false, bot_type: null, is_active: true, timezone: '' });
    t.match(iagoJson.date_joined, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$/);
    t.equal(iagoJson.avatar_url, null, 'client_gravatar defaults to true');
    const withUrls = await hamlet.get('/users', { client_gravatar: false });
    t.match(withUrls.body.members[1].avatar_url, /^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/);

    const some = await hamlet.get('/users', { user_ids: [1, 8], include_custom_profile_fields: true });
    t.same(some.body.members.map((m: any) => m.user_id), [1, 8]);
    t.same(some.body.members[0].profile_data, {});
    const badId = await hamlet.get('/users', { user_ids: [1, 999] });
    t.same([badId.status, badId.body.msg], [400, 'Invalid user ID: 999']);

    const notList = await hamlet.get('/users', { user_ids: 5 });
    t.same(notList.body, { result: 'error', msg: 'user_ids is not a list', code: 'BAD_REQUEST', var_name: 'user_ids' });
    const notJson = await hamlet.request('GET', '/users?user_ids=%5B1');
    t.equal(notJson.body.msg, 'user_ids is not valid JSON');
    const notInts = await hamlet.get('/users', { user_ids: ['a'] });
    t.equal(notInts.body.msg, 'user_ids[0] is not an integer');
    const notBool = await hamlet.get('/users', { client_gravatar: 'maybe' });
    t.equal(notBool.body.msg, 'client_gravatar is not valid JSON');
    const notBool2 = await hamlet.get('/users', { client_gravatar: 1 });
    t.equal(notBool2.body.msg, 'client_gravatar is not a boolean');

    const ignored = await hamlet.get('/users', { zebra: 1, apple: 'x', user_ids: [1] });
    t.same(ignored.body.ignored_parameters_unsupported, ['apple', 'zebra'], 'unknown parameters are listed, sorted');
    t.notOk('ignored_parameters_unsupported' in response.body, 'and only when there are any');
  });

  t.test('email visibility', async (t) => {
    const target = org.users.byEmail('cordelia@example.com')!;
    const tx = new Transaction();
    org.users.save({ ...target, emailAddressVisibility: EmailVisibility.ADMINS }, tx);
    await server.services.commit(tx);
    const seenByMember = (await hamlet.get(`/users/${target.id}`)).body.user;
    t.equal(seenByMember.delivery_email, null);
    t.equal(seenByMember.email, `user${target.id}@127.0.0.1`);
    t.match(seenByMember.avatar_url, /gravatar/, 'no client-side gravatar for a hidden email');
    const seenByAdmin = (await iago.get(`/users/${target.id}`)).body.user;
    t.equal(seenByAdmin.delivery_email, 'cordelia@example.com');
    t.equal((await hamlet.get(`/users/${encodeURIComponent(`user${target.id}@127.0.0.1`)}`)).body.user.user_id, target.id, 'found by the dummy address');
    t.equal((await hamlet.get('/users/cordelia@example.com')).body.msg, 'No such user', 'not by an address the viewer may not see');
    t.equal((await iago.get('/users/cordelia@example.com')).body.user.user_id, target.id);
    const cordelia = await anonymous.as('cordelia@example.com', target.apiKey).get('/users/me');
    t.equal(cordelia.body.email, `user${target.id}@127.0.0.1`, 'her API email is the dummy one');
    t.equal(cordelia.body.delivery_email, 'cordelia@example.com');
    const tx2 = new Transaction();
    org.users.save({ ...org.users.get(target.id)!, emailAddressVisibility: EmailVisibility.EVERYONE }, tx2);
    await server.services.commit(tx2);
  });

  t.test('GET /users/me, /users/{id}, /users/{email}', async (t) => {
    const me = await hamlet.get('/users/me');
    t.equal(me.status, 200);
    t.match(me.body, { result: 'success', msg: '', user_id: 4, email: 'hamlet@example.com', full_name: 'King Hamlet', role: 400, is_active: true, max_message_id: -1, profile_data: {} });
    t.type(me.body.avatar_url, 'string', 'the own avatar URL is always given');
    t.same(me.body, (await hamlet.get('/users/me')).body, 'stable across calls (served from a cache)');
    const byId = await hamlet.get('/users/2');
    t.equal(byId.body.user.full_name, 'Iago');
    const byEmail = await hamlet.get('/users/iago@example.com');
    t.same(byEmail.body.user, byId.body.user);
    const profile = await hamlet.get('/users/2', { include_custom_profile_fields: true });
    t.same(profile.body.user.profile_data, {});
    const missing = await hamlet.get('/users/999');
    t.same([missing.status, missing.body.msg], [400, 'No such user']);
    const missingEmail = await hamlet.get('/users/ghost@example.com');
    t.equal(missingEmail.body.msg, 'No such user');
    const bot = await hamlet.get('/users/9');
    t.equal(bot.body.msg, 'No such user', 'system bots are not users of the organization');
  });

  t.test('GET /users without credentials: only with public access', async (t) => {
    t.equal((await anonymous.get('/users')).status, 401);
    const tx = new Transaction();
    org.saveRealm({ ...org.realm, settings: { ...org.realm.settings, web_public_streams_enabled: true, enable_spectator_access: true } }, tx);
    await server.services.commit(tx);
    const open = await anonymous.get('/users');
    t.equal(open.status, 200);
    t.equal(open.body.members.length, 8);
    t.equal((await anonymous.get('/server_settings')).body.realm_web_public_access_enabled, true);
    const tx2 = new Transaction();
    org.saveRealm({ ...org.realm, settings: { ...org.realm.settings, web_public_streams_enabled: false, enable_spectator_access: false } }, tx2);
    await server.services.commit(tx2);
    t.equal((await anonymous.get('/users')).status, 401);
  });

  t.test('GET /server_settings', async (t) => {
    const settings = await anonymous.get('/server_settings');
    t.equal(settings.status, 200);
    t.match(settings.body, {
      result: 'success',
      zulip_feature_level: 416,
      push_notifications_enabled: false,
      email_auth_enabled: true,
      require_email_format_usernames: true,
      realm_url: server.url,
      realm_uri: server.url,
      realm_name: 'Parley Demo',
      realm_description: '<p>The coolest place in the universe.</p>',
      realm_web_public_access_enabled: false,
      authentication_methods: { password: true, email: true, ldap: false },
      external_authentication_methods: [],
    });
    t.type(settings.body.zulip_version, 'string');
    t.type(settings.body.zulip_merge_base, 'string');
    t.match(settings.body.realm_icon, /^https:\/\/secure\.gravatar\.com\/avatar\/d41d8cd98f00b204e9800998ecf8427e\?d=identicon$/);
  });

  t.test('bodies over the limit get 413 without being read', async (t) => {
    const big = 'content=' + 'x'.repeat(1024 * 1024 + 10);
    const declared = await fetch(`${server.url}/api/v1/fetch_api_key`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: big,
    });
    t.equal(declared.status, 413);
    t.match((await declared.json()) as any, { result: 'error', code: 'BAD_REQUEST', msg: /too large/ });
    const chunks = (async function* () {
      for (let i = 0; i < 20; i++) yield new TextEncoder().encode('x'.repeat(100 * 1024));
    })();
    const streamed = await fetch(`${server.url}/api/v1/fetch_api_key`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: chunks as any,
      duplex: 'half',
    } as RequestInit).catch((error: unknown) => error);
    if (streamed instanceof Response) t.equal(streamed.status, 413, 'a chunked body is cut off at the limit');
    else t.pass('the server closed the connection of a chunked body over the limit');
    t.equal((await hamlet.get('/users/me')).status, 200, 'and the server keeps serving');
  });

  t.test('the published zulip-js client logs in and reads users and server settings', async (t) => {
    const client = await zulip({ username: 'othello@example.com', password: 'parley-demo', realm: server.url });
    t.equal(client.config.apiKey, org.users.byEmail('othello@example.com')!.apiKey, 'logged in with fetch_api_key (multipart)');
    const users = await client.users.retrieve();
    t.equal(users.result, 'success');
    t.ok(users.members.some((m: any) => m.full_name === 'Othello, the Moor of Venice'));
    const me = await client.users.me.getProfile();
    t.equal(me.user_id, 5);
    const settings = await client.server.settings();
    t.equal(settings.zulip_feature_level, 416);
  });
});

test('rate limits', async (t) => {
  let now = Date.UTC(2026, 0, 1);
  const clock = { now: () => now };
  const server = await startTestServer({ PARLEY_RATE_LIMIT: '1' }, { clock });
  t.teardown(() => server.destroy());
  const hamlet = clientFor(server, 'hamlet@example.com');
  const iago = clientFor(server, 'iago@example.com');

  t.test('200 requests per user per minute', async (t) => {
    const first = await hamlet.get('/users/me');
    t.equal(first.headers.get('x-ratelimit-limit'), '200');
    t.equal(first.headers.get('x-ratelimit-remaining'), '199');
    t.equal(first.headers.get('x-ratelimit-reset'), String(Math.ceil(now / 1000) + 60));
    for (let i = 0; i < 199; i++) await hamlet.get('/users/me');
    const refused = await hamlet.get('/users/me');
    t.equal(refused.status, 429);
    t.match(refused.body, { result: 'error', code: 'RATE_LIMIT_HIT', msg: 'API usage exceeded rate limit' });
    t.equal(refused.body['retry-after'], 60);
    t.equal(refused.headers.get('retry-after'), '60');
    t.equal(refused.headers.get('x-ratelimit-remaining'), '0');
    t.equal((await iago.get('/users/me')).status, 200, 'other users are not affected');
    now += 30_000;
    t.equal((await hamlet.get('/users/me')).body['retry-after'], 30);
    now += 30_001;
    t.equal((await hamlet.get('/users/me')).status, 200, 'allowed again once the window has moved on');
  });

  t.test('100 unauthenticated requests per IP per minute', async (t) => {
    const anonymous = new Api(server.url);
    for (let i = 0; i < 100; i++) t.equal((await anonymous.get('/server_settings')).status, 200, `request ${i + 1}`);
    const refused = await anonymous.get('/server_settings');
    t.equal(refused.status, 429);
    now += 61_000;
  });

  t.test('5 failed passwords per username per 30 minutes', async (t) => {
    const anonymous = new Api(server.url);
    for (let i = 0; i < 5; i++) {
      t.equal((await anonymous.post('/fetch_api_key', { username: 'othello@example.com', password: 'bad' })).status, 401);
    }
    const refused = await anonymous.post('/fetch_api_key', { username: 'othello@example.com', password: 'parley-demo' });
    t.equal(refused.status, 429, 'even the right password is refused now');
    t.equal(refused.body.code, 'RATE_LIMIT_HIT');
    const other = await anonymous.post('/fetch_api_key', { username: 'cordelia@example.com', password: 'parley-demo' });
    t.equal(other.status, 200, 'other usernames are not affected');
    now += 30 * 60_000 + 1000;
    t.equal((await anonymous.post('/fetch_api_key', { username: 'othello@example.com', password: 'parley-demo' })).status, 200);
  });
});

test('restart keeps users and keys', async (t) => {
  const server = await startTestServer();
  const iagoKey = server.services.org.users.byEmail('iago@example.com')!.apiKey;
  const restarted = await server.restart();
  t.teardown(() => restarted.destroy());
  t.equal(restarted.services.org.users.byEmail('iago@example.com')!.apiKey, iagoKey);
  t.notOk(restarted.printed.some((line) => line.startsWith('Created')), 'the organization is not created twice');
  const me = await new Api(restarted.url, 'iago@example.com', iagoKey).get('/users/me');
  t.equal(me.status, 200);
  t.equal(me.body.full_name, 'Iago');
  const again = await login(restarted.url, 'desdemona@example.com');
  t.equal((await again.get('/users')).body.members.length, 8);
});

test('first start without the demo creates an owner and prints the credentials once', async (t) => {
  const server = await startTestServer({ PARLEY_DEMO: '0' });
  t.teardown(() => server.destroy());
  const text = server.printed.join('\n');
  const email = /email:\s+(\S+)/.exec(text)?.[1];
  const password = /password:\s+(\S+)/.exec(text)?.[1];
  const key = /API key:\s+(\S+)/.exec(text)?.[1];
  t.ok(email && password && key, 'email, password and key printed');
  const viaKey = await new Api(server.url, email, key).get('/users/me');
  t.equal(viaKey.body.role, 100, 'the owner');
  const viaPassword = await login(server.url, email!, password!);
  t.equal(viaPassword.apiKey, key);
  const restarted = await server.restart();
  t.notOk(restarted.printed.some((line) => line.includes('password')), 'not printed again');
  await restarted.stop();
});

test('the real process: ready line, graceful SIGTERM, and no start on the slow fallback', async (t) => {
  const main = fileURLToPath(new URL('../../src/main.js', import.meta.url));
  const dataDir = tempDataDir();
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const run = (env: Record<string, string>) => {
    const child = spawn(process.execPath, [main], { env: { ...process.env, PARLEY_DATA_DIR: dataDir, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, exited, output: () => out, errors: () => err };
  };

  const port = await freePort();
  const server = run({ PARLEY_PORT: String(port), PARLEY_DEMO: '1' });
  while (!server.output().includes('Parley listening on')) {
    if (server.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  t.match(server.output(), new RegExp(`^Created the demo organization.*\\nParley listening on http://127\\.0\\.0\\.1:${port}\\n$`, 's'), 'the ready line, once ready');
  const answer = await fetch(`http://127.0.0.1:${port}/api/v1/server_settings`);
  t.equal(answer.status, 200);
  server.child.kill('SIGTERM');
  t.equal(await server.exited, 0, 'SIGTERM: a clean exit');

  const fallback = run({ PARLEY_PORT: String(await freePort()), UWS_USE_FALLBACK: '1' });
  t.equal(await fallback.exited, 1, 'refuses to run on the pure-JS fallback');
  t.match(fallback.errors(), /native binding did not load/);
});
