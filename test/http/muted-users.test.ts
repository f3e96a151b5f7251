/**
 * Black-box tests of muted users: POST/DELETE /users/me/muted_users/{id} with Zulip's refusals,
 * the `muted_users` event and register state (also after a restart), and messages from a muted
 * user arriving read for the muter (and those already there marked read on muting).
 */
import { test } from 'tap';
import { clientFor } from '../helpers/server.js';
import { register, take, HAMLET, IAGO, OTHELLO, CORDELIA } from '../helpers/events.js';
import { BOT } from '../helpers/demo-ids.js';
import { messageWorld, send, sendDm, flagsOf, error } from '../helpers/messages.js';

const bad = (msg: string) => [400, 'BAD_REQUEST', msg];

test('muted users', async (t) => {
  t.test('muting and unmuting: events, register state, restart', async (t) => {
    const { server, hamlet, othello, seconds } = await messageWorld(t);
    const mine = await register(hamlet, { event_types: ['muted_users'] });
    const peer = await register(othello, { event_types: ['muted_users'] });
    t.equal((await hamlet.post(`/users/me/muted_users/${IAGO}`)).status, 200);
    const muted = [{ id: IAGO, timestamp: seconds() }];
    t.match(await take(mine), [{ type: 'muted_users', muted_users: muted }]);
    t.same(await take(peer), [], 'the muted and everyone else hear nothing');
    t.equal((await hamlet.post(`/users/me/muted_users/${OTHELLO}`)).status, 200);
    t.match(await take(mine), [{ type: 'muted_users', muted_users: [...muted, { id: OTHELLO, timestamp: seconds() }] }], 'the whole list, in the order muted');
    t.equal((await hamlet.delete(`/users/me/muted_users/${OTHELLO}`)).status, 200);
    t.match(await take(mine), [{ type: 'muted_users', muted_users: muted }]);
    t.same((await hamlet.post('/register', { fetch_event_types: ['muted_users'] })).body.muted_users, muted);
    t.same((await othello.post('/register', { fetch_event_types: ['muted_users'] })).body.muted_users, []);

    const restarted = await server.restart();
    t.teardown(() => restarted.destroy());
    const again = clientFor(restarted, 'hamlet@example.com');
    t.same((await again.post('/register', { fetch_event_types: ['muted_users'] })).body.muted_users, muted, 'kept across a restart');
    const id = await send(clientFor(restarted, 'iago@example.com'), 'Verona', 'after', 'still muted');
    t.ok((await flagsOf(again, id)).includes('read'), 'and still applied to new messages');
    t.equal((await again.delete(`/users/me/muted_users/${IAGO}`)).status, 200);
    t.match(await take({ ...mine, api: again }), [{ type: 'muted_users', muted_users: [] }], 'a restored queue hears the change');
  });

  t.test("Zulip's refusals change nothing", async (t) => {
    const { hamlet } = await messageWorld(t);
    const queue = await register(hamlet, { event_types: ['muted_users'] });
    t.same(error(await hamlet.post(`/users/me/muted_users/${HAMLET}`)), bad('Cannot mute self'));
    t.same(error(await hamlet.post('/users/me/muted_users/4242')), bad('No such user'));
    t.same(error(await hamlet.delete('/users/me/muted_users/4242')), bad('No such user'));
    t.same(error(await hamlet.delete(`/users/me/muted_users/${IAGO}`)), bad('User is not muted'));
    t.equal((await hamlet.post(`/users/me/muted_users/${IAGO}`)).status, 200);
    t.same(error(await hamlet.post(`/users/me/muted_users/${IAGO}`)), bad('User already muted'));
    t.same(error(await hamlet.post(`/users/me/muted_users/${BOT}`)), bad('No such user'), "the server's own notification bot is nobody to mute");
    t.equal((await hamlet.post(`/users/me/muted_users/${CORDELIA}`)).status, 200);
    t.same((await take(queue)).map((e) => e.muted_users.map((m: { id: number }) => m.id)), [[IAGO], [IAGO, CORDELIA]], 'one event per change, none for refusals');
  });

  t.test('messages from a muted user arrive read for the muter only', async (t) => {
    const { hamlet, othello, iago } = await messageWorld(t);
    const before = await send(iago, 'Verona', 'muting', 'sent before the mute');
    const dmBefore = await sendDm(iago, [HAMLET], 'a direct message before');
    t.notOk((await flagsOf(hamlet, before)).includes('read'));
    const queue = await register(hamlet, { event_types: ['message', 'update_message_flags'] });
    t.equal((await hamlet.post(`/users/me/muted_users/${IAGO}`)).status, 200);
    const [marked] = await take(queue);
    t.match(marked, { type: 'update_message_flags', op: 'add', flag: 'read' }, "muting marks the user's unread messages read, as Zulip");
    t.same([...marked.messages].sort((a: number, b: number) => a - b), [before, dmBefore]);

    const channel = await send(iago, 'Verona', 'muting', 'sent after the mute, mentioning @**King Hamlet**');
    const dm = await sendDm(iago, [HAMLET], 'a direct message after');
    t.same((await flagsOf(hamlet, channel)).sort(), ['mentioned', 'read'], 'read on arrival (mentions are still flagged)');
    t.ok((await flagsOf(hamlet, dm)).includes('read'));
    t.notOk((await flagsOf(othello, channel)).includes('read'), 'others are unaffected');
    const arrivals = (await take(queue)).filter((e) => e.type === 'message');
    t.same(arrivals.map((e) => e.flags.includes('read')), [true, true], 'the message events say read');
    const unread = (await hamlet.post('/register', { fetch_event_types: ['message', 'update_message_flags'] })).body.unread_msgs;
    t.equal(unread.count, 0, 'nothing of the muted user counts as unread');

    t.equal((await hamlet.delete(`/users/me/muted_users/${IAGO}`)).status, 200);
    const later = await send(iago, 'Verona', 'muting', 'after unmuting');
    t.notOk((await flagsOf(hamlet, later)).includes('read'), 'unmuted: unread again');
  });
});
