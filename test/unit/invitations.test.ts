/** Unit tests of the pure invitation rules: the address list, roles, managing, sorting invitees, expiry, the join form, the mail, escaping. */
import { test } from 'tap';
import {
  expiryFor,
  formatInvite,
  generateInvitationKey,
  invitationState,
  inviteGroupRefusal,
  inviteRoleRefusal,
  joinFormProblem,
  joinUrl,
  manageRefusal,
  overDailyLimit,
  parseInviteeEmails,
  sortInvitees,
  type InvitationRecord,
} from '../../src/domain/invitations.js';
import { escapeHtml } from '../../src/domain/html.js';
import { invitationMail } from '../../src/domain/invitation-mail.js';
import { Role } from '../../src/domain/roles.js';

const record = (fields: Partial<InvitationRecord> = {}): InvitationRecord => ({
  id: 1, multiuse: false, key: 'k'.repeat(24), email: 'new@example.com', invitedBy: 2, invitedAs: Role.MEMBER, invitedAt: 1000, expiresAt: 2000,
  streamIds: [], groupIds: [], includeRealmDefaultSubscriptions: false, notifyReferrerOnJoin: true, welcomeMessageCustomText: null,
  status: 'active', sentAt: [1000], joinedUserIds: [], ...fields,
});

test('the address list: commas and newlines, names, blanks and duplicates', async (t) => {
  t.same(parseInviteeEmails('a@example.com, b@example.com\nc@example.com'), ['a@example.com', 'b@example.com', 'c@example.com']);
  t.same(parseInviteeEmails('Ann Smith <ann@example.com>,  bob@example.com  '), ['ann@example.com', 'bob@example.com'], '`Name <address>` gives the address');
  t.same(parseInviteeEmails('a@example.com,,\n, a@example.com'), ['a@example.com'], 'blanks dropped, duplicates once');
  t.same(parseInviteeEmails(' , \n'), [], 'nothing but separators');
  t.same(parseInviteeEmails('not an address'), ['not an address'], 'kept for the invalid-address error');
});

test('who invites as which role', async (t) => {
  t.equal(inviteRoleRefusal(Role.OWNER, Role.OWNER), null);
  t.equal(inviteRoleRefusal(Role.ADMINISTRATOR, Role.OWNER), 'Must be an organization owner');
  t.equal(inviteRoleRefusal(Role.ADMINISTRATOR, Role.ADMINISTRATOR), null);
  t.equal(inviteRoleRefusal(Role.ADMINISTRATOR, Role.MODERATOR), null);
  t.equal(inviteRoleRefusal(Role.MODERATOR, Role.MODERATOR), null, 'an equal role (the spec; Zulip\'s code wants an administrator)');
  t.equal(inviteRoleRefusal(Role.MODERATOR, Role.ADMINISTRATOR), 'Must be an organization administrator');
  t.equal(inviteRoleRefusal(Role.GUEST, Role.MEMBER), 'Must be an organization administrator');
  t.equal(inviteRoleRefusal(Role.MEMBER, Role.ADMINISTRATOR), 'Must be an organization administrator');
  t.equal(inviteRoleRefusal(Role.MEMBER, Role.OWNER), 'Must be an organization owner');
  t.equal(inviteRoleRefusal(Role.MEMBER, Role.MEMBER), null);
  t.equal(inviteRoleRefusal(Role.MEMBER, Role.GUEST), null);
});

test('who manages an invitation', async (t) => {
  t.equal(manageRefusal({ id: 2, role: Role.MEMBER }, record()), null, 'its creator');
  t.equal(manageRefusal({ id: 3, role: Role.MEMBER }, record()), 'Must be an organization administrator');
  t.equal(manageRefusal({ id: 3, role: Role.MODERATOR }, record()), 'Must be an organization administrator');
  t.equal(manageRefusal({ id: 3, role: Role.ADMINISTRATOR }, record()), null);
  t.equal(manageRefusal({ id: 3, role: Role.ADMINISTRATOR }, record({ invitedAs: Role.OWNER })), 'Must be an organization owner');
  t.equal(manageRefusal({ id: 3, role: Role.OWNER }, record({ invitedAs: Role.OWNER })), null);
});

