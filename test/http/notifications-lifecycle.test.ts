/**
 * Notifications over a message's life, end to end against the fake bouncer and a local SMTP
 * server: a deleted message's push is removed from the phone (Zulip's do_delete_messages); a user
 * who seemed active when a message came is notified once their last event queue expires or is
 * deleted (Zulip's missedmessage_hook); and devices registered end to end get every notification
 * encrypted with their key through `remotes/push/e2ee/notify`.
 */
import { test, t as root } from 'tap';
import type { Api } from '../helpers/client.js';
import { CORDELIA, HAMLET, OTHELLO, VERONA } from '../helpers/demo-ids.js';
import { delay, register, send } from '../helpers/events.js';
import { fakeBouncer, pushKeyPair, type BouncerCall } from '../helpers/fake-bouncer.js';
import { mailbox } from '../helpers/mailbox.js';
import { setRealm, world, type World } from '../helpers/world.js';

const bouncer = await fakeBouncer();
const smtp = await mailbox();
root.teardown(async () => {
  await bouncer.close();
  await smtp.close();
});
const env = { ...bouncer.env, ...smtp.env, PARLEY_SWEEP_SECONDS: '1' };

type Payload = Record<string, any>;
const gcm = (call: BouncerCall) => call.body.gcm_payload as Payload;
const pushFor = (id: number) => (call: BouncerCall) => gcm(call)?.event === 'message' && gcm(call).zulip_message_id === id;
const pushesFor = (id: number) => bouncer.to('push/notify').filter(pushFor(id));
const mailsWith = (text: string) => smtp.mails.filter((mail) => mail.body.includes(text));

/** A fresh organization; message ids start over in each, so the bouncer's record starts over too. */
async function fresh(t: Parameters<typeof world>[0], clockStart?: number): Promise<World> {
  const w = await world(t, clockStart === undefined ? { env } : { env, clockStart });
  bouncer.calls.length = 0;
  return w;
}

