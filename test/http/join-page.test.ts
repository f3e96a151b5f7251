/**
 * The whole invitation path: the mail received by a real SMTP server started in-process
 * (`smtp-server`), its link followed to the join page, the form submitted, and the new account
 * used through the API (`fetch_api_key`, `GET /users/me`); the outbox path with no SMTP; reusable
 * links for many joiners; dead links (unknown, expired, revoked, used) and form problems; a failed
 * send kept retryable; escaping; events on an administrator's queue.
 */
import { test } from 'tap';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { login, type Api } from '../helpers/client.js';
import { freePort, type TestServer } from '../helpers/server.js';
import { ofType, register, take } from '../helpers/events.js';
import { setRealm, world } from '../helpers/world.js';
import { DENMARK, GENERAL, HAMLET, IAGO, VERONA } from '../helpers/demo-ids.js';
import { Transaction } from '../../src/store/transaction.js';

const CLI = fileURLToPath(new URL('../../src/cli.js', import.meta.url));

interface Received {
  to: string[];
  raw: string;
}

/** An SMTP server in this process: collects every mail; `reject` makes it refuse the next ones. */
async function mailbox() {
  const mails: Received[] = [];
  const waiters: (() => void)[] = [];
  let reject = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (reject > 0) {
        reject--;
        const error = new Error('mailbox unavailable') as Error & { responseCode: number };
        error.responseCode = 550;
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    rejectNext(count: number) {
      reject = count;
    },
    /** Resolves once `count` mails have arrived (no sleeping: woken by each arrival). */
    async received(count: number, ms = 60_000): Promise<Received[]> {
      const until = Date.now() + ms;
      while (mails.length < count) {
        if (Date.now() > until) throw new Error(`only ${mails.length} of ${count} mails arrived`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return mails.slice(0, count);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The join link of a mail (quoted-printable soft breaks undone). */
function linkIn(text: string): string {
  const match = /(https?:\/\/[^\s"<]+\/join\/[a-z2-7]{24}\/)/.exec(text.replace(/=\r?\n/g, ''));
  if (!match) throw new Error(`no join link in ${text}`);
  return match[1]!;
}

async function getPage(url: string) {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type'), html: await response.text(), headers: response.headers };
}

async function submit(url: string, fields: Record<string, string>) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  return { status: response.status, html: await response.text() };
}

async function outboxLink(server: TestServer, to: string): Promise<string> {
  const mail = (await server.services.outbox.list()).filter((m) => m.to === to).at(-1);
  if (!mail) throw new Error(`no mail to ${to} in the outbox`);
  return linkIn(mail.text);
}

/** A user group outside the system groups that iago may add members to. */
async function group(server: TestServer, name: string): Promise<number> {
  const { org, counters } = server.services;
  const tx = new Transaction();
  const id = counters.nextRealmId(org.id, 'group', tx);
  org.groups.save({
    id, name, description: '', isSystemGroup: false, directMembers: [HAMLET], directSubgroups: [], deactivated: false,
    creatorId: IAGO, dateCreated: 0, settings: { can_manage_group: { direct_members: [IAGO], direct_subgroups: [] } },
  }, tx);
  await server.services.commit(tx);
  return id;
}

const directMessages = async (api: Api) =>
  (await api.get('/messages', { anchor: 'newest', num_before: 20, num_after: 0, narrow: [{ operator: 'is', operand: 'dm' }], apply_markdown: false })).body.messages as any[];

test('the whole path through a real SMTP server: mail, link, page, form, login', async (t) => {
  const smtp = await mailbox();
  t.teardown(() => smtp.close());
  const { iago, hamlet, server, org } = await world(t, { env: { PARLEY_SMTP_HOST: '127.0.0.1', PARLEY_SMTP_PORT: String(smtp.port) } });
  const garden = await group(server, 'gardeners');
  const admin = await register(iago, { event_types: ['invites_changed', 'realm_user', 'user_group', 'message'] });
  const bystander = await register(hamlet, { event_types: ['invites_changed'] });

  const sent = await iago.post('/invites', {
    invitee_emails: 'Nora New <nora@example.com>',
    stream_ids: [DENMARK],
    include_realm_default_subscriptions: true,
    group_ids: [garden],
    invite_as: 300,
    welcome_message_custom_text: 'Read **#rules** first.',
  });
  t.same(sent.body, { result: 'success', msg: '' });
  const [mail] = await smtp.received(1);
  t.same(mail!.to, ['nora@example.com']);
  t.match(mail!.raw, /Subject: Iago invited you to join Parley Demo/);
  t.same(await server.services.outbox.list(), [], 'sent over SMTP, not kept in the outbox');
  const link = linkIn(mail!.raw);
  t.ok(link.startsWith(`${server.url}/join/`), 'the link points at the server');

  const form = await getPage(link);
  t.equal(form.status, 200);
  t.equal(form.type, 'text/html; charset=utf-8');
  t.equal(form.headers.get('referrer-policy'), 'no-referrer');
  t.match(form.html, 'Iago invited you to join');
  t.match(form.html, 'nora@example.com');
  t.match(form.html, '<input type="password" name="password"');

  const joined = await submit(link, { full_name: '  Nora New ', password: 'correct horse' });
  t.equal(joined.status, 200);
  t.match(joined.html, 'Welcome, Nora New!');

  const nora = await login(server.url, 'nora@example.com', 'correct horse');
  const me = await nora.get('/users/me');
  t.match(me.body, { result: 'success', email: 'nora@example.com', full_name: 'Nora New', role: 300, is_admin: false });
  const userId = me.body.user_id as number;
  const subscribed = (await nora.get('/users/me/subscriptions')).body.subscriptions.map((s: any) => s.stream_id).sort();
  t.same(subscribed, [GENERAL, DENMARK].sort(), 'the invitation\'s channel and the default one');
  t.ok(org.groups.get(garden)!.directMembers.includes(userId), 'in the invitation\'s group');

  const welcome = await directMessages(nora);
  t.same(welcome.map((m) => m.sender_full_name), ['Welcome Bot', 'Welcome Bot']);
  t.match(welcome[0].content, /^Hello, and welcome to Zulip!👋/);
  t.equal(welcome[1].content, 'Read **#rules** first.', 'then the invitation\'s custom text');

  const told = (await directMessages(iago)).at(-1);
  t.match(told, { sender_full_name: 'Notification Bot', content: `@_**Nora New|${userId}** accepted your invitation to join Zulip!` }, 'the inviter is told');

  const events = await take(admin);
  t.match(ofType(events, 'realm_user'), [{ op: 'add', person: { user_id: userId, full_name: 'Nora New', role: 300 } }]);
  t.match(ofType(events, 'user_group'), [{ op: 'add_members', group_id: garden, user_ids: [userId] }]);
  t.equal(ofType(events, 'invites_changed').length, 2, 'on sending and on joining');
  t.same(await take(bystander), [], 'a member who invited nobody hears nothing');

  const used = await getPage(link);
  t.equal(used.status, 410, 'the key is used up');
  t.match(used.html, 'This invitation has already been used to create an account. Log in instead.');
  t.equal((await submit(link, { full_name: 'Someone Else', password: 'secret!' })).status, 410, 'and cannot create another account');
  t.same((await iago.get('/invites')).body.invites, [], 'no longer listed');
});

test('a failed send is logged, never fails the request, and resending retries it', async (t) => {
  const smtp = await mailbox();
  t.teardown(() => smtp.close());
  const { iago, server } = await world(t, { env: { PARLEY_SMTP_HOST: '127.0.0.1', PARLEY_SMTP_PORT: String(smtp.port) } });
  // Told when the refused mail is logged: the resend below must not race the first attempt.
  const logged: unknown[] = [];
  let failureLogged!: () => void;
  const failure = new Promise<void>((resolve) => (failureLogged = resolve));
  const logger = server.services.logger;
  logger.error = ((details: unknown, message: string) => {
    logged.push([details, message]);
    failureLogged();
  }) as typeof logger.error;
  smtp.rejectNext(1);
  t.equal((await iago.post('/invites', { invitee_emails: 'later@example.com', stream_ids: [] })).status, 200, 'answered although the mail is refused');
  await failure;
  t.match(logged, [[{ to: 'later@example.com', about: 'invitation 1' }, 'mail not sent (resend to retry)']], 'the failure is logged');
  t.same(smtp.mails, [], 'nothing arrived');
  const [entry] = (await iago.get('/invites')).body.invites;
  t.equal(entry.email, 'later@example.com', 'the invitation stays');
  t.equal((await iago.post(`/invites/${entry.id}/resend`)).status, 200);
  const [mail] = await smtp.received(1);
  t.same(mail!.to, ['later@example.com'], 'the resend went through');
  const page = await getPage(linkIn(mail!.raw));
  t.equal(page.status, 200);
  t.same(await server.services.outbox.list(), []);
});

test('an unreachable SMTP server does not hold up the request', async (t) => {
  const closed = await freePort();
  const { iago } = await world(t, { env: { PARLEY_SMTP_HOST: '127.0.0.1', PARLEY_SMTP_PORT: String(closed) } });
  const response = await iago.post('/invites', { invitee_emails: 'nobody-home@example.com', stream_ids: [] });
  t.equal(response.status, 200);
  t.equal((await iago.get('/invites')).body.invites.length, 1);
});

test('with no SMTP the mail goes to the outbox, and its link works', async (t) => {
  const { hamlet, server } = await world(t);
  t.equal((await hamlet.post('/invites', { invitee_emails: 'olive@example.com', stream_ids: [VERONA], notify_referrer_on_join: false })).status, 200);
  const link = await outboxLink(server, 'olive@example.com');
  t.equal((await submit(link, { full_name: 'Olive', password: 'olive-oil' })).status, 200);
  const olive = await login(server.url, 'olive@example.com', 'olive-oil');
  t.match((await olive.get('/users/me')).body, { full_name: 'Olive', role: 400 });
  t.same((await olive.get('/users/me/subscriptions')).body.subscriptions.map((s: any) => s.stream_id), [VERONA], 'no defaults unless asked');
  t.notOk((await directMessages(hamlet)).some((m) => m.content.includes('accepted your invitation')), 'the inviter asked not to be told');

  // The administrator reads the outbox from the command line, the server stopped.
  await server.stop();
  const printed = execFileSync(process.execPath, [CLI, 'outbox'], { env: { ...process.env, PARLEY_DATA_DIR: server.dataDir }, encoding: 'utf8' });
  t.match(printed, 'To: olive@example.com');
  t.match(printed, 'Subject: King Hamlet invited you to join Parley Demo');
  t.match(printed, link, 'with the link');
  t.match(printed, /1 mail in the outbox\n$/);
});

test('welcome texts: the organization\'s default, or none', async (t) => {
  const { iago, server } = await world(t);
  await setRealm(server, { welcome_message_custom_text: 'Organization default text.' });
  t.equal((await iago.post('/register', {})).body.realm_welcome_message_custom_text, 'Organization default text.', 'reported by register');
  await iago.post('/invites', { invitee_emails: 'a@example.com', stream_ids: [] });
  await iago.post('/invites', { invitee_emails: 'b@example.com', stream_ids: [], welcome_message_custom_text: '' });
  await submit(await outboxLink(server, 'a@example.com'), { full_name: 'A', password: 'aaaaaa' });
  await submit(await outboxLink(server, 'b@example.com'), { full_name: 'B', password: 'bbbbbb' });
  const a = await directMessages(await login(server.url, 'a@example.com', 'aaaaaa'));
  t.same(a.map((m) => m.content.slice(0, 12)), ['Hello, and w', 'Organization']);
  const b = await directMessages(await login(server.url, 'b@example.com', 'bbbbbb'));
  t.equal(b.length, 1, 'an empty text: no custom message');
});

test('dead links get a clear page', async (t) => {
  const { iago, server, advance } = await world(t, { clockStart: Date.UTC(2026, 0, 1) });
  const unknown = await getPage(`${server.url}/join/abcdefghijklmnopqrstuvwx/`);
  t.equal(unknown.status, 404);
  t.match(unknown.html, 'This invitation link is not valid.');
  t.equal((await getPage(`${server.url}/join/${'<script>'}`)).status, 404);

  await iago.post('/invites', { invitee_emails: 'late@example.com, revoked@example.com', stream_ids: [], invite_expires_in_minutes: 5 });
  const [, second] = (await iago.get('/invites')).body.invites;
  await iago.delete(`/invites/${second.id}`);
  const revoked = await getPage(await outboxLink(server, 'revoked@example.com'));
  t.equal(revoked.status, 410);
  t.match(revoked.html, 'This invitation has been revoked.');
  advance(301);
  const late = await outboxLink(server, 'late@example.com');
  const expired = await getPage(late);
  t.equal(expired.status, 410);
  t.match(expired.html, 'This invitation has expired.');
  t.equal((await submit(late, { full_name: 'Late', password: 'too late' })).status, 410, 'and the form is refused');
  t.notOk(server.services.org.users.byEmail('late@example.com'));
});

test('form problems show the form again, escaped', async (t) => {
  const { iago, server } = await world(t);
  // Zulip's name rules refuse `>` and `"`, but `<` and `&` may appear in a name.
  t.equal((await iago.patch(`/users/${IAGO}`, { full_name: 'Iago & <img src=x onerror=alert(1)' })).status, 200);
  await iago.post('/invites', { invitee_emails: 'kim@example.com', stream_ids: [] });
  const link = await outboxLink(server, 'kim@example.com');
  const form = await getPage(link);
  t.match(form.html, 'Iago &amp; &lt;img src=x onerror=alert(1) invited you');
  t.notMatch(form.html, '<img');
  const short = await submit(link, { full_name: '"><script>alert(1)</script>', password: '123' });
  t.equal(short.status, 400);
  t.match(short.html, 'Your password must be at least 6 characters long.');
  t.match(short.html, 'value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"', 'what was typed comes back escaped');
  t.notMatch(short.html, '<script>');
  const blank = await submit(link, { full_name: '   ', password: 'long enough' });
  t.equal(blank.status, 400);
  t.match(blank.html, 'Please enter your name.');
  t.notOk(server.services.org.users.byEmail('kim@example.com'), 'nothing created');
  t.equal((await getPage(link)).status, 200, 'the link still works');
});

test('a reusable link serves many joiners until it is revoked', async (t) => {
  const { iago, server } = await world(t);
  const admin = await register(iago, { event_types: ['invites_changed', 'realm_user'] });
  const link = (await iago.post('/invites/multiuse', { invite_as: 600, stream_ids: [VERONA] })).body.invite_link as string;
  const form = await getPage(link);
  t.equal(form.status, 200);
  t.match(form.html, 'name="email"', 'a link asks for the address');
  t.equal((await submit(link, { email: 'g1@example.com', full_name: 'Guest One', password: 'guest-one' })).status, 200);
  t.equal((await submit(link, { email: 'g2@example.com', full_name: 'Guest Two', password: 'guest-two' })).status, 200);
  const taken = await submit(link, { email: 'hamlet@example.com', full_name: 'Not Hamlet', password: 'whatever' });
  t.equal(taken.status, 400);
  t.match(taken.html, 'An account with this email address already exists.');
  const invalid = await submit(link, { email: 'nope', full_name: 'Nope', password: 'whatever' });
  t.match(invalid.html, 'Please enter a valid email address.');
  for (const [email, password] of [['g1@example.com', 'guest-one'], ['g2@example.com', 'guest-two']]) {
    const guest = await login(server.url, email!, password);
    t.match((await guest.get('/users/me')).body, { role: 600, is_guest: true });
    t.same((await guest.get('/users/me/subscriptions')).body.subscriptions.map((s: any) => s.stream_id), [VERONA]);
  }
  t.equal(ofType(await take(admin), 'realm_user').length, 2);
  t.equal((await iago.get('/invites')).body.invites.length, 1, 'still listed after use');
  await iago.delete('/invites/multiuse/1');
  const gone = await getPage(link);
  t.equal(gone.status, 410);
  t.match(gone.html, 'This invitation has been revoked.');
  t.equal((await submit(link, { email: 'g3@example.com', full_name: 'Three', password: 'guest-three' })).status, 410);
});

test('joining revokes other invitations to the same address; the page survives a restart', async (t) => {
  const { iago, hamlet, server } = await world(t);
  await hamlet.post('/invites', { invitee_emails: 'twice@example.com', stream_ids: [] });
  const link = (await iago.post('/invites/multiuse', {})).body.invite_link as string;
  const restarted = await server.restart();
  t.teardown(() => restarted.destroy());
  t.equal((await getPage(link)).status, 200, 'the link opens after a restart');
  t.equal((await submit(link, { email: 'twice@example.com', full_name: 'Twice', password: 'twice!' })).status, 200);
  const emailLink = (await restarted.services.outbox.list())[0]!.text;
  const old = await getPage(linkIn(emailLink));
  t.equal(old.status, 410, 'the email invitation to the same address is revoked');
  t.equal((await getPage(`${restarted.url}/join/x`)).status, 404);
  const head = await fetch(link, { method: 'HEAD' });
  t.equal(head.status, 200, 'HEAD as GET');
  const put = await fetch(link, { method: 'PUT' });
  t.equal(put.status, 405);
  t.equal(put.headers.get('allow'), 'GET, POST, HEAD');
});
