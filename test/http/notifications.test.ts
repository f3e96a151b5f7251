/**
 * Mobile push and missed-message email end to end, through real HTTP, against a fake Zulip
 * bouncer that checks every request's shape (test/helpers/fake-bouncer.ts) and a local SMTP
 * server: who is notified (idle, active, muted topics, channel settings, followed topics), the
 * payloads, the batching, reading before the batch goes (no mail, a `remove` push), the bouncer
 * down (retried, sends never wait), the test notification, the metadata upload, the unsubscribe
 * link, and a batch pending across a restart.
 */
import { test, t as root } from 'tap';
import type { Api } from '../helpers/client.js';
import { delay, register, send, take } from '../helpers/events.js';
import { CORDELIA, HAMLET, OTHELLO, VERONA } from '../helpers/demo-ids.js';
import { fakeBouncer, type BouncerCall } from '../helpers/fake-bouncer.js';
import { mailbox, type Mail } from '../helpers/mailbox.js';
import { scheduleSoon } from '../helpers/schedule-soon.js';
import { world, type World } from '../helpers/world.js';

const bouncer = await fakeBouncer();
const smtp = await mailbox();
root.teardown(async () => {
  await bouncer.close();
  await smtp.close();
});
const env = { ...bouncer.env, ...smtp.env };

type Payload = Record<string, any>;
const gcm = (call: BouncerCall) => call.body.gcm_payload as Payload;
const pushFor = (id: number) => (call: BouncerCall) => gcm(call).event === 'message' && gcm(call).zulip_message_id === id;
const pushesFor = (id: number) => bouncer.to('push/notify').filter(pushFor(id));
const mailsWith = (text: string) => smtp.mails.filter((mail) => mail.body.includes(text));

/** A fresh organization; message ids start over in each, so the bouncer's record starts over too. */
async function fresh(t: Parameters<typeof world>[0]): Promise<World> {
  const w = await world(t, { env });
  bouncer.calls.length = 0;
  return w;
}

