/**
 * Many organizations in one server, through HTTP: each found by its host (the root at the
 * server's address, `a` at `a.localhost`), loaded at its first request, woken after a restart
 * when it has timed work, deactivated alone, and kept across a restart.
 */
import { test } from 'tap';
import { deactivateOrganization } from '../../src/actions/organization-deactivation.js';
import { Api } from '../helpers/client.js';
import { hostFetch } from '../helpers/host-fetch.js';
import { longPoll, register, settledWithin, take, waitFor } from '../helpers/events.js';
import { addDemoOrganization, hostOf, orgAnonymous, orgClient, organizationAt } from '../helpers/organizations.js';
import { clientFor, startTestServer } from '../helpers/server.js';

test('two organizations: the same emails, their own keys, each at its own host', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.destroy());
  const a = await addDemoOrganization(server, 'a');
  const rootIago = clientFor(server, 'iago@example.com');
  const aIago = orgClient(server, a, 'iago@example.com');
  t.not(rootIago.apiKey, aIago.apiKey, 'the same email has a key of its own in each organization');
  t.equal(a.org.url, `http://a.localhost:${server.port}`, 'a root on an address puts its organizations below localhost');

  const rootMe = await rootIago.get('/users/me');
  const aMe = await aIago.get('/users/me');
  t.same([rootMe.status, aMe.status], [200, 200]);
  t.equal(aMe.body.email, rootMe.body.email);

  const crossed = await new Api(server.url, aIago.email, aIago.apiKey, `127.0.0.1:${server.port}`).get('/users/me');
  t.same([crossed.status, crossed.body.msg], [401, 'Invalid API key'], "a's key is nothing at the root");
  const crossedBack = await new Api(server.url, rootIago.email, rootIago.apiKey, hostOf(server, a)).get('/users/me');
  t.same([crossedBack.status, crossedBack.body.msg], [401, 'Invalid API key'], "the root's key is nothing at a");

  const rootSettings = (await new Api(server.url).get('/server_settings')).body;
  const aSettings = (await orgAnonymous(server, a).get('/server_settings')).body;
  t.same([rootSettings.realm_url, rootSettings.realm_name], [server.url, 'Parley Demo']);
  t.same([aSettings.realm_url, aSettings.realm_uri, aSettings.realm_name], [a.org.url, a.org.url, 'Parley Demo a'], "/server_settings at a's host is a's");
  t.not(aSettings.realm_icon, rootSettings.realm_icon);
  const registered = await aIago.post('/register', { fetch_event_types: ['realm'] });
  t.equal(registered.body.realm_url, a.org.url, 'POST /register tells its own URL');

  const login = await orgAnonymous(server, a).post('/fetch_api_key', { username: 'iago@example.com', password: 'parley-demo' });
  t.same([login.status, login.body.api_key], [200, aIago.apiKey], "a login at a's host gives a's key");
  const upperCase = await new Api(server.url, aIago.email, aIago.apiKey, `A.LocalHost.:${server.port}`).get('/users/me');
  t.equal(upperCase.status, 200, 'a host in another case, with a trailing dot, is the same organization');
});

test("a host that names no organization gets Zulip's answer", async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.destroy());
  const iago = clientFor(server, 'iago@example.com');
  for (const host of [`b.localhost:${server.port}`, `a.b.localhost:${server.port}`]) {
    const api = await new Api(server.url, iago.email, iago.apiKey, host).get('/users/me');
    t.same([api.status, api.body.result, api.body.code, api.body.msg], [404, 'error', 'NONEXISTENT_SUBDOMAIN', 'Invalid subdomain'], `${host}: the API`);
    const anonymous = await new Api(server.url, undefined, undefined, host).post('/fetch_api_key', { username: 'iago@example.com', password: 'parley-demo' });
    t.same([anonymous.status, anonymous.body.code], [404, 'NONEXISTENT_SUBDOMAIN'], `${host}: a login`);
    const page = await hostFetch(`${server.url}/join/somekey`, { host });
    t.same([page.status, page.headers.get('content-type')], [404, 'text/html; charset=utf-8'], `${host}: a page is a page`);
    t.match(await page.text(), /no organization at this address/);
  }
  t.equal(server.organizations.services().length, 1, 'nothing was loaded for them');
  const foreign = await new Api(server.url, iago.email, iago.apiKey, `chat.other.example:${server.port}`).get('/users/me');
  t.equal(foreign.status, 200, "a host not below the root is the root organization, as Zulip's get_subdomain");
});

