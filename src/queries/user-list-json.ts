/**
 * The organization's user lists, serialised once per way of seeing them: GET /users and the
 * `realm_users` of POST /register. Which emails a viewer may see depends only on the viewer's
 * role (`canSeeEmail`), so one list serves every viewer of a role, and the viewer's own entry
 * (always with their email) is put in its place when it differs. Every list is dropped when any
 * user changes (the user directory's version: bumped by each save and by each rollback of one).
 */
import { isAdmin, isGuest, isModerator } from '../domain/roles.js';
import { canSeeEmail, type UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import type { UserListForm } from '../store/read-caches.js';
import { listedUserJson } from './user-objects.js';
import { registerUserJson, type RegisterUsersOptions } from './register-user-json.js';
import { EncodedAnswer, RawJson } from '../shared/handler-result.js';

/** `"members":[…]`: every listed user (system bots left out) as `viewer` sees them. */
export function userListAnswer(services: Services, viewer: UserRecord | undefined, clientGravatar: boolean, profiles: boolean): RawJson {
  const asRole = viewer === undefined ? undefined : roleOf(viewer);
  const form = formFor(services, `${roleClass(viewer)}${+clientGravatar}${+profiles}`, () => build(services, asRole, clientGravatar, profiles));
  const span = viewer === undefined || canSeeEmail(asRole, viewer) === canSeeEmail(viewer, viewer) ? undefined : form.spans.get(viewer.id);
  if (span === undefined) return new RawJson(form.json, form.encoded);
  return new RawJson(form.json.slice(0, span[0]) + listedUserJson(services, viewer!, viewer, clientGravatar, profiles) + form.json.slice(span[1]));
}

/**
 * `"realm_users":[…],"realm_non_active_users":[…],"cross_realm_bots":[…]` of POST /register as
 * `viewer` sees them: one text per role and options, the viewer's own entry put in its place.
 */
export function registerUsersJson(services: Services, viewer: UserRecord, options: RegisterUsersOptions): Buffer[] {
  const asRole = roleOf(viewer);
  const now = Math.floor(services.clock.now() / 1000);
  const key = `r${roleClass(viewer)}${+options.clientGravatar}${+options.avatarOptional}`;
  const form = formFor(services, key, () => buildRegister(services, asRole, options, now), now);
  // Encoded once per form; the spans of a register form count bytes.
  const bytes = (form.encoded.body ??= Buffer.from(form.json));
  const span = canSeeEmail(asRole, viewer) === canSeeEmail(viewer, viewer) ? undefined : form.spans.get(viewer.id);
  if (span === undefined) return [bytes];
  const own = Buffer.from(registerUserJson(services, viewer, viewer, options, now));
  return [Buffer.concat([bytes.subarray(0, span[0]), own, bytes.subarray(span[1])])];
}

/** Who sees emails alike: guests, moderators, administrators, everyone else. */
const roleClass = (viewer: UserRecord | undefined) => (viewer === undefined ? 'p' : `${+isGuest(viewer.role)}${+isModerator(viewer.role)}${+isAdmin(viewer.role)}`);

/** Another viewer of the same role, to build a list as the role sees it (no one's own entry). */
const roleOf = (viewer: UserRecord): UserRecord => ({ ...viewer, id: -1 });

/** The form under `key`, built while the users are unchanged (and, for a form that expires, in time). */
function formFor(services: Services, key: string, make: () => UserListForm, now = 0): UserListForm {
  const { users } = services.org;
  const cache = services.readCaches.userLists;
  if (users.version !== cache.version) {
    cache.forms.clear();
    cache.version = users.version;
  }
  let form = cache.forms.get(key);
  if (form === undefined || (form.expiresAt !== undefined && form.expiresAt <= now)) {
    form = make();
    cache.forms.set(key, form);
    cache.counts.built++;
  } else {
    cache.counts.reused++;
  }
  return form;
}

/** Who is long-term idle moves with the clock: such a form is rebuilt at most this often. */
const IDLE_FORM_SECONDS = 3600;

function buildRegister(services: Services, asRole: UserRecord, options: RegisterUsersOptions, now: number): UserListForm {
  const spans = new Map<number, readonly [number, number]>();
  const active: string[] = [];
  const inactive: string[] = [];
  const bots: string[] = [];
  // Byte offsets: the form is written encoded (see registerUsersJson).
  let offset = '"realm_users":['.length;
  for (const user of services.org.users.all()) {
    const one = registerUserJson(services, user, asRole, options, now);
    if (user.isSystemBot) bots.push(one);
    else if (!user.isActive) inactive.push(one);
    else {
      if (active.length > 0) offset++;
      const length = Buffer.byteLength(one);
      spans.set(user.id, [offset, offset + length]);
      offset += length;
      active.push(one);
    }
  }
  const json = `"realm_users":[${active.join(',')}],"realm_non_active_users":[${inactive.join(',')}],"cross_realm_bots":[${bots.join(',')}]`;
  return { json, spans, encoded: new EncodedAnswer(), expiresAt: options.avatarOptional ? now + IDLE_FORM_SECONDS : undefined };
}

function build(services: Services, asRole: UserRecord | undefined, clientGravatar: boolean, profiles: boolean): UserListForm {
  const spans = new Map<number, readonly [number, number]>();
  let json = '"members":[';
  let first = true;
  for (const user of services.org.users.all()) {
    if (user.isSystemBot) continue;
    if (!first) json += ',';
    first = false;
    const one = listedUserJson(services, user, asRole, clientGravatar, profiles);
    spans.set(user.id, [json.length, json.length + one.length]);
    json += one;
  }
  return { json: json + ']', spans, encoded: new EncodedAnswer() };
}
