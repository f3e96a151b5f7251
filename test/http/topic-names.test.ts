/** Topics from U+00FF on (they sort at or above it) are listed, found by a topic narrow, and survive moves and deletes. */
import { test } from 'tap';
import type { Api } from '../helpers/client.js';
import { clientFor } from '../helpers/server.js';
import { world } from '../helpers/world.js';

const VERONA = 2;


async function send(api: Api, topic: string, content: string): Promise<number> {
  const response = await api.post('/messages', { type: 'stream', to: 'Verona', topic, content });
  if (response.status !== 200) throw new Error(`send failed: ${JSON.stringify(response.body)}`);
  return response.body.id;
}

async function topicNames(api: Api): Promise<string[]> {
  const response = await api.get(`/users/me/${VERONA}/topics`);
  if (response.status !== 200) throw new Error(`topics failed: ${JSON.stringify(response.body)}`);
  return response.body.topics.map((topic: { name: string }) => topic.name);
}

async function inTopic(api: Api, topic: string): Promise<number[]> {
  const narrow = [{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: topic }];
  const response = await api.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow });
  if (response.status !== 200) throw new Error(`narrow failed: ${JSON.stringify(response.body)}`);
  return response.body.messages.map((message: { id: number }) => message.id);
}

test('topics that sort at or above U+00FF are listed, found by a topic narrow, and survive moves and deletes', async (t) => {
  const { server } = await world(t);
  const api: Api = clientFor(server, 'iago@example.com');
  const chinese = await send(api, '中文', 'in Chinese');
  const emoji = await send(api, '\u{1F600} grin', 'with an emoji');
  const yDiaeresis = await send(api, '\u00ffes', 'starting with ÿ');
  const plain = await send(api, 'plain ascii', 'for comparison');
  const second = await send(api, '中文', 'in Chinese again');
  const names = await topicNames(api);
  for (const name of ['中文', '\u{1F600} grin', '\u00ffes', 'plain ascii']) t.ok(names.includes(name), `'${name}' is listed`);
  t.same(await inTopic(api, '中文'), [chinese, second]);
  t.same(await inTopic(api, '\u{1F600} grin'), [emoji]);
  t.same(await inTopic(api, '\u00ffes'), [yDiaeresis]);
  t.same(await inTopic(api, 'plain ascii'), [plain]);

  // Move the whole Chinese topic to an astral one, then delete the ÿ topic's only message.
  const moved = await api.patch(`/messages/${chinese}`, { topic: '\u{1F680} 火箭', propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: false });
  t.equal(moved.status, 200, JSON.stringify(moved.body));
  t.same(await inTopic(api, '\u{1F680} 火箭'), [chinese, second], 'both messages moved');
  t.same(await inTopic(api, '中文'), []);
  const deleted = await api.delete(`/messages/${yDiaeresis}`);
  t.equal(deleted.status, 200, JSON.stringify(deleted.body));
  const after = await topicNames(api);
  t.ok(after.includes('\u{1F680} 火箭'), 'the new topic is listed');
  t.notOk(after.includes('中文'), 'the emptied topic is gone');
  t.notOk(after.includes('\u00ffes'), 'the topic whose only message was deleted is gone');
  t.ok(after.includes('\u{1F600} grin'));
  const listed = (await api.get(`/users/me/${VERONA}/topics`)).body.topics.find((topic: { name: string }) => topic.name === '\u{1F680} 火箭');
  t.equal(listed?.max_id, second, 'with its newest message');
});
