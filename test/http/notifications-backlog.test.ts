/**
 * A large notification backlog does not block the server: thousands of pushes and a
 * missed-message batch of thousands of messages, pending when the server starts, drain in rounds
 * of bounded work while requests are answered; every one is delivered once. The fake bouncer and
 * the mailbox hold an answer back mid-drain, so "answered before the outbox is empty" holds by
 * construction, not by timing.
 */
import { test, t as root, type Test } from 'tap';
import { writeMessage } from '../../src/actions/message-send.js';
import { MAIL_ITEMS_PER_PASS } from '../../src/actions/missed-message-email.js';
import { HAMLET, OTHELLO } from '../helpers/demo-ids.js';
import { waitFor } from '../helpers/events.js';
import { fakeBouncer, type BouncerCall } from '../helpers/fake-bouncer.js';
import { mailbox } from '../helpers/mailbox.js';
import { clientFor, type TestServer } from '../helpers/server.js';
import { world } from '../helpers/world.js';

const bouncer = await fakeBouncer();
const smtp = await mailbox();
root.teardown(async () => {
  await bouncer.close();
  await smtp.close();
});

// Enough for the pushes to outlast the 100 answered before the hold, and for five full mail passes
// and a partial one; more items only repeat the same paths (3000 took three times the CPU).
const COUNT = 5 * MAIL_ITEMS_PER_PASS + 50;
const text = (i: number) => `Backlog item ${i} end`;

test('a backlog at start drains while requests are answered; each item is delivered once', async (t) => {
  const w = await world(t, { env: { ...bouncer.env, ...smtp.env } });
  t.equal((await w.othello.post('/users/me/android_gcm_reg_id', { token: 'othello-backlog' })).status, 200);
  t.equal((await w.othello.patch('/settings', { email_notifications_batching_period_seconds: 1 })).status, 200);

  // The backlog: COUNT direct messages to Othello (idle), written in-process, while the bouncer
  // is down and the mail server refuses, so that it is all still pending at the restart.
  bouncer.state.down = true;
  smtp.state.refuse = true;
  const { services } = w.server;
  const hamlet = services.org.users.get(HAMLET)!;
  const othello = services.org.users.get(OTHELLO)!;
  const ids: number[] = [];
  for (let start = 0; start < COUNT; start += 250) {
    await services.write((tx) => {
      for (let i = start; i < Math.min(COUNT, start + 250); i++) {
        const { record } = writeMessage(services, tx, {
          sender: hamlet, client: 'test', readBySender: true, content: text(i), rendered: services.render(text(i)),
          destination: { type: 'private', participants: [hamlet, othello] },
        });
        ids.push(record.id);
      }
    });
  }
  await waitFor(() => services.notifications.jobCount >= COUNT && services.notifications.missedMailSize(OTHELLO) >= COUNT, 'the backlog decided', 60_000);

  const server = await w.server.restart();
  try {
    await drain(t, server, ids);
  } finally {
    bouncer.release();
    smtp.release();
    await server.stop();
  }
});

async function drain(t: Test, server: TestServer, ids: readonly number[]): Promise<void> {
  const { notifications } = server.services;
  const othelloApi = clientFor(server, 'othello@example.com');
  const hamletApi = clientFor(server, 'hamlet@example.com');
  t.ok(notifications.jobCount >= COUNT && notifications.missedMailSize(OTHELLO) >= COUNT, 'the backlog is pending at start');

  // Pushes: the bouncer answers 100, then holds the next answer back.
  bouncer.state.holdFrom = bouncer.to('push/notify').length + 100;
  bouncer.state.down = false;
  await bouncer.holding(60_000);
  t.equal((await fetch(`${server.url}/health`)).status, 200, '/health answers while pushes drain');
  const me = await othelloApi.get('/users/me');
  t.equal(me.status, 200, 'GET /users/me answers while pushes drain');
  t.ok(notifications.jobCount > 0, 'and the pushes are not all delivered yet');
  bouncer.release();

  // Mail: the mail server takes one mail, then holds the next one back.
  smtp.state.holdFrom = smtp.mails.length + 1;
  smtp.state.refuse = false;
  await smtp.holding(60_000);
  t.equal((await fetch(`${server.url}/health`)).status, 200, '/health answers while mail drains');
  t.equal((await hamletApi.get('/users/me')).status, 200, 'GET /users/me answers while mail drains');
  t.ok(notifications.missedMailSize(OTHELLO) > 0, 'and the batch is not all mailed yet');
  smtp.release();

  await waitFor(() => notifications.jobCount === 0 && notifications.missedMailSize(OTHELLO) === 0, 'the backlog drained', 180_000);
  const pushed = new Map<number, number>();
  for (const call of bouncer.to('push/notify') as BouncerCall[]) {
    const id = call.body.gcm_payload?.zulip_message_id as number;
    if (call.body.gcm_payload?.event === 'message') pushed.set(id, (pushed.get(id) ?? 0) + 1);
  }
  t.equal(ids.filter((id) => pushed.get(id) === 1).length, COUNT, 'every message pushed exactly once');
  const mails = smtp.mails.filter((mail) => mail.body.includes('Backlog item'));
  t.ok(mails.length >= Math.ceil(COUNT / MAIL_ITEMS_PER_PASS), 'the batch went in passes of bounded size');
  const mailed = new Map<number, number>();
  for (const mail of mails) {
    for (const i of new Set([...mail.body.matchAll(/Backlog item (\d+) end/g)].map((m) => Number(m[1])))) mailed.set(i, (mailed.get(i) ?? 0) + 1);
  }
  t.equal([...Array(COUNT).keys()].filter((i) => mailed.get(i) === 1).length, COUNT, 'every message mailed in exactly one mail');
  t.same(bouncer.violations, [], 'every request had the shape Zulip\'s bouncer accepts');
}