async function ok(response: Promise<{ status: number; body: any }>, what: string): Promise<any> {
  const answer = await response;
  if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

async function phone(api: Api, token: string, batchSeconds = 1): Promise<void> {
  await ok(api.post('/users/me/android_gcm_reg_id', { token }), 'token');
  await ok(api.patch('/settings', { email_notifications_batching_period_seconds: batchSeconds }), 'batching period');
}

/** A DM to Cordelia (idle, with a phone): once its push arrived, every earlier decision was delivered. */
async function marker(w: World, text: string): Promise<void> {
  const id = await send(w.hamlet, [CORDELIA], text);
  await bouncer.waitFor('push/notify', 1, pushFor(id));
}

test('deleting a notified message sends a remove push to those whose phone shows it', async (t) => {
  const w = await fresh(t);
  await phone(w.othello, 'othello-delete-phone');
  await phone(w.cordelia, 'cordelia-delete-phone');
  const id = await send(w.hamlet, 'Verona', 'A word, @**Othello, the Moor of Venice**', 'deletions');
  await bouncer.waitFor('push/notify', 1, pushFor(id));
  await ok(w.iago.delete(`/messages/${id}`), 'delete');
  const [remove] = await bouncer.waitFor('push/notify', 1, (call) => gcm(call).event === 'remove' && String(gcm(call).zulip_message_ids).split(',').includes(String(id)));
  t.match(remove!.body, { user_id: OTHELLO, gcm_options: { priority: 'normal' } });
  t.notOk(w.server.services.notifications.activePushes(OTHELLO).has(id), 'the push no longer stands');
  const unseen = await send(w.hamlet, 'Verona', 'Nobody was notified of this', 'deletions');
  await ok(w.iago.delete(`/messages/${unseen}`), 'delete the other');
  await marker(w, 'marker after the deletions');
  t.equal(bouncer.to('push/notify').filter((call) => gcm(call).event === 'remove' && String(gcm(call).zulip_message_ids).split(',').includes(String(unseen))).length, 0, 'no remove for a message never pushed');
  t.same(bouncer.violations, []);
});

test('an active user\'s last queue expiring: what it held notifies then, once; what was read does not', async (t) => {
  const w = await fresh(t, Date.now());
  await phone(w.othello, 'othello-gc-phone');
  await phone(w.cordelia, 'cordelia-gc-phone');
  await ok(w.othello.patch('/settings', { enable_online_push_notifications: false }), 'online pushes off');
  // Active: a queue receiving messages and an active presence report.
  await register(w.othello, { event_types: ['message'] });
  await ok(w.othello.post('/users/me/presence', { status: 'active' }), 'presence');
  const missed = await send(w.hamlet, [OTHELLO], 'Sent while you seemed here');
  const read = await send(w.hamlet, [OTHELLO], 'Read before you left');
  await marker(w, 'marker while active');
  t.equal(pushesFor(missed).length, 0, 'no push while active');
  t.same(w.server.services.notifications.missedMailOf(OTHELLO), [], 'no email decided while active');
  await ok(w.othello.post('/messages/flags', { messages: [read], op: 'add', flag: 'read' }), 'read one');

  // The queue's lifetime (600 s) passes on the server's clock; the next sweep expires it.
  w.advance(700);
  const [push] = await bouncer.waitFor('push/notify', 1, pushFor(missed));
  t.match(push!.body, { user_id: OTHELLO, gcm_payload: { content: 'Sent while you seemed here' } });
  w.advance(5); // the email batching period
  await smtp.waitFor((mail) => mail.body.includes('Sent while you seemed here'));
  await marker(w, 'marker after the expiry');
  t.equal(pushesFor(missed).length, 1, 'one push');
  t.equal(mailsWith('Sent while you seemed here').length, 1, 'one email');
  t.equal(pushesFor(read).length, 0, 'no push for the message read meanwhile');
  t.equal(mailsWith('Read before you left').length, 0, 'and no email');
  t.same(bouncer.violations, []);
});

test('deleting the last queue (DELETE /events) notifies the same way; with online pushes on, only the email is left', async (t) => {
  const w = await fresh(t);
  await phone(w.othello, 'othello-delete-queue');
  await phone(w.cordelia, 'cordelia-delete-queue');
  const queue = await register(w.othello, { event_types: ['message'] });
  await ok(w.othello.post('/users/me/presence', { status: 'active' }), 'presence');
  const id = await send(w.hamlet, [OTHELLO], 'Pushed at once, mailed later');
  await bouncer.waitFor('push/notify', 1, pushFor(id));
  await marker(w, 'marker before the queue goes');
  t.same(w.server.services.notifications.missedMailOf(OTHELLO), [], 'no email while active');
  await ok(w.othello.delete('/events', { queue_id: queue.id }), 'delete the queue');
  await smtp.waitFor((mail) => mail.body.includes('Pushed at once, mailed later'));
  await marker(w, 'marker after the queue went');
  t.equal(pushesFor(id).length, 1, 'the push sent at once is not sent again');
  t.equal(mailsWith('Pushed at once, mailed later').length, 1, 'one email');
  t.same(bouncer.violations, []);
});

/** Registers an end-to-end device for `api` and gives its secret key to the fake bouncer (as the app holds it). */
async function e2eeDevice(api: Api, pushAccountId: number, tokenKind: 'fcm' | 'apns'): Promise<void> {
  const keys = pushKeyPair();
  bouncer.e2eeKeys.set(pushAccountId, keys);
  await ok(api.post('/mobile_push/register', {
    token_kind: tokenKind, push_account_id: pushAccountId, push_public_key: keys.publicKey, bouncer_public_key: 'bouncer-key-1',
    encrypted_push_registration: Buffer.from(JSON.stringify({ token: `device-${pushAccountId}`, token_kind: tokenKind })).toString('base64'),
  }), 'register the device');
}

const e2eeFor = (userId: number, which: (data: Payload) => boolean) => (call: BouncerCall) =>
  (call.decrypted ?? []).some((data) => data.user_id === userId && which(data));

test('end-to-end registered devices get each notification encrypted with their key', async (t) => {
  const w = await fresh(t);
  await e2eeDevice(w.othello, 7001, 'fcm');
  await e2eeDevice(w.cordelia, 7002, 'apns');
  const id = await send(w.hamlet, [OTHELLO], 'A secret for **you**');
  const [dm] = await bouncer.waitFor('push/e2ee/notify', 1, e2eeFor(OTHELLO, (data) => data.message_id === id));
  t.match(dm!.decrypted![0], {
    type: 'message', message_id: id, user_id: OTHELLO, sender_id: HAMLET, sender_full_name: 'King Hamlet', recipient_type: 'direct',
    content: 'A secret for you', realm_url: w.org.url, realm_name: w.org.realm.name,
  });
  t.notOk(JSON.stringify(dm!.body).includes('A secret'), 'the bouncer sees no content');
  t.match(dm!.body.push_requests, [{ fcm_priority: 'high', payload: { push_account_id: 7001 } }]);
  t.equal(bouncer.to('push/notify').filter((call) => call.body.user_id === OTHELLO).length, 0, 'no unencrypted push (no token)');

  const mention = await send(w.hamlet, 'Verona', 'Look, @**Cordelia, Lear\'s daughter**', 'secrets');
  const [apns] = await bouncer.waitFor('push/e2ee/notify', 1, e2eeFor(CORDELIA, (data) => data.message_id === mention));
  t.match(apns!.decrypted![0], { type: 'message', recipient_type: 'channel', channel_id: VERONA, channel_name: 'Verona', topic: 'secrets' });
  t.same(apns!.body.push_requests[0].http_headers, { apns_priority: 10, apns_push_type: 'alert' });
  t.same(apns!.body.push_requests[0].payload.aps, { 'mutable-content': 1, alert: { title: 'New notification' } });
  t.equal(apns!.body.push_requests[0].payload.push_account_id, 7002);
  const untitled = await send(w.hamlet, 'Verona', 'Again, @**Cordelia, Lear\'s daughter**', '');
  const [general] = await bouncer.waitFor('push/e2ee/notify', 1, e2eeFor(CORDELIA, (data) => data.message_id === untitled));
  t.equal(general!.decrypted![0].topic, 'general chat', 'the empty topic by its display name');

  await ok(w.othello.post('/messages/flags', { messages: [id], op: 'add', flag: 'read' }), 'read');
  const [remove] = await bouncer.waitFor('push/e2ee/notify', 1, e2eeFor(OTHELLO, (data) => data.type === 'remove'));
  t.match(remove!.decrypted![0], { type: 'remove', message_ids: [id], user_id: OTHELLO });
  t.match(remove!.body.push_requests, [{ fcm_priority: 'normal' }]);
  await ok(w.cordelia.post('/messages/flags', { messages: [mention], op: 'add', flag: 'read' }), 'read on the Apple device');
  const [appleRemove] = await bouncer.waitFor('push/e2ee/notify', 1, e2eeFor(CORDELIA, (data) => data.type === 'remove'));
  t.match(appleRemove!.decrypted![0], { type: 'remove', message_ids: [mention], user_id: CORDELIA });
  t.same(appleRemove!.body.push_requests[0].http_headers, { apns_priority: 5, apns_push_type: 'background' }, 'a removal in the background, at low priority');
  t.same(bouncer.violations, [], 'every request had the shape Zulip\'s bouncer accepts, and decrypted with the device key');
});

test('the organization\'s limits: no content in unencrypted pushes when E2EE is required, none in email when not allowed', async (t) => {
  const w = await fresh(t);
  await phone(w.othello, 'othello-limits-phone');
  await setRealm(w.server, { require_e2ee_push_notifications: true, message_content_allowed_in_email_notifications: false });
  const id = await send(w.hamlet, [OTHELLO], 'Private matters of state');
  const [push] = await bouncer.waitFor('push/notify', 1, pushFor(id));
  t.equal(gcm(push!).content, 'New message', 'Android gets no content');
  t.equal(push!.body.apns_payload.alert.body, 'New message', 'nor Apple');
  t.notOk(JSON.stringify(push!.body).includes('Private matters'), 'the content is nowhere in the request');
  const mail = await smtp.waitFor((m) => m.to.includes('othello@example.com') && m.subject === 'New messages');
  t.notOk(mail.body.includes('Private matters of state'), 'the email has no content');
});

/** Polls POST /register until `check` holds for its answer (the server applies a bouncer answer after sending). */
async function registerUntil(api: Api, params: Record<string, unknown>, check: (state: any) => boolean, what: string): Promise<any> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const state = await ok(api.post('/register', params), 'register');
    if (check(state)) return state;
    await delay(100);
  }
  throw new Error(`never: ${what}`);
}

