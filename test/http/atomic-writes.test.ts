/**
 * A refused request changes nothing, in memory or on disk: the findings of the reliability
 * review, each replayed through HTTP, with the state read back before and after a restart.
 */
import { test } from 'tap';
import { demoClients, startTestServer, type TestServer } from '../helpers/server.js';
import type { Api } from '../helpers/client.js';

const HAMLET = 4;
const DENMARK = 3;

async function subscriptionNames(client: Api): Promise<string[]> {
  const response = await client.get('/users/me/subscriptions');
  return response.body.subscriptions.map((s: { name: string }) => s.name).sort();
}

async function channelNames(client: Api): Promise<string[]> {
  const response = await client.get('/streams', { include_all: true });
  return response.body.streams.map((s: { name: string }) => s.name).sort();
}

test('a refused write leaves nothing behind', async (t) => {
  let server: TestServer = await startTestServer();
  t.teardown(() => server.destroy());
  let clients = demoClients(server);

  t.test('refused subscribe creates no channel; the chain cannot hand a private channel to another user', async (t) => {
    const { othello } = clients;
    const refused = await othello.post('/users/me/subscriptions', { subscriptions: [{ name: 'ghost' }, { name: '' }] });
    t.equal(refused.status, 400);
    t.equal(refused.body.msg, "Channel name can't be empty.");
    t.notOk((await channelNames(othello)).includes('ghost'), 'ghost does not exist in memory');
    t.notOk((await subscriptionNames(othello)).includes('ghost'));

    // The follow-up that used to subscribe othello to the half-made channel now creates it properly.
    const created = await othello.post('/users/me/subscriptions', { subscriptions: [{ name: 'ghost' }] });
    t.equal(created.status, 200);
    const ghostId = (await othello.get('/get_stream_id', { stream: 'ghost' })).body.stream_id;

    server = await server.restart();
    clients = demoClients(server);
    const { prospero, othello: othelloAgain } = clients;
    const made = await prospero.post('/users/me/subscriptions', { subscriptions: [{ name: 'prospero-private' }], invite_only: true });
    t.equal(made.status, 200);
    const privateId = (await prospero.get('/get_stream_id', { stream: 'prospero-private' })).body.stream_id;
    t.not(privateId, ghostId, 'the private channel gets a fresh id');
    const sent = await prospero.post('/messages', { type: 'stream', to: privateId, topic: 'secret', content: 'for my eyes only' });
    t.equal(sent.status, 200);
    const read = await othelloAgain.get(`/messages/${sent.body.id}`);
    t.equal(read.status, 400, 'othello cannot read prospero\'s private channel');
    t.notOk((await subscriptionNames(othelloAgain)).includes('prospero-private'));
    t.ok((await subscriptionNames(othelloAgain)).includes('ghost'), 'the acknowledged subscription survived');
  });

  t.test('a refused user update changes no field, not even after a later valid update', async (t) => {
    const { iago } = clients;
    const before = (await iago.get(`/users/${HAMLET}`)).body.user;
    const refused = await iago.patch(`/users/${HAMLET}`, { full_name: 'Refused', role: 999 });
    t.equal(refused.status, 400);
    t.equal((await iago.get(`/users/${HAMLET}`)).body.user.full_name, before.full_name);
    t.equal((await iago.patch(`/users/${HAMLET}`, { role: 300 })).status, 200);
    server = await server.restart();
    clients = demoClients(server);
    const after = (await clients.iago.get(`/users/${HAMLET}`)).body.user;
    t.equal(after.full_name, before.full_name);
    t.equal(after.role, 300);
    t.equal((await clients.iago.patch(`/users/${HAMLET}`, { role: 400 })).status, 200);
  });

  t.test('a refused property list changes no property', async (t) => {
    const { hamlet } = clients;
    const color = async () => (await hamlet.get('/users/me/subscriptions')).body.subscriptions.find((s: { stream_id: number }) => s.stream_id === DENMARK).color;
    const before = await color();
    const refused = await hamlet.post('/users/me/subscriptions/properties', {
      subscription_data: [
        { stream_id: DENMARK, property: 'color', value: '#123456' },
        { stream_id: DENMARK, property: 'no_such_property', value: true },
      ],
    });
    t.equal(refused.status, 400);
    t.equal(await color(), before);
  });

  t.test('refused flags leave the newest message id alone', async (t) => {
    const { hamlet, iago } = clients;
    const newest = async () => (await hamlet.get('/users/me')).body.max_message_id;
    const before = await newest();
    const refused = await hamlet.post('/messages/flags', { messages: [999999], op: 'add', flag: 'starred' });
    t.equal(refused.status, 400);
    t.equal(await newest(), before);
    const sent = await iago.post('/messages', { type: 'stream', to: 'Denmark', topic: 'flags', content: 'hello' });
    t.equal(await newest(), sent.body.id, 'a real message still moves it');
  });

  t.test('the legacy PATCH is all or nothing', async (t) => {
    const { hamlet } = clients;
    const refused = await hamlet.patch('/users/me/subscriptions', { add: [{ name: 'legacy-x' }], delete: ['no-such'] });
    t.equal(refused.status, 400);
    t.notOk((await channelNames(hamlet)).includes('legacy-x'));
    server = await server.restart();
    clients = demoClients(server);
    t.notOk((await channelNames(clients.hamlet)).includes('legacy-x'), 'nor after a restart');
    t.notOk((await subscriptionNames(clients.hamlet)).includes('legacy-x'));
    const both = await clients.hamlet.patch('/users/me/subscriptions', { add: [{ name: 'legacy-x' }], delete: ['Denmark'] });
    t.equal(both.status, 200);
    const names = await subscriptionNames(clients.hamlet);
    t.ok(names.includes('legacy-x'));
    t.notOk(names.includes('Denmark'));
  });

  t.test('a lone surrogate in a JSON value is refused, so memory and disk never disagree on it', async (t) => {
    const { hamlet } = clients;
    const refused = await hamlet.request('POST', '/users/me/subscriptions', {}, {});
    t.equal(refused.status, 400, 'sanity: missing subscriptions is refused');
    const form = 'subscriptions=' + encodeURIComponent('[{"name":"surrogate","description":"x\\ud800y"}]');
    const response = await fetch(`${server.url}/api/v1/users/me/subscriptions`, {
      method: 'POST',
      headers: { authorization: hamlet.authorization!, 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    const body = (await response.json()) as { msg: string };
    t.equal(response.status, 400);
    t.equal(body.msg, 'subscriptions contains invalid Unicode');
    t.notOk((await channelNames(hamlet)).includes('surrogate'));
    const paired = 'subscriptions=' + encodeURIComponent('[{"name":"surrogate","description":"x\\ud83d\\ude00y"}]');
    const ok = await fetch(`${server.url}/api/v1/users/me/subscriptions`, {
      method: 'POST',
      headers: { authorization: hamlet.authorization!, 'content-type': 'application/x-www-form-urlencoded' },
      body: paired,
    });
    t.equal(ok.status, 200, 'an escaped surrogate pair is fine');
  });

  t.test('a refused user creation leaves the address free', async (t) => {
    const { iago } = clients;
    const refused = await iago.post('/users', { email: 'new@example.com', password: 'x', full_name: '' });
    t.equal(refused.status, 400);
    const created = await iago.post('/users', { email: 'new@example.com', password: 'secret-password', full_name: 'New Person' });
    t.equal(created.status, 200, JSON.stringify(created.body));
  });
});
