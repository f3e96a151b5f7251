/**
 * Black-box tests of /invites and /invites/multiuse: every rule of POST /invites (addresses, role,
 * who may invite, channels, groups, expiry, the welcome text, INVITATION_FAILED and the daily
 * limit), listing, resending and revoking, reusable links, `invites_changed` on the queues of the
 * administrators and the inviter, the outbox (no SMTP in these worlds), and a restart.
 */
import { test, type Test } from 'tap';
import type { Api } from '../helpers/client.js';
import { clientFor, type TestServer } from '../helpers/server.js';
import { ofType, register, take } from '../helpers/events.js';
import { setRealm, world } from '../helpers/world.js';
import { CORE_TEAM, DENMARK, GENERAL, HAMLET, IAGO, SCOTLAND, VERONA } from '../helpers/demo-ids.js';
import { Transaction } from '../../src/store/transaction.js';
import { invitationId } from '../../src/store/invitations.js';

const DAY_MINUTES = 14400;

async function invite(api: Api, params: Record<string, unknown>) {
  return api.post('/invites', { stream_ids: [], ...params });
}

async function invites(api: Api): Promise<any[]> {
  const response = await api.get('/invites');
  if (response.status !== 200) throw new Error(`GET /invites failed: ${JSON.stringify(response.body)}`);
  return response.body.invites;
}

const outbox = (server: TestServer) => server.services.outbox.list();

function refused(t: Test, response: { status: number; body: any }, msg: string, code = 'BAD_REQUEST') {
  t.equal(response.status, 400, `HTTP 400: ${msg}`);
  t.match(response.body, { result: 'error', code, msg });
}

/** A user group outside the system groups, with hamlet as the one who may add members. */
async function gardeners(server: TestServer): Promise<number> {
  const { org, counters } = server.services;
  const tx = new Transaction();
  const id = counters.nextRealmId(org.id, 'group', tx);
  org.groups.save({
    id, name: 'gardeners', description: 'Tend the garden', isSystemGroup: false, directMembers: [HAMLET], directSubgroups: [], deactivated: false,
    creatorId: HAMLET, dateCreated: 0, settings: { can_manage_group: { direct_members: [HAMLET], direct_subgroups: [] } },
  }, tx);
  await server.services.commit(tx);
  return id;
}