async function ok(response: Promise<{ status: number; body: any }>, what: string): Promise<any> {
  const answer = await response;
  if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** A phone (a deprecated FCM token, registered at the bouncer) and a short email batching period. */
async function phone(api: Api, token: string, batchSeconds = 1): Promise<void> {
  await ok(api.post('/users/me/android_gcm_reg_id', { token }), 'token');
  await ok(api.patch('/settings', { email_notifications_batching_period_seconds: batchSeconds }), 'batching period');
}

/**
 * A marker after what a test expects nothing of: a DM to Cordelia (idle, with a phone). Decisions
 * are written in send order and pushes delivered in that order, so once her push has arrived,
 * any push decided for an earlier message would have arrived before it.
 */
async function marker(w: World, text: string): Promise<void> {
  const id = await send(w.hamlet, [CORDELIA], text);
  await bouncer.waitFor('push/notify', 1, pushFor(id));
}

test('a DM to an idle user: one push with Zulip\'s payload, then after the batching period one email', async (t) => {
  const w = await fresh(t);
  await phone(w.othello, 'othello-phone-1');
  const id = await send(w.hamlet, [OTHELLO], 'Are you there, my lord? **Bold** news.');
  const [push] = await bouncer.waitFor('push/notify', 1, pushFor(id));
  const hamlet = w.org.users.get(HAMLET)!;
  t.match(push!.body, { user_id: OTHELLO, android_devices: ['othello-phone-1'], apple_devices: [], gcm_options: { priority: 'high' } });
  t.match(gcm(push!), {
    event: 'message', zulip_message_id: id, sender_id: HAMLET, sender_full_name: hamlet.fullName, recipient_type: 'private',
    content: 'Are you there, my lord? Bold news.', content_truncated: false, realm_id: w.org.id, realm_uri: w.org.url, user_id: OTHELLO,
  });
  t.match(push!.body.apns_payload, { alert: { title: hamlet.fullName, subtitle: '', body: 'Are you there, my lord? Bold news.' }, custom: { zulip: { message_ids: [id] } } });
  const mail = await smtp.waitFor((m) => m.body.includes('Are you there, my lord?'));
  t.same(mail.to, ['othello@example.com']);
  t.equal(mail.subject, `DMs with ${hamlet.fullName}`);
  t.match(mail.body, `${w.server.config.externalUrl}/#narrow/dm/${HAMLET}-King-Hamlet`, 'a link to the conversation in the web client');
  t.match(mail.body, /<strong>Bold<\/strong>/, 'HTML part with the rendered message');
  t.match(mail.body, /Content-Type: text\/plain/, 'and a plain-text part');
  t.equal(mailsWith('Are you there, my lord?').length, 1, 'one email');
  t.equal(pushesFor(id).length, 1, 'one push');
  t.same(bouncer.violations, [], 'every request had the shape Zulip\'s bouncer accepts');
});

test('an active user gets no email; a push only with enable_online_push_notifications (Zulip\'s default: on)', async (t) => {
  const w = await fresh(t);
  await phone(w.othello, 'othello-phone-2');
  await phone(w.cordelia, 'cordelia-phone-2');
  // Active: a queue receiving messages and an active presence report.
  const queue = await register(w.othello, { event_types: ['message'] });
  await ok(w.othello.post('/users/me/presence', { status: 'active' }), 'presence');
  const first = await send(w.hamlet, [OTHELLO], 'seen at once');
  await bouncer.waitFor('push/notify', 1, pushFor(first));
  await ok(w.othello.patch('/settings', { enable_online_push_notifications: false }), 'online push off');
  const second = await send(w.hamlet, [OTHELLO], 'seen at once, again');
  await marker(w, 'marker for the active user');
  t.equal(pushesFor(second).length, 0, 'no push while active with online pushes off');
  t.same(w.server.services.notifications.missedMailOf(OTHELLO), [], 'no email decided while active');
  t.ok((await take(queue)).some((event) => event.type === 'message'), 'the active client got the message');
  t.same(bouncer.violations, []);
});

test('muted topics: a wildcard mention there notifies nobody; a personal mention does (as in Zulip)', async (t) => {
  const w = await fresh(t);
  await phone(w.othello, 'othello-phone-3');
  await phone(w.cordelia, 'cordelia-phone-3');
  await ok(w.othello.post('/user_topics', { stream_id: VERONA, topic: 'quiet corner', visibility_policy: 1 }), 'mute');
  const wildcard = await send(w.hamlet, 'Verona', 'Hear ye, @**all**!', 'quiet corner');
  await marker(w, 'marker for the muted topic');
  t.equal(pushesFor(wildcard).filter((call) => call.body.user_id === OTHELLO).length, 0, 'no push for a wildcard mention in a muted topic');
  t.notOk(w.server.services.notifications.missedMailOf(OTHELLO).some((item) => item.messageId === wildcard), 'and no email');
  const elsewhere = await send(w.hamlet, 'Verona', 'Hear ye, @**all**!', 'open square');
  const [push] = await bouncer.waitFor('push/notify', 1, (call) => pushFor(elsewhere)(call) && call.body.user_id === OTHELLO);
  t.equal(push!.body.apns_payload.alert.subtitle, 'King Hamlet mentioned everyone:', 'outside the muted topic the wildcard notifies');
  const personal = await send(w.hamlet, 'Verona', 'A word, @**Othello, the Moor of Venice**', 'quiet corner');
  const [mention] = await bouncer.waitFor('push/notify', 1, pushFor(personal));
  t.equal(mention!.body.apns_payload.alert.subtitle, 'King Hamlet mentioned you:');
  t.same(bouncer.violations, []);
});

test('channel and followed-topic notifications reach those who turned them on, and nobody else', async (t) => {
  const w = await fresh(t);
  await phone(w.othello, 'othello-phone-4');
  await phone(w.cordelia, 'cordelia-phone-4');
  await ok(w.othello.post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: VERONA, property: 'push_notifications', value: true }] }), 'channel push');
  const plain = await send(w.hamlet, 'Verona', 'News for the channel', 'town');
  const [push] = await bouncer.waitFor('push/notify', 1, pushFor(plain));
  t.match(gcm(push!), { recipient_type: 'stream', stream: 'Verona', stream_id: VERONA, topic: 'town' });
  t.equal(push!.body.apns_payload.alert.title, '#Verona > town');
  t.equal(push!.body.apns_payload.alert.subtitle, 'King Hamlet:');
  t.same(pushesFor(plain).map((call) => call.body.user_id), [OTHELLO], 'only the user with channel pushes on');
  await ok(w.cordelia.post('/user_topics', { stream_id: VERONA, topic: 'garden', visibility_policy: 3 }), 'follow');
  const followed = await send(w.hamlet, 'Verona', 'In the garden', 'garden');
  const [followPush] = await bouncer.waitFor('push/notify', 1, (call) => pushFor(followed)(call) && call.body.user_id === CORDELIA);
  t.ok(followPush, 'the follower of the topic');
  t.same(bouncer.violations, []);
});