test('sorting invitees: invalid, existing, deactivated, already invited', async (t) => {
  const accounts: Record<string, { isActive: boolean; isSystemBot: boolean }> = {
    'hamlet@example.com': { isActive: true, isSystemBot: false },
    'gone@example.com': { isActive: false, isSystemBot: false },
    'bot@example.com': { isActive: true, isSystemBot: true },
  };
  const facts = { account: (email: string) => accounts[email.toLowerCase()], pendingInvitation: (email: string) => email === 'pending@example.com' };
  t.same(sortInvitees(['new@example.com', 'hamlet@example.com'], facts), { outcome: 'send', invite: ['new@example.com'], skipped: [['hamlet@example.com', 'Already has an account.', false]] });
  t.same(sortInvitees(['HAMLET@example.com'], facts), { outcome: 'none', errors: [['HAMLET@example.com', 'Already has an account.', false]] }, 'addresses compared without case');
  t.same(sortInvitees(['gone@example.com', 'pending@example.com', 'bot@example.com'], facts), {
    outcome: 'none',
    errors: [['gone@example.com', 'Account has been deactivated.', true], ['pending@example.com', 'Already invited.', false], ['bot@example.com', 'Reserved for system bots.', false]],
  });
  t.same(sortInvitees(['nope', 'new@example.com', 'hamlet@example.com'], facts), {
    outcome: 'invalid',
    errors: [['nope', 'Invalid address.', false], ['hamlet@example.com', 'Already has an account.', false]],
  }, 'an invalid address stops everything; the skipped are listed after it');
  t.same(sortInvitees(['new@example.com'], facts), { outcome: 'send', invite: ['new@example.com'], skipped: [] });
});

test('groups of an invitation', async (t) => {
  t.equal(inviteGroupRefusal({ exists: false, isSystemGroup: false, mayAddMembers: true }), 'Invalid user group');
  t.equal(inviteGroupRefusal({ exists: true, isSystemGroup: true, mayAddMembers: true }), 'Insufficient permission');
  t.equal(inviteGroupRefusal({ exists: true, isSystemGroup: false, mayAddMembers: false }), 'Insufficient permission');
  t.equal(inviteGroupRefusal({ exists: true, isSystemGroup: false, mayAddMembers: true }), null);
});

test('life of an invitation, expiry and the daily limit', async (t) => {
  t.equal(expiryFor(1000, null), null, 'null never expires');
  t.equal(expiryFor(1000, 10), 1600);
  t.equal(invitationState(record(), 1999), 'active');
  t.equal(invitationState(record(), 2000), 'expired', 'expired at its expiry time');
  t.equal(invitationState(record({ expiresAt: null }), 10 ** 10), 'active');
  t.equal(invitationState(record({ status: 'revoked' }), 1500), 'revoked');
  t.equal(invitationState(record({ status: 'used', expiresAt: 1 }), 1500), 'used', 'used beats expired');
  t.equal(overDailyLimit(99, 1, 100), false);
  t.equal(overDailyLimit(99, 2, 100), true);
  t.equal(overDailyLimit(10 ** 6, 5, 0), false, '0: no limit');
  const key = generateInvitationKey();
  t.match(key, /^[a-z2-7]{24}$/);
  t.not(generateInvitationKey(), key);
});

test('the invitation as GET /invites lists it', async (t) => {
  t.same(formatInvite(record(), 'https://chat.example.com'), {
    id: 1, invited_by_user_id: 2, invited: 1000, expiry_date: 2000, invited_as: 400, is_multiuse: false, notify_referrer_on_join: true, email: 'new@example.com',
  });
  t.same(formatInvite(record({ multiuse: true, email: null, expiresAt: null }), 'https://chat.example.com'), {
    id: 1, invited_by_user_id: 2, invited: 1000, expiry_date: null, invited_as: 400, is_multiuse: true, notify_referrer_on_join: true,
    link_url: `https://chat.example.com/join/${'k'.repeat(24)}/`,
  });
  t.equal(joinUrl('https://chat.example.com', 'abc'), 'https://chat.example.com/join/abc/');
});

test('the join form', async (t) => {
  t.equal(joinFormProblem({ fullName: ' Ann ', password: 'secret' }, 100), null);
  t.equal(joinFormProblem({ fullName: '  ', password: 'secret' }, 100), 'Please enter your name.');
  t.equal(joinFormProblem({ fullName: 'x'.repeat(101), password: 'secret' }, 100), 'Your name must be at most 100 characters long.');
  t.equal(joinFormProblem({ fullName: 'Ann', password: '12345' }, 100), 'Your password must be at least 6 characters long.');
  t.equal(joinFormProblem({ fullName: 'Ann', password: 'secret', email: 'nope' }, 100), 'Please enter a valid email address.');
  t.equal(joinFormProblem({ fullName: 'Ann', password: 'secret', email: ' ann@example.com ' }, 100), null);
});

test('escaping and the mail', async (t) => {
  t.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  const mail = invitationMail({
    to: 'new@example.com', from: 'noreply@example.com', referrerName: 'Iago <b>', referrerEmail: 'iago@example.com',
    realmName: 'Parley & Co', realmUrl: 'https://chat.example.com', joinUrl: 'https://chat.example.com/join/abc/', expiresAt: null,
  });
  t.equal(mail.subject, 'Iago <b> invited you to join Parley & Co');
  t.match(mail.text, 'https://chat.example.com/join/abc/');
  t.match(mail.text, 'This invitation does not expire.');
  t.match(mail.html, 'Iago &lt;b&gt;');
  t.notMatch(mail.html, 'Iago <b>');
  t.match(mail.html, 'Parley &amp; Co');
});