test('POST /invites', async (t) => {
  t.test('invites every address of a comma- and newline-separated list, and mails each a link', async (t) => {
    const { iago, server, seconds } = await world(t);
    // The time of the invitation lies between these (a loaded machine can take seconds in between).
    const before = seconds();
    const response = await invite(iago, { invitee_emails: 'ann@example.com, Bob Smith <bob@example.com>\ncy@example.com,ann@example.com' });
    t.same(response.body, { result: 'success', msg: '' });
    const listed = await invites(iago);
    t.same(listed.map((i) => i.email), ['ann@example.com', 'bob@example.com', 'cy@example.com'], 'one invitation per address, names stripped, duplicates once');
    const after = seconds();
    for (const entry of listed) {
      t.match(entry, { invited_by_user_id: IAGO, invited_as: 400, is_multiuse: false, notify_referrer_on_join: true });
      t.ok(Math.abs(entry.expiry_date - (entry.invited + DAY_MINUTES * 60)) === 0, 'expires after the default 14400 minutes');
      t.ok(entry.invited >= before && entry.invited <= after, `invited when it was made (${entry.invited}, between ${before} and ${after})`);
      t.notOk('link_url' in entry, 'an email invitation shows no link');
    }
    const mails = await outbox(server);
    t.same(mails.map((m) => m.to), ['ann@example.com', 'bob@example.com', 'cy@example.com'], 'with no SMTP, the mails are in the outbox');
    t.match(mails[0], { from: 'noreply@example.com', subject: 'Iago invited you to join Parley Demo' });
    t.match(mails[0]!.text, new RegExp(`${server.url}/join/[a-z2-7]{24}/`));
  });

  t.test('expiry: null never expires, minutes as given', async (t) => {
    const { iago } = await world(t);
    t.equal((await invite(iago, { invitee_emails: 'never@example.com', invite_expires_in_minutes: null })).status, 200);
    t.equal((await invite(iago, { invitee_emails: 'soon@example.com', invite_expires_in_minutes: 30 })).status, 200);
    const [never, soon] = await invites(iago);
    t.equal(never.expiry_date, null);
    t.equal(soon.expiry_date - soon.invited, 1800);
    refused(t, await invite(iago, { invitee_emails: 'x@example.com', invite_expires_in_minutes: 0 }), 'Invalid invite_expires_in_minutes');
    refused(t, await invite(iago, { invitee_emails: 'x@example.com', invite_expires_in_minutes: 'soon' }), 'invite_expires_in_minutes is not valid JSON');
  });

  t.test('the role: never more privileged than the inviter', async (t) => {
    const { desdemona, iago, shiva, hamlet } = await world(t);
    refused(t, await invite(hamlet, { invitee_emails: 'a@example.com', invite_as: 200 }), 'Must be an organization administrator');
    refused(t, await invite(hamlet, { invitee_emails: 'a@example.com', invite_as: 300 }), 'Must be an organization administrator');
    refused(t, await invite(shiva, { invitee_emails: 'a@example.com', invite_as: 200 }), 'Must be an organization administrator');
    t.equal((await invite(shiva, { invitee_emails: 'mod@example.com', invite_as: 300 })).status, 200, 'a moderator invites moderators: an equal role');
    refused(t, await invite(iago, { invitee_emails: 'a@example.com', invite_as: 100 }), 'Must be an organization owner');
    refused(t, await invite(iago, { invitee_emails: 'a@example.com', invite_as: 500 }), 'Invalid invite_as');
    t.equal((await invite(hamlet, { invitee_emails: 'guest@example.com', invite_as: 600 })).status, 200);
    t.equal((await invite(iago, { invitee_emails: 'admin@example.com', invite_as: 200 })).status, 200);
    t.equal((await invite(desdemona, { invitee_emails: 'owner@example.com', invite_as: 100 })).status, 200);
    t.same((await invites(desdemona)).map((i) => [i.email, i.invited_as]), [['mod@example.com', 300], ['guest@example.com', 600], ['admin@example.com', 200], ['owner@example.com', 100]]);
  });

  t.test('who may invite: not guests, and only the organization\'s group', async (t) => {
    const { hamlet, iago, polonius, server, org } = await world(t);
    refused(t, await invite(polonius, { invitee_emails: 'a@example.com' }), 'Not allowed for guest users');
    await setRealm(server, { can_invite_users_group: org.realm.systemGroups['role:administrators'] });
    refused(t, await invite(hamlet, { invitee_emails: 'a@example.com' }), 'Insufficient permission');
    t.equal((await invite(iago, { invitee_emails: 'a@example.com' })).status, 200);
    await setRealm(server, { can_invite_users_group: { direct_members: [HAMLET], direct_subgroups: [] } });
    t.equal((await invite(hamlet, { invitee_emails: 'b@example.com' })).status, 200, 'an anonymous group naming the user');
    t.equal((await server.services.outbox.list()).length, 2, 'refused requests sent nothing');
  });

  t.test('addresses are required', async (t) => {
    const { iago } = await world(t);
    refused(t, await invite(iago, { invitee_emails: '' }), 'You must specify at least one email address.');
    refused(t, await invite(iago, { invitee_emails: ' ,\n ' }), 'You must specify at least one email address.');
    const missing = await iago.post('/invites', { stream_ids: [] });
    refused(t, missing, "Missing 'invitee_emails' argument", 'REQUEST_VARIABLE_MISSING');
    refused(t, await iago.post('/invites', { invitee_emails: 'a@example.com' }), "Missing 'stream_ids' argument", 'REQUEST_VARIABLE_MISSING');
  });

  t.test('channels: ones the inviter may read and subscribe others to, or default ones', async (t) => {
    const { iago, hamlet, server, org } = await world(t);
    refused(t, await invite(hamlet, { invitee_emails: 'a@example.com', stream_ids: [999] }), 'Invalid channel ID 999. No invites were sent.');
    refused(t, await invite(hamlet, { invitee_emails: 'a@example.com', stream_ids: [VERONA, CORE_TEAM] }), `Invalid channel ID ${CORE_TEAM}. No invites were sent.`);
    t.equal((await invite(iago, { invitee_emails: 'a@example.com', stream_ids: [VERONA, CORE_TEAM] })).status, 200, 'a private channel the inviter is in');
    t.equal((await invite(hamlet, { invitee_emails: 'b@example.com', stream_ids: [SCOTLAND] })).status, 200, 'members may subscribe others by default');
    await setRealm(server, { can_add_subscribers_group: org.realm.systemGroups['role:administrators'] });
    refused(t, await invite(hamlet, { invitee_emails: 'c@example.com', stream_ids: [DENMARK] }), 'You do not have permission to subscribe other users to channels.');
    t.equal((await invite(hamlet, { invitee_emails: 'c@example.com', stream_ids: [GENERAL] })).status, 200, 'a default channel is always allowed');
    t.equal((await invite(hamlet, { invitee_emails: 'd@example.com', stream_ids: [], include_realm_default_subscriptions: true })).status, 200, 'the defaults, without the right to subscribe others');
    refused(t, await invite(hamlet, { invitee_emails: 'e@example.com', stream_ids: 'Denmark' }), 'stream_ids is not valid JSON');
  });

  t.test('groups: existing, not a system group, and one the inviter may add to', async (t) => {
    const { iago, hamlet, othello, server, org } = await world(t);
    const garden = await gardeners(server);
    refused(t, await invite(hamlet, { invitee_emails: 'a@example.com', group_ids: [9999] }), 'Invalid user group');
    refused(t, await invite(hamlet, { invitee_emails: 'a@example.com', group_ids: [org.realm.systemGroups['role:members']] }), 'Insufficient permission');
    refused(t, await invite(othello, { invitee_emails: 'a@example.com', group_ids: [garden] }), 'Insufficient permission');
    refused(t, await invite(iago, { invitee_emails: 'a@example.com', group_ids: [garden] }), 'Insufficient permission', );
    t.equal((await invite(hamlet, { invitee_emails: 'a@example.com', group_ids: [garden] })).status, 200);
    t.equal((await invite(hamlet, { invitee_emails: 'b@example.com', group_ids: [] })).status, 200, 'an empty list: no groups');
    t.same(server.services.invitations.get(invitationId('email', 1))?.groupIds, [garden]);
  });

  t.test('the welcome text: administrators only, at most 8000 characters', async (t) => {
    const { iago, hamlet, server } = await world(t);
    refused(t, await invite(hamlet, { invitee_emails: 'a@example.com', welcome_message_custom_text: 'Hi!' }), 'Must be an organization administrator');
    refused(t, await invite(iago, { invitee_emails: 'a@example.com', welcome_message_custom_text: 'x'.repeat(8001) }), 'welcome_message_custom_text is too long (limit: 8000 characters)');
    t.equal((await invite(iago, { invitee_emails: 'a@example.com', welcome_message_custom_text: 'x'.repeat(8000) })).status, 200);
    t.equal((await invite(iago, { invitee_emails: 'b@example.com', welcome_message_custom_text: '' })).status, 200);
    t.equal((await invite(hamlet, { invitee_emails: 'c@example.com' })).status, 200);
    const texts = [...server.services.invitations.all()].map((i) => i.welcomeMessageCustomText);
    t.same(texts, ['x'.repeat(8000), '', null], 'kept as given; null when not given');
  });

  t.test('INVITATION_FAILED: existing accounts, deactivated accounts, pending invitations, invalid addresses', async (t) => {
    const { iago, server, org } = await world(t);
    const tx = new Transaction();
    org.users.save({ ...org.users.byEmail('prospero@example.com')!, isActive: false }, tx);
    await server.services.commit(tx);

    const some = await invite(iago, { invitee_emails: 'hamlet@example.com, new@example.com' });
    t.equal(some.status, 400);
    t.same(some.body, {
      result: 'error', code: 'INVITATION_FAILED',
      msg: "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
      errors: [['hamlet@example.com', 'Already has an account.', false]],
      sent_invitations: true, license_limit_reached: false, daily_limit_reached: false,
    });
    t.same((await invites(iago)).map((i) => i.email), ['new@example.com'], 'the others were invited');

    const none = await invite(iago, { invitee_emails: 'prospero@example.com\nNEW@example.com' });
    t.same(none.body, {
      result: 'error', code: 'INVITATION_FAILED', msg: "We weren't able to invite anyone.",
      errors: [['prospero@example.com', 'Account has been deactivated.', true], ['NEW@example.com', 'Already invited.', false]],
      sent_invitations: false, license_limit_reached: false, daily_limit_reached: false,
    });

    const invalid = await invite(iago, { invitee_emails: 'fresh@example.com, not-an-address, hamlet@example.com' });
    t.same(invalid.body, {
      result: 'error', code: 'INVITATION_FAILED', msg: "Some emails did not validate, so we didn't send any invitations.",
      errors: [['not-an-address', 'Invalid address.', false], ['hamlet@example.com', 'Already has an account.', false]],
      sent_invitations: false, license_limit_reached: false, daily_limit_reached: false,
    });
    t.same((await invites(iago)).map((i) => i.email), ['new@example.com'], 'nothing more was sent');
    t.equal((await outbox(server)).length, 1);
  });

  t.test('the daily limit', async (t) => {
    const { iago, hamlet, server } = await world(t, { env: { PARLEY_INVITES_DAILY_MAX: '3' } });
    t.equal((await invite(iago, { invitee_emails: 'a@example.com, b@example.com' })).status, 200);
    const over = await invite(hamlet, { invitee_emails: 'c@example.com, d@example.com' });
    t.same(over.body, {
      result: 'error', code: 'INVITATION_FAILED',
      msg: 'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.',
      errors: [], sent_invitations: false, license_limit_reached: false, daily_limit_reached: true,
    });
    t.equal((await invite(hamlet, { invitee_emails: 'c@example.com' })).status, 200, 'one more fits');
    const [first] = await invites(iago);
    const resend = await iago.post(`/invites/${first.id}/resend`);
    t.match(resend.body, { code: 'INVITATION_FAILED', daily_limit_reached: true }, 'a resend counts too');
    t.equal((await outbox(server)).length, 3);
  });
});

