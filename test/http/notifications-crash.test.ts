/**
 * Notifications survive `kill -9`: the real server process is killed after a notification was
 * decided (durable in the outbox) and before it was delivered, then started again. Each is
 * delivered after the restart, exactly once: a push decided while the bouncer was down, an
 * email batch waiting for its period, and a batch whose mail server refused it when it came due.
 */
import { test } from 'tap';
import { login, type Api } from '../helpers/client.js';
import { HAMLET, OTHELLO } from '../helpers/demo-ids.js';
import { delay } from '../helpers/events.js';
import { fakeBouncer, type BouncerCall } from '../helpers/fake-bouncer.js';
import { mailbox } from '../helpers/mailbox.js';
import { durableServerEnv, exited, killAndRemove, startProcess } from '../helpers/process.js';

const pushFor = (id: number) => (call: BouncerCall) => call.body.gcm_payload?.event === 'message' && call.body.gcm_payload?.zulip_message_id === id;

async function dm(api: Api, to: number, content: string): Promise<number> {
  const response = await api.post('/messages', { type: 'direct', to: [to], content });
  if (response.status !== 200) throw new Error(`send failed: ${JSON.stringify(response.body)}`);
  return response.body.id;
}

test('kill -9 between decision and delivery: everything delivered after the restart, once', async (t) => {
  const bouncer = await fakeBouncer();
  const smtp = await mailbox();
  const { dataDir, env } = await durableServerEnv({ ...bouncer.env, ...smtp.env, PARLEY_LOG_LEVEL: 'error' });
  let server = await startProcess(env);
  t.teardown(async () => {
    await killAndRemove(server.child, dataDir);
    await bouncer.close();
    await smtp.close();
  });
  const restart = async () => {
    server.child.kill('SIGKILL');
    await exited(server.child);
    server = await startProcess(env);
    return login(server.url, 'hamlet@example.com');
  };
  let hamlet = await login(server.url, 'hamlet@example.com');
  const othello = await login(server.url, 'othello@example.com');
  for (const [path, params] of [['/users/me/android_gcm_reg_id', { token: 'othello-crash-phone' }], ['/settings', { email_notifications_batching_period_seconds: 3 }]] as const) {
    const response = path === '/settings' ? await othello.patch(path, params) : await othello.post(path, params);
    t.equal(response.status, 200, `${path} set`);
  }

  // 1. The bouncer is down: the push is decided (and refused once), the email waits for its batch.
  bouncer.state.down = true;
  const first = await dm(hamlet, OTHELLO, 'Decided before the crash');
  await bouncer.refusals(1);
  hamlet = await restart();
  bouncer.state.down = false;
  await bouncer.waitFor('push/notify', 1, pushFor(first));
  await smtp.waitFor((mail) => mail.body.includes('Decided before the crash'));

  // 2. The mail server refuses the batch when it comes due; the push went before it (same round, in order).
  smtp.state.refuse = true;
  const second = await dm(hamlet, OTHELLO, 'Refused by the mail server');
  await bouncer.waitFor('push/notify', 1, pushFor(second));
  await smtp.refusals(1);
  hamlet = await restart();
  smtp.state.refuse = false;
  await smtp.waitFor((mail) => mail.body.includes('Refused by the mail server'));

  // Later traffic goes through the same queue and batch: once it is delivered, nothing older is left to repeat.
  const third = await dm(hamlet, OTHELLO, 'After everything');
  await bouncer.waitFor('push/notify', 1, pushFor(third));
  await smtp.waitFor((mail) => mail.body.includes('After everything'));
  await delay(500);
  for (const [id, text] of [[first, 'Decided before the crash'], [second, 'Refused by the mail server'], [third, 'After everything']] as const) {
    t.equal(bouncer.to('push/notify').filter(pushFor(id)).length, 1, `one push for "${text}"`);
    t.equal(smtp.mails.filter((mail) => mail.body.includes(text)).length, 1, `one email for "${text}"`);
  }
  t.equal(bouncer.to('push/notify').filter((call) => call.body.user_id === HAMLET).length, 0, 'never the sender');
  t.same(bouncer.violations, [], 'every request had the shape Zulip\'s bouncer accepts');
});
