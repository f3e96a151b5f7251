/**
 * `recent_private_conversations` in POST /register: the user's direct-message conversations
 * among their newest 1,000 direct messages, newest first, with the other participants.
 */
import { test } from 'tap';
import { clientFor } from '../helpers/server.js';
import { messageWorld, send, sendDm } from '../helpers/messages.js';
import type { Api } from '../helpers/client.js';

const recent = async (client: Api) => (await client.post('/register', { fetch_event_types: ['recent_private_conversations'] })).body.recent_private_conversations;

test('recent private conversations', async (t) => {
  t.test('newest first, other participants only, kept current', async (t) => {
    const { server, hamlet, othello, cordelia } = await messageWorld(t);
    t.same(await recent(hamlet), [], 'none yet');
    const toOthello = await sendDm(hamlet, [5], 'hello othello');
    const fromOthello = await sendDm(othello, [4], 'hello hamlet');
    const group = await sendDm(hamlet, [5, 6], 'hello both');
    await send(othello, 'Denmark', 'talk', '@**King Hamlet** a mention is a row, but not a conversation');
    const self = await sendDm(hamlet, [4], 'a note to myself');
    t.ok(toOthello < fromOthello && fromOthello < group && group < self);
    t.same(await recent(hamlet), [
      { max_message_id: self, user_ids: [] },
      { max_message_id: group, user_ids: [5, 6] },
      { max_message_id: fromOthello, user_ids: [5] },
    ], "hamlet's: the conversation with oneself has no other participants");
    t.same(await recent(othello), [
      { max_message_id: group, user_ids: [4, 6] },
      { max_message_id: fromOthello, user_ids: [4] },
    ], "othello's");
    t.same(await recent(cordelia), [{ max_message_id: group, user_ids: [4, 5] }], "cordelia's");

    const reply = await sendDm(cordelia, [4], 'a reply');
    t.same((await recent(hamlet))[0], { max_message_id: reply, user_ids: [6] }, 'a new message puts its conversation first');

    t.equal((await hamlet.delete(`/messages/${self}`)).status, 200, 'the sender deletes it within the time limit');
    t.notOk((await recent(hamlet)).some((c: any) => c.user_ids.length === 0), 'a conversation whose only message was deleted is gone');

    const before = await recent(hamlet);
    const restarted = await server.restart();
    t.teardown(() => restarted.destroy());
    t.same(await recent(clientFor(restarted, 'hamlet@example.com')), before, 'the same after a restart');
  });

  t.test("Zulip's cap: only the newest 1,000 direct messages are looked at", async (t) => {
    const { hamlet, othello, cordelia } = await messageWorld(t);
    const old = await sendDm(cordelia, [4], 'long ago');
    for (let sent = 0; sent < 1000; sent += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, i) => sendDm(othello, [4], `chatter ${sent + i}`)));
    }
    const list = await recent(hamlet);
    t.equal(list.length, 1, 'cordelia\'s conversation is behind 1,000 newer direct messages');
    t.same(list[0].user_ids, [5]);
    t.same((await recent(cordelia)), [{ max_message_id: old, user_ids: [4] }], 'for cordelia it is still recent');
  });
});
