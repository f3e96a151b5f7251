/**
 * Black-box tests of the serialised reads (queries/read-caches.ts): GET /messages builds its page
 * from message objects encoded once and shared by readers, and GET /users from one list per role.
 * Each answer is compared with the uncached one (GET /messages/{id}, GET /users/{id}) for several
 * readers, through every write that changes what the cached JSON holds, and after a restart.
 */
import { test } from 'tap';
import type { Api } from '../helpers/client.js';
import { Transaction } from '../../src/store/transaction.js';
import { EmailVisibility } from '../../src/domain/users.js';
import { setRealm } from '../helpers/world.js';
import { clientFor } from '../helpers/server.js';
import { DENMARK, messageWorld, message, send, sendDm } from '../helpers/messages.js';

test('serialised reads', async (t) => {
  t.test('GET /messages: every message as GET /messages/{id} shows it, through every change', async (t) => {
    const { server, hamlet, othello, iago } = await messageWorld(t);
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push(await send(i % 2 ? othello : hamlet, 'Denmark', 'cache', `message **${i}**`));
    const poll = await send(hamlet, 'Denmark', 'cache', '/poll Lunch?\n- Pizza\n- Soup');
    const dm = await sendDm(hamlet, [5], 'just us');
    const counts = server.services.readCaches.messages.counts;
    const formats = [{}, { apply_markdown: false, client_gravatar: false, allow_empty_topic_name: true }];

    /** Every message of the newest page, for hamlet and othello in two formats, equals its own GET. */
    const check = async (label: string): Promise<number[]> => {
      let seen: number[] = [];
      for (const client of [hamlet, othello] as Api[]) {
        for (const format of formats) {
          const page = await client.get('/messages', { narrow: [], anchor: 'newest', num_before: 8, num_after: 0, ...format });
          t.equal(page.status, 200, `${label}: the page`);
          for (const got of page.body.messages) t.same(got, await message(client, got.id, format), `${label}: message ${got.id} for ${client.email}`);
          seen = page.body.messages.map((m: { id: number }) => m.id);
        }
      }
      return seen;
    };

    t.ok((await check('first read')).includes(dm));
    const encoded = counts.encoded;
    await check('read again');
    t.equal(counts.encoded, encoded, 'the second read encodes nothing');
    t.ok(counts.reused > 0, 'and reuses what the first encoded');
    const dmPage = async (client: Api, other: string) => (await client.get('/messages', { narrow: [['dm', other]], anchor: 'newest', num_before: 1, num_after: 0 })).body.messages[0];
    const [ofHamlet, ofOthello] = [await dmPage(hamlet, 'othello@example.com'), await dmPage(othello, 'hamlet@example.com')];
    t.same([ofHamlet.id, ofOthello.id], [dm, dm]);
    t.not(ofHamlet.recipient_id, ofOthello.recipient_id, "a 1:1 conversation's recipient_id is each reader's own");

    await othello.post('/messages/flags', { messages: ids, op: 'add', flag: 'read' });
    await hamlet.post('/messages/flags', { messages: [ids[1]], op: 'add', flag: 'starred' });
    await check('flags changed');
    t.equal((await hamlet.patch(`/messages/${ids[0]}`, { content: 'edited _now_' })).status, 200);
    await check('content edited');
    t.equal((await hamlet.patch(`/messages/${ids[0]}`, { topic: 'moved', propagate_mode: 'change_one' })).status, 200);
    await check('topic moved');
    t.equal((await othello.post(`/messages/${ids[2]}/reactions`, { emoji_name: 'tada' })).status, 200);
    await check('reaction added');
    const vote = { type: 'vote', key: 'canned,0', vote: 1 };
    t.equal((await othello.post('/submessage', { message_id: poll, msg_type: 'widget', content: JSON.stringify(vote) })).status, 200);
    await check('submessage added');
    t.equal((await iago.patch(`/streams/${DENMARK}`, { new_name: 'Elsinore' })).status, 200);
    await check('channel renamed');
    t.equal((await hamlet.patch('/settings', { full_name: 'Prince Hamlet' })).status, 200);
    const renamed = await check('sender renamed');
    t.equal((await message(othello, dm)).display_recipient.find((p: { id: number }) => p.id === 4).full_name, 'Prince Hamlet');
    t.ok(renamed.length > 0);
    await setRealm(server, { allow_edit_history: false });
    await check('edit history hidden');
    t.equal((await iago.delete(`/messages/${ids[3]}`)).status, 200);
    t.notOk((await check('message deleted')).includes(ids[3]), 'a deleted message is not listed');

    const before = (await hamlet.get('/messages', { narrow: [], anchor: 'newest', num_before: 8, num_after: 0 })).body;
    const restarted = await server.restart();
    t.teardown(() => restarted.destroy());
    t.equal(restarted.services.readCaches.messages.counts.encoded, 0, 'a restarted server starts with nothing encoded');
    const again = await clientFor(restarted, 'hamlet@example.com').get('/messages', { narrow: [], anchor: 'newest', num_before: 8, num_after: 0 });
    t.same(again.body, before, 'the same page after a restart');

    // A record read once from the store is not kept (store/record-cache.ts), nor its JSON; its
    // second read keeps both. (Some of the page may have been read once at start already.)
    const kept = restarted.services.messages.cache;
    const restartedCounts = restarted.services.readCaches.messages.counts;
    const page = (again.body.messages as { id: number }[]).map((m) => m.id);
    const readOnce = page.filter((id) => kept.peek(id) === undefined);
    t.ok(readOnce.length > 0, 'records read from the store for the first time are not kept');
    const read = () => clientFor(restarted, 'hamlet@example.com').get('/messages', { narrow: [], anchor: 'newest', num_before: 8, num_after: 0 });
    const afterFirst = restartedCounts.encoded;
    t.same((await read()).body, before, 'the second read: the same page');
    t.ok(page.every((id) => kept.peek(id) !== undefined), 'read twice: every record kept');
    t.equal(restartedCounts.encoded, afterFirst + readOnce.length, 'those not kept were encoded again, the others reused');
    t.same((await read()).body, before, 'the third read: the same page');
    t.equal(restartedCounts.encoded, afterFirst + readOnce.length, 'the third read encodes nothing: the JSON was kept with the records');
  });

  t.test('GET /users: every member as GET /users/{id} shows them, for each role', async (t) => {
    const { server, org, hamlet, othello, iago, polonius } = await messageWorld(t);
    const counts = server.services.readCaches.userLists.counts;
    // Cordelia's and Hamlet's emails are for administrators only: Hamlet still sees his own.
    const tx = new Transaction();
    for (const email of ['cordelia@example.com', 'hamlet@example.com']) {
      org.users.save({ ...org.users.byEmail(email)!, emailAddressVisibility: EmailVisibility.ADMINS }, tx);
    }
    await server.services.commit(tx);

    const check = async (label: string) => {
      for (const client of [hamlet, othello, iago, polonius] as Api[]) {
        for (const params of [{}, { client_gravatar: false, include_custom_profile_fields: true }]) {
          const list = await client.get('/users', params);
          t.equal(list.status, 200);
          for (const member of list.body.members) {
            t.same(member, (await client.get(`/users/${member.user_id}`, params)).body.user, `${label}: user ${member.user_id} for ${client.email}`);
          }
        }
      }
    };
    await check('first read');
    t.ok(counts.reused > 0, 'members of one role share a list');
    const hamletSees = (await hamlet.get('/users')).body.members.find((m: { user_id: number }) => m.user_id === 4);
    const othelloSees = (await othello.get('/users')).body.members.find((m: { user_id: number }) => m.user_id === 4);
    t.same([hamletSees.delivery_email, othelloSees.delivery_email], ['hamlet@example.com', null], "one's own email, not another's");

    t.equal((await hamlet.patch('/settings', { full_name: 'Prince Hamlet' })).status, 200);
    t.equal((await othello.get('/users')).body.members.find((m: { user_id: number }) => m.user_id === 4).full_name, 'Prince Hamlet', 'a change is seen at once');
    await check('after a change');
  });
});
