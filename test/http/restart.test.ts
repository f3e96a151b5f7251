/**
 * A restart keeps what was written: users and keys; channels and subscriptions; messages with their
 * edits, reactions and flags. Each test has its own server, which it restarts on the same data directory.
 */
import { test } from 'tap';
import { Api, login } from '../helpers/client.js';
import { clientFor, startTestServer } from '../helpers/server.js';
import { send, sendDm, fetchIds } from '../helpers/messages.js';

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

test('restart keeps channels and subscriptions', async (t) => {
  const server = await startTestServer();
  const hamlet = clientFor(server, 'hamlet@example.com');
  await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Elsinore' }], invite_only: true });
  await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Scotland' }] });
  await clientFor(server, 'cordelia@example.com').delete('/users/me/subscriptions', { subscriptions: ['Scotland'] });
  const before = (await hamlet.get('/users/me/subscriptions', { include_subscribers: true })).body.subscriptions;
  const restarted = await server.restart();
  t.teardown(() => restarted.destroy());
  const again = clientFor(restarted, 'hamlet@example.com');
  t.same((await again.get('/users/me/subscriptions', { include_subscribers: true })).body.subscriptions, before);
  t.same([...restarted.services.subscriptions.subscribersOf(4)].sort(), [4, 5], 'the subscriber index is rebuilt from the actors');
  t.equal(restarted.services.org.channels.byName('Elsinore')!.inviteOnly, true);
  t.notOk(restarted.services.subscriptions.isSubscribed(6, 4));
});

test('restart keeps channels, subscriptions, messages, edits, reactions and flags', async (t) => {
  const server = await startTestServer();
  const hamlet = clientFor(server, 'hamlet@example.com');
  const othello = clientFor(server, 'othello@example.com');
  await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Keep' }], principals: [4, 5], invite_only: true });
  const id = await send(hamlet, 'Keep', 'before', 'first words');
  await hamlet.patch(`/messages/${id}`, { content: 'edited words', topic: 'after', send_notification_to_new_thread: false });
  await othello.post(`/messages/${id}/reactions`, { emoji_name: 'tada' });
  await othello.post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' });
  const dm = await sendDm(othello, [4], 'private words');
  const before = {
    message: (await othello.get(`/messages/${id}`)).body,
    history: (await othello.get(`/messages/${id}/history`)).body,
    subscriptions: (await othello.get('/users/me/subscriptions', { include_subscribers: true })).body,
    streams: (await othello.get('/streams')).body,
    dm: (await hamlet.get(`/messages/${dm}`)).body,
    topics: (await othello.get(`/users/me/${server.services.org.channels.byName('Keep')!.id}/topics`)).body,
  };
  const restarted = await server.restart();
  t.teardown(() => restarted.destroy());
  const hamlet2 = clientFor(restarted, 'hamlet@example.com');
  const othello2 = clientFor(restarted, 'othello@example.com');
  const keep = restarted.services.org.channels.byName('Keep')!;
  t.same((await othello2.get(`/messages/${id}`)).body, before.message);
  t.match(before.message.message, { content: '<p>edited words</p>', subject: 'after', flags: ['starred'], reactions: [{ emoji_name: 'tada', user_id: 5 }] });
  t.same((await othello2.get(`/messages/${id}/history`)).body, before.history);
  t.same((await othello2.get('/users/me/subscriptions', { include_subscribers: true })).body, before.subscriptions);
  t.same((await othello2.get('/streams')).body, before.streams);
  t.same((await hamlet2.get(`/messages/${dm}`)).body, before.dm);
  t.same((await othello2.get(`/users/me/${keep.id}/topics`)).body, before.topics);
  t.same(await fetchIds(othello2, { anchor: 'newest', num_before: 10, narrow: [['is', 'starred']] }), [id]);
  t.same(await fetchIds(othello2, { anchor: 'newest', num_before: 10, narrow: [['stream', 'Keep'], ['topic', 'after']] }), [id]);
  const next = await send(hamlet2, 'Keep', 'after', 'later words');
  t.ok(next > dm, 'ids continue after a restart');
});