test('reading before the batch goes: no email, and a remove push', async (t) => {
  const w = await fresh(t);
  // A batching period long enough that the read surely comes first, even on a loaded machine.
  await phone(w.othello, 'othello-phone-5', 15);
  const id = await send(w.hamlet, [OTHELLO], 'Read me soon');
  await bouncer.waitFor('push/notify', 1, pushFor(id));
  await ok(w.othello.post('/messages/flags', { messages: [id], op: 'add', flag: 'read' }), 'read');
  const [remove] = await bouncer.waitFor('push/notify', 1, (call) => gcm(call).event === 'remove' && String(gcm(call).zulip_message_ids).split(',').includes(String(id)));
  t.match(remove!.body, { user_id: OTHELLO, gcm_options: { priority: 'normal' }, apns_payload: { custom: { zulip: { event: 'remove' } } } });
  // The batch comes due and goes with nothing to say.
  const until = Date.now() + 40_000;
  while (w.server.services.notifications.missedMailOf(OTHELLO).length > 0 && Date.now() < until) await delay(100);
  t.same(w.server.services.notifications.missedMailOf(OTHELLO), [], 'the batch is gone');
  t.equal(mailsWith('Read me soon').length, 0, 'and sent no email');
  t.same(bouncer.violations, []);
});

test('the bouncer down: the send is not held up, the push is retried and arrives once', async (t) => {
  const w = await fresh(t);
  await phone(w.othello, 'othello-phone-6', 600);
  await phone(w.cordelia, 'cordelia-phone-6');
  bouncer.state.down = true;
  t.teardown(() => {
    bouncer.state.down = false;
  });
  const refusedBefore = bouncer.state.refused;
  const started = Date.now();
  const id = await send(w.hamlet, [OTHELLO], 'While the bouncer sleeps');
  // A send that waited for the bouncer would not be answered while it refuses everything; the
  // bound only has to stay finite, and is generous for a loaded machine (it was 5 s).
  t.ok(Date.now() - started < 30_000, 'the send answered without waiting for the bouncer');
  const until = Date.now() + 60_000;
  while (!w.server.services.notifications.pendingJobs().some((job) => job.kind === 'message' && job.messageId === id) && Date.now() < until) await delay(50);
  t.ok(w.server.services.notifications.pendingJobs().some((job) => job.kind === 'message' && job.messageId === id), 'the push waits in the outbox');
  // A refused attempt and another after its backoff (a fixed 2.5 s may see none on a loaded machine).
  await bouncer.refusals(refusedBefore + 2);
  t.equal(pushesFor(id).length, 0, 'nothing reached the bouncer while down');
  bouncer.state.down = false;
  await bouncer.waitFor('push/notify', 1, pushFor(id));
  await marker(w, 'marker after the outage');
  t.equal(pushesFor(id).length, 1, 'delivered once when the bouncer is back');
  t.same(bouncer.violations, []);
});

test('POST /mobile_push/test_notification sends through the bouncer as Zulip does', async (t) => {
  const w = await fresh(t);
  await phone(w.othello, 'othello-phone-7');
  t.same((await w.othello.post('/mobile_push/test_notification', { token: 'othello-phone-7' })).body, { result: 'success', msg: '' });
  const [call] = await bouncer.waitFor('push/test_notification', 1, (c) => c.body.token === 'othello-phone-7');
  t.match(call!.body, { token_kind: 2, user_id: OTHELLO, base_payload: { realm_id: w.org.id, realm_uri: w.org.url, user_id: OTHELLO, realm_name: w.org.realm.name } });
  const unknown = await w.othello.post('/mobile_push/test_notification', { token: 'not-mine' });
  t.match(unknown, { status: 400, body: { result: 'error', code: 'INVALID_PUSH_DEVICE_TOKEN', msg: 'Device not recognized' } });
  bouncer.state.down = true;
  const down = await w.othello.post('/mobile_push/test_notification', { token: 'othello-phone-7' });
  // A token Parley keeps although the bouncer never got it (it was down at registration).
  const lost = await w.othello.post('/users/me/android_gcm_reg_id', { token: 'bouncer-never-saw' });
  bouncer.state.down = false;
  t.match(down, { status: 502, body: { result: 'error', msg: 'Received 502 from push notification bouncer' } });
  t.equal(lost.status, 502);
  const refused = await w.othello.post('/mobile_push/test_notification', { token: 'bouncer-never-saw' });
  t.match(refused, { status: 400, body: { result: 'error', code: 'INVALID_REMOTE_PUSH_DEVICE_TOKEN', msg: 'Device not recognized by the push bouncer' } });
  // Forgotten here; the bouncer, which never had it, says so (as Zulip passes on).
  t.match(await w.othello.delete('/users/me/android_gcm_reg_id', { token: 'bouncer-never-saw' }), { status: 400, body: { msg: 'Token does not exist' } });
  t.same((await w.othello.post('/mobile_push/test_notification')).body, { result: 'success', msg: '' }, 'every device when no token is named');
  t.same(bouncer.violations, []);
});

