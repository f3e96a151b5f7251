/**
 * The published zulip-js client against a real server: logging in and reading users and server
 * settings; sending, fetching with a narrow, reacting and flagging; receiving events with callOnEachEvent.
 */
import { test } from 'tap';
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { clientFor, startTestServer } from '../helpers/server.js';
import { world } from '../helpers/world.js';
import { exited } from '../helpers/process.js';
import { REPO_ROOT, settledWithin, waitFor, send } from '../helpers/events.js';

const require = createRequire(import.meta.url);
const zulip = require('zulip-js') as (config: Record<string, string>) => Promise<any>;

test('zulip-js', async (t) => {
  t.test('the published zulip-js client logs in and reads users and server settings', async (t) => {
    const { server, org } = await world(t);
    const client = await zulip({ username: 'othello@example.com', password: 'parley-demo', realm: server.url });
    t.equal(client.config.apiKey, org.users.byEmail('othello@example.com')!.apiKey, 'logged in with fetch_api_key (multipart)');
    const users = await client.users.retrieve();
    t.equal(users.result, 'success');
    t.ok(users.members.some((m: any) => m.full_name === 'Othello, the Moor of Venice'));
    const me = await client.users.me.getProfile();
    t.equal(me.user_id, 5);
    const settings = await client.server.settings();
    t.equal(settings.zulip_feature_level, 416);
  });
});

test('the published zulip-js client sends, fetches with a narrow, reacts and flags', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.destroy());
  const othelloUser = server.services.org.users.byEmail('othello@example.com')!;
  const client = await zulip({ username: 'othello@example.com', apiKey: othelloUser.apiKey, realm: server.url });
  const sent = await client.messages.send({ type: 'stream', to: 'Denmark', topic: 'from zulip-js', content: 'Hello from **zulip-js**' });
  t.equal(sent.result, 'success');
  t.type(sent.id, 'number');
  const dm = await client.messages.send({ type: 'private', to: 'hamlet@example.com', content: 'psst' });
  t.equal(dm.result, 'success');
  const fetched = await client.messages.retrieve({ anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'stream', operand: 'Denmark' }, { operator: 'topic', operand: 'from zulip-js' }] });
  t.equal(fetched.result, 'success');
  t.same(fetched.messages.map((x: any) => [x.id, x.content, x.sender_full_name]), [[sent.id, '<p>Hello from <strong>zulip-js</strong></p>', 'Othello, the Moor of Venice']]);
  const reacted = await client.reactions.add({ message_id: sent.id, emoji_name: 'octopus' });
  t.equal(reacted.result, 'success');
  const flagged = await client.messages.flags.add({ flag: 'starred', messages: [sent.id] });
  t.same([flagged.result, flagged.messages], ['success', [sent.id]]);
  const one = await client.messages.getById({ message_id: sent.id });
  t.same(one.message.reactions, [{ emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: othelloUser.id }]);
  t.same(one.message.flags, ['starred']);
  const dms = await client.messages.retrieve({ anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'dm', operand: 'hamlet@example.com' }] });
  t.same(dms.messages.map((x: any) => x.id), [dm.id]);
  const bad = await client.messages.retrieve({ anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'stream', operand: 'Atlantis' }] });
  t.same([bad.result, bad.code], ['error', 'BAD_NARROW']);
});

test('the published zulip-js client receives events with callOnEachEvent', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.destroy());
  const othello = server.services.org.users.byEmail('othello@example.com')!;
  const hamlet = clientFor(server, 'hamlet@example.com');
  // zulip-js polls forever (and replaces the global FormData): it runs in its own process, which the test ends.
  const script = `
    const zulip = require('zulip-js');
    zulip({ username: process.env.Z_EMAIL, apiKey: process.env.Z_KEY, realm: process.env.Z_REALM })
      .then((client) => client.callOnEachEvent((event) => process.stdout.write(JSON.stringify(event) + '\\n')));
  `;
  const child = spawn(process.execPath, ['-e', script], {
    cwd: REPO_ROOT,
    env: { ...process.env, Z_EMAIL: othello.deliveryEmail, Z_KEY: othello.apiKey, Z_REALM: server.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(async () => {
    child.kill('SIGKILL');
    await exited(child);
  });
  const received: any[] = [];
  let buffered = '';
  let notify: (() => void) | undefined;
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      received.push(JSON.parse(buffered.slice(0, newline)));
      buffered = buffered.slice(newline + 1);
      notify?.();
    }
  });
  await waitFor(() => server.services.queues.hasQueues(othello.id), 'zulip-js to register its queue');
  const queues = [...server.services.queues.queuesOf(othello.id)];
  t.equal(queues.length, 1);
  t.equal(queues[0].descriptor.eventTypes, null, 'zulip-js registers for every event type');
  const id = await send(hamlet, 'Denmark', 'hello zulip-js', 'js');
  const arrived = new Promise<void>((resolve) => {
    notify = () => received.some((e) => e.type === 'message' && e.message.id === id) && resolve();
    notify();
  });
  t.not(await settledWithin(arrived, 60_000), 'pending', 'the callback got the message');
  const event = received.find((e) => e.type === 'message');
  t.match(event.message, { id, content: 'hello zulip-js', sender_email: 'hamlet@example.com', display_recipient: 'Denmark' });
  child.kill('SIGTERM');
  await exited(child);
});