test('GET /invites, DELETE /invites/{id}, POST /invites/{id}/resend', async (t) => {
  t.test('administrators see every invitation; others their own; guests none', async (t) => {
    const { iago, desdemona, hamlet, othello, polonius } = await world(t);
    await invite(hamlet, { invitee_emails: 'h@example.com' });
    await invite(othello, { invitee_emails: 'o@example.com' });
    await iago.post('/invites/multiuse', {});
    t.same((await invites(hamlet)).map((i) => i.email), ['h@example.com']);
    t.same((await invites(othello)).map((i) => i.email), ['o@example.com']);
    t.same((await invites(iago)).map((i) => i.email ?? 'link'), ['h@example.com', 'o@example.com', 'link']);
    t.same((await invites(desdemona)).length, 3);
    refused(t, await polonius.get('/invites'), 'Not allowed for guest users');
  });

  t.test('expired invitations are not listed', async (t) => {
    const { iago, advance } = await world(t, { clockStart: Date.UTC(2026, 0, 1) });
    await invite(iago, { invitee_emails: 'short@example.com', invite_expires_in_minutes: 10 });
    await invite(iago, { invitee_emails: 'long@example.com' });
    advance(601);
    t.same((await invites(iago)).map((i) => i.email), ['long@example.com']);
    refused(t, await iago.post('/invites/1/resend'), 'No such invitation');
  });

  t.test('revoking: the inviter, or an administrator (an owner for owner invitations)', async (t) => {
    const { iago, desdemona, hamlet, othello, polonius } = await world(t);
    await invite(hamlet, { invitee_emails: 'h1@example.com, h2@example.com' });
    await invite(desdemona, { invitee_emails: 'boss@example.com', invite_as: 100 });
    const [h1, h2, boss] = await invites(desdemona);
    refused(t, await othello.delete(`/invites/${h1.id}`), 'Must be an organization administrator');
    refused(t, await polonius.delete(`/invites/${h1.id}`), 'Not allowed for guest users');
    refused(t, await iago.delete(`/invites/${boss.id}`), 'Must be an organization owner');
    refused(t, await iago.delete('/invites/999'), 'No such invitation');
    t.same((await hamlet.delete(`/invites/${h1.id}`)).body, { result: 'success', msg: '' });
    t.equal((await iago.delete(`/invites/${h2.id}`)).status, 200);
    t.equal((await desdemona.delete(`/invites/${boss.id}`)).status, 200);
    refused(t, await hamlet.delete(`/invites/${h1.id}`), 'No such invitation', );
    t.same(await invites(desdemona), []);
    refused(t, await iago.delete(`/invites/multiuse/${h1.id}`), 'No such invitation', 'BAD_REQUEST');
  });

  t.test('resending mails the same link again', async (t) => {
    const { iago, hamlet, othello, server } = await world(t);
    await invite(hamlet, { invitee_emails: 'again@example.com' });
    const [entry] = await invites(hamlet);
    refused(t, await othello.post(`/invites/${entry.id}/resend`), 'Must be an organization administrator');
    refused(t, await hamlet.post('/invites/77/resend'), 'No such invitation');
    t.same((await hamlet.post(`/invites/${entry.id}/resend`)).body, { result: 'success', msg: '' });
    t.equal((await iago.post(`/invites/${entry.id}/resend`)).status, 200);
    const mails = await outbox(server);
    t.equal(mails.length, 3);
    t.equal(new Set(mails.map((m) => m.text)).size, 1, 'the same link each time');
    t.same(await invites(hamlet), [entry], 'the invitation itself is unchanged');
  });
});