test('the metadata upload at start, and push_notifications_enabled reported', async (t) => {
  const w = await fresh(t);
  const uploads = await bouncer.waitFor('server/analytics', 1, (call) => String(call.body.realms).includes(w.org.url));
  t.ok(uploads.length >= 1, 'the organization was uploaded');
  t.equal((await w.anonymous.get('/server_settings')).body.push_notifications_enabled, true);
  const until = Date.now() + 60_000;
  while (w.server.services.notifications.pushStatus === null && Date.now() < until) await delay(50);
  t.equal((await w.hamlet.post('/register', { fetch_event_types: ['realm'] })).body.realm_push_notifications_enabled, true);
  t.same(bouncer.violations, []);
});

test('the unsubscribe link turns missed-message emails off; a forged one changes nothing', async (t) => {
  const w = await fresh(t);
  await phone(w.othello, 'othello-phone-8');
  const queue = await register(w.othello, { event_types: ['user_settings'] });
  await send(w.hamlet, [OTHELLO], 'Unsubscribe me later');
  const mail: Mail = await smtp.waitFor((m) => m.body.includes('Unsubscribe me later'));
  const link = /(http:\/\/\S+\/accounts\/unsubscribe\/missed_messages\/[\w.-]+)/.exec(mail.body)?.[1];
  t.ok(link, 'the mail has the link');
  const forged = await fetch(link!.replace(/\.[\w-]+$/, '.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'));
  t.equal(forged.status, 404);
  t.equal(w.org.users.get(OTHELLO)!.settings.enable_offline_email_notifications, undefined, 'a forged link changed nothing');
  const page = await fetch(link!);
  t.equal(page.status, 200);
  t.match(await page.text(), /othello@example\.com will no longer get emails/);
  t.equal(w.org.users.get(OTHELLO)!.settings.enable_offline_email_notifications, false);
  t.ok((await take(queue)).some((event) => event.type === 'user_settings' && event.property === 'enable_offline_email_notifications' && event.value === false), 'the settings event');
  const after = await send(w.hamlet, [OTHELLO], 'No mail for this one');
  await bouncer.waitFor('push/notify', 1, pushFor(after));
  t.same(w.server.services.notifications.missedMailOf(OTHELLO), [], 'no email decided any more (pushes go on)');
});

test('a batch waiting across a restart is sent after it, once', async (t) => {
  const w = await fresh(t);
  await phone(w.othello, 'othello-phone-9', 3);
  const id = await send(w.hamlet, [OTHELLO], 'Survive the restart');
  const until = Date.now() + 60_000;
  while (!w.server.services.notifications.missedMailOf(OTHELLO).some((item) => item.messageId === id) && Date.now() < until) await delay(20);
  const restarted = await w.server.restart();
  try {
    await smtp.waitFor((m) => m.body.includes('Survive the restart'));
    await delay(1500);
    t.equal(mailsWith('Survive the restart').length, 1, 'exactly one email');
    t.same(restarted.services.notifications.missedMailOf(OTHELLO), [], 'and the batch is gone');
  } finally {
    await restarted.stop();
  }
});

test('a scheduled message notifies when it is sent, as any message', async (t) => {
  const w = await fresh(t);
  await phone(w.othello, 'othello-phone-10');
  const { response, due } = await scheduleSoon(w.hamlet, { type: 'direct', to: JSON.stringify([OTHELLO]), content: 'Sent later, on time' }, 2);
  await ok(Promise.resolve(response), 'schedule');
  const [push] = await bouncer.waitFor('push/notify', 1, (call) => gcm(call).event === 'message' && gcm(call).content === 'Sent later, on time');
  t.match(gcm(push!), { sender_id: HAMLET, recipient_type: 'private', user_id: OTHELLO });
  t.ok(gcm(push!).time >= due, 'when it was sent, not when it was scheduled');
  t.same(bouncer.violations, []);
});

test('an edit that newly mentions someone notifies them once; the editor never', async (t) => {
  const w = await fresh(t);
  await phone(w.othello, 'othello-phone-11');
  await phone(w.cordelia, 'cordelia-phone-11');
  const id = await send(w.hamlet, 'Verona', 'A plain remark', 'edits');
  await marker(w, 'marker before the edit');
  t.equal(pushesFor(id).length, 0, 'nobody notified of the plain message');
  await ok(w.hamlet.patch(`/messages/${id}`, { content: 'A remark for @**Othello, the Moor of Venice**' }), 'edit');
  const [push] = await bouncer.waitFor('push/notify', 1, pushFor(id));
  t.match(push!.body, { user_id: OTHELLO, apns_payload: { alert: { subtitle: 'King Hamlet mentioned you:' } } });
  await ok(w.hamlet.patch(`/messages/${id}`, { content: 'A remark for @**Othello, the Moor of Venice**, again' }), 'edit again');
  await marker(w, 'marker after the second edit');
  t.equal(pushesFor(id).length, 1, 'a mention already there notifies no more');
  t.same(bouncer.violations, []);
});