test('organizations load at their first request, once however many ask; a restart keeps both', async (t) => {
  const server = await startTestServer();
  let current = server;
  t.teardown(() => current.destroy());
  const a = await addDemoOrganization(server, 'a');
  const sent = await orgClient(server, a, 'hamlet@example.com').post('/messages', { type: 'stream', to: 'Verona', topic: 'only in a', content: 'a secret of a' });
  t.equal(sent.status, 200);
  const keys = { a: a.org.users.byEmail('hamlet@example.com')!.apiKey, root: server.services.org.users.byEmail('hamlet@example.com')!.apiKey };

  current = await server.restart();
  t.equal(await current.woken, 0, 'no organization had timed work');
  t.same(current.organizations.services().map((s) => s.org.realm.subdomain), [''], 'after a restart only the root is loaded');
  const host = `a.localhost:${current.port}`;
  const hamlet = new Api(current.url, 'hamlet@example.com', keys.a, host);
  // Concurrent first requests, one with a body, all wait for the same load.
  const answers = await Promise.all([
    hamlet.get('/users/me'),
    hamlet.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'channel', operand: 'Verona' }] }),
    hamlet.post('/messages', { type: 'stream', to: 'Verona', topic: 'only in a', content: 'sent while a loads' }),
    hamlet.get('/users/me'),
  ]);
  t.same(answers.map((r) => r.status), [200, 200, 200, 200], 'every request waiting for the load is answered');
  t.ok(answers[1].body.messages.some((m: { content: string }) => m.content === '<p>a secret of a</p>'), 'the message written before the restart is there');
  const [first, second] = await Promise.all([current.organizations.load('a'), current.organizations.load('a')]);
  t.equal(first, second, 'one runtime per organization');
  t.equal(current.organizations.services().length, 2);

  const rootHamlet = new Api(current.url, 'hamlet@example.com', keys.root);
  t.equal((await rootHamlet.get('/users/me')).status, 200, "the root's key still works at the root");
  const rootVerona = await rootHamlet.get('/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow: [{ operator: 'channel', operand: 'Verona' }] });
  t.notOk(JSON.stringify(rootVerona.body).includes('a secret of a'), "a's message is not in the root's channel of the same name");
});

test('deactivating one organization: its clients are told and refused; the other works on', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.destroy());
  const a = await addDemoOrganization(server, 'a');
  const aHamlet = orgClient(server, a, 'hamlet@example.com');
  const rootHamlet = clientFor(server, 'hamlet@example.com');
  const aQueue = await register(aHamlet);
  const rootQueue = await register(rootHamlet);

  // A client learns it from its parked poll: the next one is refused, as every request of the organization.
  const parked = longPoll(aQueue);
  await waitFor(() => a.queues.stats().parkedPolls === 1, 'the poll parked');
  await deactivateOrganization(a);
  const told = await parked;
  t.same(told.body.events.map((e: { type: string; op: string; realm_id: number }) => [e.type, e.op, e.realm_id]), [['realm', 'deactivated', a.org.id]], "a's queue gets Zulip's realm/deactivated event");
  t.same(await take(rootQueue), [], "the root's queue gets nothing");

  const refused = await aHamlet.get('/users/me');
  t.same([refused.status, refused.body.code, refused.body.msg], [401, 'UNAUTHORIZED', 'This organization has been deactivated']);
  const polled = await aHamlet.get('/events', { queue_id: aQueue.id, last_event_id: aQueue.last, dont_block: true });
  t.same([polled.status, polled.body.msg], [401, 'This organization has been deactivated'], 'so is the next poll');
  const login = await orgAnonymous(server, a).post('/fetch_api_key', { username: 'hamlet@example.com', password: 'parley-demo' });
  t.same([login.status, login.body.code], [401, 'REALM_DEACTIVATED']);

  t.equal((await rootHamlet.post('/messages', { type: 'stream', to: 'Verona', topic: 't', content: 'still here' })).status, 200, 'the root works on');
  t.ok((await take(rootQueue)).some((e) => e.type === 'message'));
  const restarted = await server.restart();
  t.teardown(() => restarted.destroy());
  const again = new Api(restarted.url, aHamlet.email, aHamlet.apiKey, `a.localhost:${restarted.port}`);
  t.equal((await again.get('/users/me')).status, 401, 'deactivated after a restart too');
});

