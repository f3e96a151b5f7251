/**
 * Black-box tests of authentication: credential errors and POST /fetch_api_key. Every subtest has its own demo organization.
 */
import { test } from 'tap';
import { clientFor } from '../helpers/server.js';
import { world } from '../helpers/world.js';
import { Transaction } from '../../src/store/transaction.js';

test('authentication', async (t) => {
  t.test('authentication errors', async (t) => {
    const { server, org, anonymous, iago } = await world(t);
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
    const { server, anonymous, hamlet } = await world(t);
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
});
