/**
 * A user's own settings (`PATCH /settings`): each changed setting saved on the user record and
 * sent as a `user_settings` event (and the legacy event older clients read), plus what Zulip
 * sends others for a name, a time zone or an email visibility; the password change.
 */
import { avatarUrlFor } from '../domain/avatar.js';
import { badRequest } from '../domain/errors.js';
import { hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from '../domain/credentials.js';
import { isAdmin } from '../domain/roles.js';
import {
  checkSettingValue,
  LANGUAGE_NAMES,
  LEGACY_DISPLAY_SETTINGS,
  LEGACY_NOTIFICATION_SETTINGS,
  userSettings,
} from '../domain/user-settings.js';
import { apiEmail, canSeeEmail, checkFullName, EmailVisibility, isValidEmail, type UserRecord } from '../domain/users.js';
import { LIMITS } from '../domain/versions.js';
import { clearDrafts } from './drafts.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { everyone } from './users.js';

/** Zulip's minimum password length (its strength check also asks for a few thousand guesses; length is what we check). */

/** What `PATCH /settings` takes besides the settings themselves. */
export interface AccountChanges {
  full_name?: string;
  email?: string;
  old_password?: string;
  new_password?: string;
}

/**
 * Sets one setting and sends its events; returns the saved record (unchanged when the value
 * already was the setting's). Values are validated by the caller (`checkSettingValue`).
 */
export function changeSetting(services: Services, tx: Transaction, user: UserRecord, name: string, value: unknown): UserRecord {
  const { org } = services;
  const before = userSettings(user);
  if (before[name] === value) return user;
  let updated: UserRecord;
  if (name === 'timezone') updated = { ...user, timezone: value as string };
  else if (name === 'email_address_visibility') updated = { ...user, emailAddressVisibility: value as EmailVisibility };
  else updated = { ...user, settings: { ...user.settings, [name]: value } };
  org.users.save(updated, tx);

  const languageName = name === 'default_language' ? { language_name: LANGUAGE_NAMES[value as string] } : {};
  tx.emit({ type: 'user_settings', op: 'update', property: name, value, ...languageName }, [user.id]);
  const email = apiEmail(updated, org.host);
  if (LEGACY_DISPLAY_SETTINGS.includes(name)) {
    tx.emit({ type: 'update_display_settings', user: email, setting_name: name, setting: value, ...languageName }, [user.id]);
  }
  if (LEGACY_NOTIFICATION_SETTINGS.includes(name)) {
    tx.emit({ type: 'update_global_notifications', user: email, notification_name: name, setting: value }, [user.id]);
  }
  if (name === 'timezone') {
    tx.emit({ type: 'realm_user', op: 'update', person: { email, user_id: user.id, timezone: value } }, everyone(services));
  }
  if (name === 'email_address_visibility') emailVisibilityEvents(services, tx, user, updated);
  // As Zulip: turning synchronization off deletes the stored drafts (without events: see clearDrafts).
  if (name === 'enable_drafts_synchronization' && value === false) clearDrafts(services, tx, user.id);
  return updated;
}

/**
 * As Zulip: those who gain or lose sight of the real address are told; when the API email switches
 * to or from the real one, everyone learns the new one, and the avatar URL (clients computing
 * Gravatar URLs themselves may do so only for public addresses).
 */
function emailVisibilityEvents(services: Services, tx: Transaction, before: UserRecord, after: UserRecord): void {
  const { org } = services;
  const viewers = everyone(services).map((id) => org.users.get(id)!);
  const gained = viewers.filter((v) => !canSeeEmail(v, before) && canSeeEmail(v, after)).map((v) => v.id);
  const lost = viewers.filter((v) => canSeeEmail(v, before) && !canSeeEmail(v, after)).map((v) => v.id);
  if (gained.length > 0) tx.emit({ type: 'realm_user', op: 'update', person: { user_id: after.id, delivery_email: after.deliveryEmail } }, gained);
  if (lost.length > 0) tx.emit({ type: 'realm_user', op: 'update', person: { user_id: after.id, delivery_email: null } }, lost);
  const newEmail = apiEmail(after, org.host);
  if (newEmail === apiEmail(before, org.host)) return;
  const all = viewers.map((v) => v.id);
  tx.emit({ type: 'realm_user', op: 'update', person: { user_id: after.id, new_email: newEmail } }, all);
  const avatarUrl = avatarUrlFor(after, { clientGravatar: false, emailIsPublic: true, realmUrl: org.url })!;
  tx.emit({
    type: 'realm_user',
    op: 'update',
    person: {
      avatar_source: after.avatarSource,
      avatar_url: avatarUrl,
      avatar_url_medium: avatarUrl.replace('&version=', '&s=500&version='),
      avatar_version: after.avatarVersion,
      user_id: after.id,
    },
  }, all);
}

function changeFullName(services: Services, tx: Transaction, user: UserRecord, requested: string): UserRecord {
  const fullName = checkFullName(requested, LIMITS.maxFullNameLength);
  // As Zulip: where names are locked, a member's change is dropped silently (the UI does not offer it).
  if (services.org.realm.settings.name_changes_disabled === true && !isAdmin(user.role)) return user;
  if (fullName === user.fullName) return user;
  const updated = { ...user, fullName };
  services.org.users.save(updated, tx);
  tx.emit({ type: 'realm_user', op: 'update', person: { user_id: user.id, full_name: fullName } }, everyone(services));
  return updated;
}

/**
 * Zulip's email change sends a confirmation link to the new address and changes nothing until it
 * is followed. This server sends no such mail, so a change that passes Zulip's checks is refused
 * with a clear message rather than half done.
 */
function checkEmailChange(services: Services, user: UserRecord, requested: string): void {
  const email = requested.trim();
  if (email === user.deliveryEmail) return;
  if (services.org.realm.settings.email_changes_disabled === true && !isAdmin(user.role)) {
    throw badRequest('Email address changes are disabled in this organization.');
  }
  if (!isValidEmail(email)) throw badRequest('Invalid address.');
  if (services.org.users.byEmail(email)) throw badRequest('Email is already in use.');
  throw badRequest('Email address changes need a confirmation email, which this server does not send.');
}

/** `PATCH /settings`: every value checked before anything is written, then one write. */
export async function updateSettings(services: Services, user: UserRecord, account: AccountChanges, settings: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (user.isBot) throw badRequest('This endpoint does not accept bot requests.');
  for (const [name, value] of Object.entries(settings)) checkSettingValue(name, value);
  let passwordHash: string | undefined;
  if (account.new_password !== undefined) {
    if (!(await verifyPassword(account.old_password ?? '', user.passwordHash))) throw badRequest('Wrong password!');
    if ([...account.new_password].length < MIN_PASSWORD_LENGTH) throw badRequest('New password is too weak!');
    passwordHash = await hashPassword(account.new_password);
  }
  if (account.email !== undefined) checkEmailChange(services, user, account.email);
  await services.write((tx) => {
    // The record as it is now: the password check above awaited.
    let current = services.org.users.get(user.id)!;
    if (passwordHash !== undefined) {
      current = { ...current, passwordHash };
      services.org.users.save(current, tx);
    }
    if (account.full_name !== undefined) current = changeFullName(services, tx, current, account.full_name);
    for (const [name, value] of Object.entries(settings)) current = changeSetting(services, tx, current, name, value);
  });
  return {};
}