test('reusable links: POST /invites/multiuse and DELETE /invites/multiuse/{id}', async (t) => {
  t.test('administrators make links (by default), with the rules of POST /invites', async (t) => {
    const { iago, hamlet, polonius, server, org, seconds } = await world(t);
    refused(t, await hamlet.post('/invites/multiuse', {}), 'Insufficient permission');
    refused(t, await polonius.post('/invites/multiuse', {}), 'Not allowed for guest users');
    refused(t, await iago.post('/invites/multiuse', { invite_as: 100 }), 'Must be an organization owner');
    refused(t, await iago.post('/invites/multiuse', { stream_ids: [999] }), 'Invalid channel ID 999. No invites were sent.');
    const before = seconds();
    const made = await iago.post('/invites/multiuse', { invite_as: 600, stream_ids: [VERONA], invite_expires_in_minutes: 60 });
    t.equal(made.status, 200);
    t.match(made.body.invite_link, new RegExp(`^${server.url}/join/[a-z2-7]{24}/$`));
    const [link] = await invites(iago);
    t.same(link, {
      id: 1, invited_by_user_id: IAGO, invited: link.invited, expiry_date: link.invited + 3600, invited_as: 600, is_multiuse: true,
      notify_referrer_on_join: true, link_url: made.body.invite_link,
    });
    t.ok(link.invited >= before && link.invited <= seconds(), 'invited when it was made');
    t.equal((await outbox(server)).length, 0, 'a link is not mailed');
    await setRealm(server, { create_multiuse_invite_group: org.realm.systemGroups['role:members'] });
    t.equal((await hamlet.post('/invites/multiuse', {})).status, 200, 'members, once the organization lets them');
  });

  t.test('revoking a link', async (t) => {
    const { iago, desdemona, hamlet, server, org } = await world(t);
    await setRealm(server, { create_multiuse_invite_group: org.realm.systemGroups['role:members'] });
    await hamlet.post('/invites/multiuse', {});
    await desdemona.post('/invites/multiuse', { invite_as: 100 });
    refused(t, await iago.delete('/invites/multiuse/2'), 'Must be an organization owner');
    refused(t, await iago.delete('/invites/multiuse/9'), 'No such invitation');
    t.equal((await hamlet.delete('/invites/multiuse/1')).status, 200, 'its creator');
    refused(t, await hamlet.delete('/invites/multiuse/1'), 'Invitation has already been revoked');
    t.equal((await desdemona.delete('/invites/multiuse/2')).status, 200);
    t.same(await invites(desdemona), []);
  });
});