test('the bouncer\'s answer: devices in delete_device_ids are forgotten; an organization it does not know has push notifications off', async (t) => {
  const w = await fresh(t);
  await e2eeDevice(w.othello, 7003, 'fcm');
  await e2eeDevice(w.cordelia, 7004, 'apns');
  const first = await send(w.hamlet, [OTHELLO], 'While the token lives');
  await bouncer.waitFor('push/e2ee/notify', 1, e2eeFor(OTHELLO, (data) => data.message_id === first));
  const before = await ok(w.othello.post('/register', { fetch_event_types: ['push_device', 'realm'] }), 'register');
  t.match(before.push_devices, { 7003: { status: 'active' } });
  t.equal(before.realm_push_notifications_enabled, true);

  bouncer.state.expired.add(bouncer.e2eeDevices.get(7003)!);
  const second = await send(w.hamlet, [OTHELLO], 'After FCM said the token is gone');
  const [gone] = await bouncer.waitFor('push/e2ee/notify', 1, e2eeFor(OTHELLO, (data) => data.message_id === second));
  t.equal(gone!.body.push_requests[0].device_id, bouncer.e2eeDevices.get(7003));
  await registerUntil(w.othello, { fetch_event_types: ['push_device'] }, (state) => !('7003' in state.push_devices), 'the device is forgotten');
  t.pass('the device the bouncer deleted is no longer registered');

  bouncer.state.e2eeRefusal = 'MISSING_REMOTE_REALM';
  try {
    const third = await send(w.hamlet, [CORDELIA], 'To an organization the bouncer does not know');
    await bouncer.waitFor('push/e2ee/notify', 1, e2eeFor(CORDELIA, (data) => data.message_id === third));
    await registerUntil(w.cordelia, { fetch_event_types: ['realm'] }, (state) => state.realm_push_notifications_enabled === false, 'push notifications off');
    t.pass('push notifications count as off after the bouncer refused the organization');
  } finally {
    bouncer.state.e2eeRefusal = null;
  }
  t.same(bouncer.violations, []);
});
