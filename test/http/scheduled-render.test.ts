/**
 * Black-box tests of the render kept for scheduled messages (queries/scheduled-render.ts): made
 * when scheduled, reused at delivery while nothing rendering reads has changed, rendered again
 * when something has (a mentioned user renamed), and dropped once delivered or deleted.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { test } from 'tap';
import type { Api } from '../helpers/client.js';
import { messageWorld, VERONA } from '../helpers/messages.js';

async function schedule(api: Api, params: Record<string, unknown>): Promise<number> {
  const response = await api.post('/scheduled_messages', params);
  if (response.status !== 200) throw new Error(`schedule failed: ${JSON.stringify(response.body)}`);
  return response.body.scheduled_message_id;
}

/** The newest message of a topic in Verona, rendered, once it is there (bounded wait in real time). */
async function delivered(api: Api, topic: string): Promise<{ content: string; flags: string[] }> {
  const until = Date.now() + 8_000;
  for (;;) {
    const narrow = [{ operator: 'channel', operand: VERONA }, { operator: 'topic', operand: topic }];
    const found = (await api.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow })).body.messages[0];
    if (found) return found;
    if (Date.now() > until) throw new Error(`nothing delivered to ${topic}`);
    await delay(20);
  }
}

test('scheduled messages keep their render while it is valid', async (t) => {
  const { server, hamlet, othello, seconds, advance } = await messageWorld(t);
  const renders = server.services.readCaches.scheduledRenders;
  const mention = 'Hello @**Othello, the Moor of Venice**, **now**';
  const kept = await schedule(hamlet, { type: 'stream', to: VERONA, topic: 'kept', content: mention, scheduled_delivery_timestamp: seconds() + 1 });
  const deleted = await schedule(hamlet, { type: 'stream', to: VERONA, topic: 'deleted', content: 'never sent', scheduled_delivery_timestamp: seconds() + 60 });
  t.ok(renders.has(kept) && renders.has(deleted), 'rendered once, when scheduled');
  t.equal((await hamlet.delete(`/scheduled_messages/${deleted}`)).status, 200);
  t.notOk(renders.has(deleted), 'dropped with a deleted message');
  advance(1);
  const first = await delivered(othello, 'kept');
  t.match(first.content, /class="user-mention" data-user-id="\d+">@Othello, the Moor of Venice<\/span>, <strong>now<\/strong>/, 'the kept render is the message');
  t.ok(first.flags.includes('mentioned'), 'and its mention counts');
  // Dropped after the delivery's write is durable, which may come a moment after the message is readable.
  const until = Date.now() + 8_000;
  while (renders.has(kept) && Date.now() < until) await delay(20);
  t.notOk(renders.has(kept), 'dropped once delivered');

  // A change to what rendering reads between scheduling and delivery: rendered again.
  const stale = await schedule(hamlet, { type: 'stream', to: VERONA, topic: 'renamed', content: mention, scheduled_delivery_timestamp: seconds() + 1 });
  t.ok(renders.has(stale));
  t.equal((await othello.patch('/settings', { full_name: 'Othello' })).status, 200);
  advance(1);
  const second = await delivered(othello, 'renamed');
  t.notMatch(second.content, /user-mention/, 'the old name no longer mentions anyone');
  t.notOk(second.flags.includes('mentioned'), 'no mention flag from a stale render');
});