test('an organization with a scheduled message is loaded after a restart without a visitor, and delivers it', async (t) => {
  let now = Date.UTC(2026, 10, 27, 12);
  const clock = { now: () => now };
  const server = await startTestServer({}, { clock });
  let current = server;
  t.teardown(() => current.destroy());
  const a = await addDemoOrganization(server, 'a');
  const due = Math.floor(now / 1000) + 3600;
  const scheduled = await orgClient(server, a, 'hamlet@example.com').post('/scheduled_messages', { type: 'stream', to: a.org.channels.byName('Verona')!.id, topic: 'later', content: 'from the past', scheduled_delivery_timestamp: due });
  t.equal(scheduled.status, 200, scheduled.body.msg);

  // A minute late: Zulip fails deliveries more than ten minutes late, and so does the scheduler.
  now = (due + 60) * 1000;
  current = await server.restart();
  t.equal(await current.woken, 1, 'the organization with timed work was woken');
  const woken = current.organizations.services().find((s) => s.org.realm.subdomain === 'a');
  t.ok(woken, 'loaded with no request to it');
  await waitFor(() => [...woken!.scheduled.all()].length === 0, 'the overdue delivery');
  const verona = await new Api(current.url, 'hamlet@example.com', a.org.users.byEmail('hamlet@example.com')!.apiKey, `a.localhost:${current.port}`)
    .get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'channel', operand: 'Verona' }] });
  t.equal(verona.body.messages[0]?.content, '<p>from the past</p>');

  current = await current.restart();
  t.equal(await current.woken, 0, 'nothing waits any more: the mark was cleared at the stop');
  t.equal(current.organizations.services().length, 1);
  t.ok(await organizationAt(current, 'a'), 'and it still loads on demand');
});

test("a poll that waits for its organization to load stays parked past the server's idle timeout for connections", async (t) => {
  const server = await startTestServer();
  let current = server;
  t.teardown(() => current.destroy());
  const a = await addDemoOrganization(server, 'a');
  const othello = a.org.users.byEmail('othello@example.com')!;
  const quiet = await register(orgClient(server, a, 'othello@example.com'), { event_types: ['typing'] });
  current = await server.restart();
  t.notOk(current.organizations.isLoaded('a'), 'a is not loaded after the restart');
  const host = `a.localhost:${current.port}`;
  quiet.api = new Api(current.url, 'othello@example.com', othello.apiKey, host);
  // The poll waits for the load with its connection paused. uWS closes a connection that has been
  // idle for 10 s (checked every 4 s) once its reading was paused and resumed: a poll parked that
  // way was cut after 8–12 s, long before its heartbeat (50 s).
  const parked = longPoll(quiet);
  await waitFor(() => current.organizations.isLoaded('a'), 'a to load for the poll');
  t.equal(await settledWithin(parked, 13_000), 'pending', 'still parked after 13 s');
  const hamlet = a.org.users.byEmail('hamlet@example.com')!;
  const typing = await new Api(current.url, 'hamlet@example.com', hamlet.apiKey, host).post('/typing', { op: 'start', to: JSON.stringify([othello.id]) });
  t.equal(typing.status, 200);
  const answer = await parked;
  t.same([answer.status, answer.body.events.map((e: { type: string }) => e.type)], [200, ['typing']], 'and then answered with the event');
});
