/**
 * Scheduled messages checked ahead (actions/scheduled-prepared.ts): the message checked when it
 * was scheduled is sent as it was checked while nothing the check read has changed (a first
 * message in the channel meanwhile changes nothing), and is checked again when something has:
 * a channel whose posting rule changed refuses it, a sender no longer subscribed to a channel
 * that needs it is refused. Dropped once sent or deleted.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { test } from 'tap';
import type { Api } from '../helpers/client.js';
import { messageWorld, VERONA } from '../helpers/messages.js';
import { systemGroupId } from '../helpers/user-groups.js';
import { hasKeptSend } from '../../src/actions/scheduled-prepared.js';

async function schedule(api: Api, params: Record<string, unknown>): Promise<number> {
  const response = await api.post('/scheduled_messages', params);
  if (response.status !== 200) throw new Error(`schedule failed: ${JSON.stringify(response.body)}`);
  return response.body.scheduled_message_id;
}

/** Waits (bounded, real time) until `done` holds. */
async function until(done: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 8_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}

async function newestIn(api: Api, topic: string): Promise<{ content: string; sender_id: number; flags: string[] } | undefined> {
  const narrow = [{ operator: 'channel', operand: VERONA }, { operator: 'topic', operand: topic }];
  return (await api.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow, apply_markdown: false })).body.messages[0];
}

test('a message checked when scheduled is sent as checked, while still valid', async (t) => {
  const { server, hamlet, othello, seconds, advance } = await messageWorld(t);
  const { services } = server;
  const sent = await schedule(hamlet, { type: 'stream', to: VERONA, topic: 'ahead', content: 'checked ahead', scheduled_delivery_timestamp: seconds() + 1, read_by_sender: false });
  const deleted = await schedule(hamlet, { type: 'stream', to: VERONA, topic: 'ahead', content: 'never sent', scheduled_delivery_timestamp: seconds() + 60 });
  t.ok(hasKeptSend(services, sent) && hasKeptSend(services, deleted), 'checked once, when scheduled');
  t.notOk(hasKeptSend(services, await schedule(hamlet, { type: 'stream', to: VERONA, topic: 'ahead', content: '@**all** hear', scheduled_delivery_timestamp: seconds() + 60 })), 'a wildcard mention is never kept');
  t.equal((await hamlet.delete(`/scheduled_messages/${deleted}`)).status, 200);
  t.notOk(hasKeptSend(services, deleted), 'dropped with a deleted message');
  // Another message to the channel meanwhile: the channel record changes, its rules do not.
  t.equal((await othello.post('/messages', { type: 'stream', to: VERONA, topic: 'between', content: 'in between' })).status, 200);
  advance(1);
  await until(async () => (await newestIn(othello, 'ahead'))?.content === 'checked ahead', 'the delivery');
  t.match(await newestIn(hamlet, 'ahead'), { sender_id: 4, content: 'checked ahead' }, 'sent as checked');
  t.notOk((await newestIn(hamlet, 'ahead'))!.flags.includes('read'), 'with the read_by_sender of the scheduled record');
  await until(() => !hasKeptSend(services, sent), 'the kept check to be dropped');
  t.pass('dropped once sent');
});

test('a change to what the check read: checked again, and refused', async (t) => {
  const { server, hamlet, iago, seconds, advance } = await messageWorld(t);
  const { services } = server;
  const id = await schedule(hamlet, { type: 'stream', to: VERONA, topic: 'policy', content: 'may I still?', scheduled_delivery_timestamp: seconds() + 1 });
  t.ok(hasKeptSend(services, id));
  const admins = await systemGroupId(iago, 'role:administrators');
  t.equal((await iago.patch(`/streams/${VERONA}`, { can_send_message_group: { new: admins } })).status, 200);
  advance(1);
  await until(async () => (await hamlet.get('/scheduled_messages')).body.scheduled_messages[0]?.failed === true, 'the failure');
  t.equal(await newestIn(iago, 'policy'), undefined, 'nothing was sent');
  t.notOk(hasKeptSend(services, id), 'a failed item keeps no check');
});
