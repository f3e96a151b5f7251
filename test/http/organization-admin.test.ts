/**
 * Administering several organizations through the CLI, checked through HTTP on their hosts:
 * creation (Zulip's subdomain rules), the list, sign-in on each host with the same email and
 * different keys, and deactivation (Zulip's answers and event there, the other one working).
 * Backup and restore of one organization are in organization-backup.test.ts.
 */
import { t as root, test } from 'tap';
import { Api, type ApiResponse } from '../helpers/client.js';
import { longPoll, register, take, waitFor } from '../helpers/events.js';
import { anonymous, cli, createOrganization, hostOf } from '../helpers/organization-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

async function signIn(server: TestServer, subdomain: string, email: string, password: string): Promise<ApiResponse> {
  return anonymous(server, subdomain).post('/fetch_api_key', { username: email, password });
}

// Every step runs the CLI in a process of its own (and servers restart): more than the suite's default on a busy machine.
root.setTimeout(5 * 60_000);

test('organizations: created by the CLI with Zulip\'s subdomain rules, listed, each at its own host with its own keys', async (t) => {
  const server = await startTestServer();
  let current = server;
  t.teardown(() => current.destroy());
  const red = await createOrganization(t, server, 'red', 'Red team', 'owner@teams.example.com');
  const blue = await createOrganization(t, server, 'blue', 'Blue team', 'owner@teams.example.com');
  t.equal(red.url, `http://red.localhost:${server.port}`, 'the organization\'s URL is its subdomain under the root');
  t.not(red.apiKey, blue.apiKey, 'the same email has a key of its own in each organization');

  for (const [subdomain, why] of [['red', 'Subdomain unavailable'], ['ab', 'length 3 or greater'], ['www', 'Subdomain unavailable'], ['Red', 'lowercase letters'], ['-red', "start or end with a '-'"]]) {
    const refused = await cli(server, 'create-organization', `--subdomain=${subdomain}`, '--name', 'Again', '--owner-email', 'x@example.com');
    t.equal(refused.code, 2, `'${subdomain}' is refused`);
    t.match(refused.stderr, why!, `'${subdomain}': ${why}`);
  }

  const listed = await cli(server, 'list-organizations');
  t.equal(listed.code, 0, listed.stderr);
  const rows = listed.stdout.trim().split('\n').slice(1).map((line) => line.split('\t'));
  t.same(rows.map((row) => [row[1], row[3], row[4], row[5]]), [['(root)', 'Parley Demo', '8', 'no'], ['red', 'Red team', '1', 'no'], ['blue', 'Blue team', '1', 'no']]);

  // Sign-in on each host hands out that organization's key; the password of one does not open the other.
  const onRed = await signIn(server, 'red', red.email, 'red-owner-password');
  t.equal(onRed.status, 200, JSON.stringify(onRed.body));
  t.equal(onRed.body.api_key, red.apiKey);
  t.equal((await signIn(server, 'blue', blue.email, 'red-owner-password')).status, 401, 'red\'s password is not blue\'s');
  const redOwner = anonymous(server, 'red').as(red.email, red.apiKey);
  const blueOwner = anonymous(server, 'blue').as(blue.email, blue.apiKey);
  t.equal((await anonymous(server, 'blue').as(red.email, red.apiKey).get('/users/me')).status, 401, 'red\'s key is not valid on blue\'s host');

  const sent = await redOwner.post('/messages', { type: 'stream', to: 'general', topic: 'hello', content: 'only in red' });
  t.equal(sent.status, 200, JSON.stringify(sent.body));
  const blueSees = await blueOwner.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0 });
  t.notOk(blueSees.body.messages.some((m: { content: string }) => m.content.includes('only in red')), 'blue does not see red\'s message');

  const server2 = (current = await server.restart());
  const again = await cli(server2, 'list-organizations');
  t.equal(again.stdout, listed.stdout, 'the organizations are there after a restart');
  const restartedRed = new Api(server2.url, red.email, red.apiKey, hostOf(server2, 'red'));
  t.equal((await restartedRed.get('/users/me')).status, 200, 'red\'s owner is known after a restart');
});

test('deactivating an organization: the event to its queues, Zulip\'s answers there, the other one working', async (t) => {
  const server = await startTestServer();
  let current = server;
  t.teardown(() => current.destroy());
  const red = await createOrganization(t, server, 'red', 'Red team', 'owner@teams.example.com');
  const blue = await createOrganization(t, server, 'blue', 'Blue team', 'owner@teams.example.com');
  const redOwner = anonymous(server, 'red').as(red.email, red.apiKey);
  const blueOwner = anonymous(server, 'blue').as(blue.email, blue.apiKey);
  const redQueue = await register(redOwner, { event_types: ['realm'] });
  const blueQueue = await register(blueOwner, { event_types: ['realm'] });
  // A poll parked when the organization is deactivated is how a client hears of it: later requests are refused.
  const redServices = server.organizations.services().find((services) => services.org.realm.subdomain === 'red')!;
  const ownerId = redServices.org.users.byEmail(red.email)!.id;
  const poll = longPoll(redQueue);
  const parked = () => {
    try {
      return redServices.queues.get(redQueue.id, ownerId).state === 'polling';
    } catch {
      return false;
    }
  };
  await waitFor(parked, 'red\'s poll to park');

  const deactivated = await cli(server, 'deactivate-organization', '--organization', 'red');
  t.equal(deactivated.code, 0, deactivated.stderr);
  t.match(deactivated.stdout, /'red' \(Red team\) is now deactivated/);
  const heard = (await poll).body.events.filter((event: { type: string }) => event.type !== 'heartbeat');
  t.same(heard.map(({ type, op, realm_id }: Record<string, unknown>) => ({ type, op, realm_id })), [{ type: 'realm', op: 'deactivated', realm_id: redServices.org.id }]);
  t.same(await take(blueQueue), [], 'blue\'s queue hears nothing of it');

  // Zulip's answers: the REST API's UNAUTHORIZED with the reason, and a sign-in's REALM_DEACTIVATED.
  const refused = await redOwner.get('/users/me');
  t.same([refused.status, refused.body.code, refused.body.msg], [401, 'UNAUTHORIZED', 'This organization has been deactivated']);
  const signIn = await anonymous(server, 'red').post('/fetch_api_key', { username: red.email, password: 'red-owner-password' });
  t.same([signIn.status, signIn.body.code], [401, 'REALM_DEACTIVATED']);
  t.equal((await blueOwner.get('/users/me')).status, 200, 'blue works on');
  t.match((await cli(server, 'list-organizations')).stdout, /\tred\t.*\tyes\n/);
  const twice = await cli(server, 'deactivate-organization', '--organization', 'red');
  t.match(twice.stdout, /was already deactivated/);

  const server2 = (current = await server.restart());
  const restartedRed = new Api(server2.url, red.email, red.apiKey, hostOf(server2, 'red'));
  t.equal((await restartedRed.get('/users/me')).body.msg, 'This organization has been deactivated', 'still deactivated after a restart');
  t.equal((await cli(server2, 'reactivate-organization', '--organization', 'red')).code, 0);
  t.equal((await restartedRed.get('/users/me')).status, 200, 'reactivated, it works again');
  t.equal((await cli(server2, 'deactivate-organization', '--organization', 'nowhere')).code, 2, 'an unknown organization is refused');
});