test('invites_changed reaches the administrators and the inviter, and invitations survive a restart', async (t) => {
  const { iago, hamlet, othello, server } = await world(t);
  const admin = await register(iago, { event_types: ['invites_changed'] });
  const inviter = await register(hamlet, { event_types: ['invites_changed'] });
  const bystander = await register(othello, { event_types: ['invites_changed'] });

  await invite(hamlet, { invitee_emails: 'one@example.com' });
  t.same(ofType(await take(admin), 'invites_changed').map((e) => e.type), ['invites_changed'], 'an administrator hears of a new invitation');
  t.same(ofType(await take(inviter), 'invites_changed').length, 1, 'so does its inviter');
  const [entry] = await invites(hamlet);
  await hamlet.post(`/invites/${entry.id}/resend`);
  t.same(await take(admin), [], 'a resend changes nothing listed');
  await iago.post('/invites/multiuse', {});
  t.same(ofType(await take(admin), 'invites_changed').length, 1);
  t.same(await take(inviter), [], "another's invitation is not the inviter's business");
  await iago.delete(`/invites/${entry.id}`);
  t.same(ofType(await take(admin), 'invites_changed').length, 1, 'revoking');
  t.same(ofType(await take(inviter), 'invites_changed').length, 1, 'the inviter hears their invitation was revoked');
  t.same(await take(bystander), [], 'a member who invited nothing hears nothing');
  t.match((await take(admin)), [], 'one event per change');

  await invite(hamlet, { invitee_emails: 'two@example.com', invite_expires_in_minutes: null });
  await take(admin);
  const before = await invites(iago);
  const restarted = await server.restart();
  t.teardown(() => restarted.destroy());
  const again = clientFor(restarted, 'iago@example.com');
  t.same(await invites(again), before, 'the same invitations after a restart');
  await again.delete('/invites/multiuse/1');
  t.same(ofType(await take({ ...admin, api: again }), 'invites_changed').length, 1, 'the queue registered before the restart hears the next change');
  t.same((await invites(again)).map((i) => i.email), ['two@example.com']);
  t.equal((await restarted.services.outbox.list()).length, 3, 'the outbox too (two invitations and a resend)');
});
