/**
 * Black-box tests of API keys: POST /users/me/api_key/regenerate (the new key works, the old one
 * is refused at once, also after a restart) and the admin CLI's `api-key`, `reset-password` and
 * `change-role --role can_change_user_emails` on a stopped server's data directory.
 */
import { test } from 'tap';
import { Api } from '../helpers/client.js';
import { clientFor, startTestServer } from '../helpers/server.js';
import { HAMLET } from '../helpers/events.js';
import { runCli } from '../helpers/process.js';
import { error } from '../helpers/messages.js';
import { world } from '../helpers/world.js';

test('API keys', async (t) => {
  t.test('POST /users/me/api_key/regenerate', async (t) => {
    const w = await world(t);
    const old = w.hamlet;
    const response = await old.post('/users/me/api_key/regenerate');
    t.equal(response.status, 200);
    const key: string = response.body.api_key;
    t.match(key, /^[A-Za-z0-9]{32}$/);
    t.not(key, old.apiKey, 'a new key');
    t.same(error(await old.get('/users/me')), [401, 'UNAUTHORIZED', 'Invalid API key'], 'the old key is refused at once');
    const renewed = old.as(old.email!, key);
    t.equal((await renewed.get('/users/me')).body.user_id, HAMLET, 'the new key works');
    const login = await new Api(w.server.url).post('/fetch_api_key', { username: 'hamlet@example.com', password: 'parley-demo' });
    t.equal(login.body.api_key, key, 'fetch_api_key hands out the new key');
    t.same(error(await new Api(w.server.url).post('/users/me/api_key/regenerate')), [401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required']);
    const restarted = await w.server.restart();
    t.teardown(() => restarted.destroy());
    t.equal((await new Api(restarted.url, old.email, key).get('/users/me')).status, 200, 'kept across a restart');
    t.equal((await new Api(restarted.url, old.email, old.apiKey).get('/users/me')).status, 401);
  });

  t.test('the admin CLI: api-key, reset-password, can_change_user_emails', async (t) => {
    const first = await startTestServer();
    const dataDir = first.dataDir;
    const oldKey = first.services.org.users.get(HAMLET)!.apiKey;
    await first.stop();

    const printed = await runCli(['api-key', '--email', 'hamlet@example.com'], { PARLEY_DATA_DIR: dataDir });
    t.equal(printed.code, 0, printed.stderr);
    t.equal(printed.stdout.trim(), oldKey, 'api-key prints the key');
    const regenerated = await runCli(['api-key', '--email', 'hamlet@example.com', '--regenerate'], { PARLEY_DATA_DIR: dataDir });
    t.equal(regenerated.code, 0, regenerated.stderr);
    const newKey = regenerated.stdout.trim();
    t.match(newKey, /^[A-Za-z0-9]{32}$/);
    t.not(newKey, oldKey);
    const reset = await runCli(['reset-password', '--email', 'hamlet@example.com', '--password', 'to-be-or-not-to-be'], { PARLEY_DATA_DIR: dataDir });
    t.equal(reset.code, 0, reset.stderr);
    t.match(reset.stdout, 'new password for hamlet@example.com');
    const granted = await runCli(['change-role', '--email', 'desdemona@example.com', '--role', 'can_change_user_emails'], { PARLEY_DATA_DIR: dataDir });
    t.equal(granted.code, 0, granted.stderr);
    t.equal((await runCli(['api-key', '--email', 'nobody@example.com'], { PARLEY_DATA_DIR: dataDir })).code, 2, 'an unknown user is an error');

    const server = await startTestServer({}, { dataDir });
    t.teardown(() => server.destroy());
    const anonymous = new Api(server.url);
    t.equal((await new Api(server.url, 'hamlet@example.com', oldKey).get('/users/me')).status, 401, 'the old key is refused');
    t.equal((await new Api(server.url, 'hamlet@example.com', newKey).get('/users/me')).status, 200, 'the regenerated key works');
    t.equal((await anonymous.post('/fetch_api_key', { username: 'hamlet@example.com', password: 'parley-demo' })).status, 401, 'the old password is refused');
    const login = await anonymous.post('/fetch_api_key', { username: 'hamlet@example.com', password: 'to-be-or-not-to-be' });
    t.equal(login.body.api_key, newKey, 'the new password logs in');
    const owner = clientFor(server, 'desdemona@example.com');
    t.equal((await owner.patch(`/users/${HAMLET}`, { new_email: 'prince@example.com' })).status, 200, 'the granted permission lets the owner change an address');
    t.equal(server.services.org.users.get(HAMLET)!.deliveryEmail, 'prince@example.com');
  });
});
