/**
 * Outgoing webhook bots through HTTP: a mention in a channel and a direct message POST Zulip's
 * payload to the bot's URL (a local server here) outside the request, and the reply is posted
 * by the bot in the same conversation; a failing service is told to the owner.
 */
import { test, type Test } from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HAMLET } from '../helpers/events.js';
import { send, sendDm } from '../helpers/messages.js';
import { waitFor } from '../helpers/events.js';
import { world, type World } from '../helpers/world.js';

interface Received {
  body: any;
}

async function bookServer(t: Test, answer: (body: any) => { status: number; body: string }) {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const body = JSON.parse(text);
      received.push({ body });
      const reply = answer(body);
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

async function newest(w: World, narrow: unknown[]) {
  const response = await w.hamlet.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow, apply_markdown: false });
  return response.body.messages.at(-1);
}

/**
 * The newest message of a narrow once `senderId` posted it, as a client reads it: the bot's reply
 * is written after the triggering answer, and is readable once its batch is (not when memory has it).
 */
async function newestFrom(w: World, narrow: unknown[], senderId: number, what: string) {
  const until = Date.now() + 60_000;
  for (;;) {
    const message = await newest(w, narrow);
    if (message?.sender_id === senderId) return message;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('outgoing webhooks', async (t) => {
  t.test('a mention and a direct message reach the service; its replies are posted by the bot', async (t) => {
    const w = await world(t);
    const service = await bookServer(t, (body) => ({ status: 200, body: JSON.stringify({ content: `echo: ${body.data}` }) }));
    const created = await w.hamlet.post('/bots', { full_name: 'Echo', short_name: 'echo', bot_type: 3, payload_url: JSON.stringify(service.url) });
    t.equal(created.status, 200, JSON.stringify(created.body));
    const botId = created.body.user_id;
    const token = w.org.users.get(botId)!.botService!.token;

    const id = await send(w.othello, 'Verona', 'hooks', '@**Echo** hello');
    await waitFor(() => service.received.length === 1, 'the service is called');
    const payload = service.received[0]!.body;
    t.same([payload.data, payload.trigger, payload.token, payload.bot_full_name, payload.bot_email], ['@**Echo** hello', 'mention', token, 'Echo', `echo-bot@${w.org.host}`]);
    t.same([payload.message.id, payload.message.content, payload.message.display_recipient, payload.message.subject], [id, '@**Echo** hello', 'Verona', 'hooks']);
    t.match(payload.message.rendered_content, /user-mention/);
    const reply = await newestFrom(w, [{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: 'hooks' }], botId, 'the reply');
    t.same([reply.sender_id, reply.content, reply.client], [botId, 'echo: @**Echo** hello', 'OutgoingWebhookResponse']);

    await sendDm(w.hamlet, [botId], 'private hello');
    await waitFor(() => service.received.length === 2, 'a direct message calls the service');
    t.equal(service.received[1]!.body.trigger, 'direct_message');
    const dm = await newestFrom(w, [{ operator: 'dm', operand: [botId] }], botId, 'the reply to the direct message');
    t.same([dm.sender_id, dm.content, dm.type], [botId, 'echo: private hello', 'private']);
    await send(w.othello, 'Verona', 'hooks', 'no mention here');
    t.equal(service.received.length, 2, 'a message without a mention calls nothing');
  });

  t.test('a failing service: a notice in the conversation and a direct message to the owner', async (t) => {
    const w = await world(t);
    const service = await bookServer(t, () => ({ status: 500, body: 'oops' }));
    const botId = (await w.hamlet.post('/bots', { full_name: 'Broken', short_name: 'broken', bot_type: 3, payload_url: JSON.stringify(service.url) })).body.user_id;
    const id = await send(w.othello, 'Verona', 'hooks', '@**Broken** please');
    await waitFor(() => w.server.services.messages.get(id + 2) !== undefined, 'the notices are posted');
    const notice = await newest(w, [{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: 'hooks' }]);
    t.same([notice.sender_id, notice.content], [botId, 'Failure! Bot is unavailable']);
    const owner = await newest(w, [{ operator: 'dm', operand: [botId] }]);
    t.match(owner.content, /^\[A message\]\(.*\) to your bot @_\*\*Broken\*\* triggered an outgoing webhook\.\nThe webhook got a response with status code \*500\*\./);
    t.equal(w.org.users.get(botId)!.botOwnerId, HAMLET);
  });
});
