/**
 * GET /users of the whole organization, serialised once per way of seeing it: which emails a
 * viewer may see depends only on the viewer's role (`canSeeEmail`), so one list serves every
 * viewer of a role, and the viewer's own entry (always with their email) is put in its place
 * when it differs. Every list is dropped when any user changes (the user directory's version:
 * bumped by each save and by each rollback of one).
 */
import { isAdmin, isGuest, isModerator } from '../domain/roles.js';
import { canSeeEmail, type UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import type { UserListForm } from '../store/read-caches.js';
import { listedUserJson } from './user-objects.js';
import { EncodedAnswer, RawJson } from '../shared/handler-result.js';

/** `"members":[…]`: every listed user (system bots left out) as `viewer` sees them. */
export function userListAnswer(services: Services, viewer: UserRecord | undefined, clientGravatar: boolean, profiles: boolean): RawJson {
  const { users } = services.org;
  const cache = services.readCaches.userLists;
  if (users.version !== cache.version) {
    cache.forms.clear();
    cache.version = users.version;
  }
  const roleClass = viewer === undefined ? 'p' : `${+isGuest(viewer.role)}${+isModerator(viewer.role)}${+isAdmin(viewer.role)}`;
  const key = `${roleClass}${+clientGravatar}${+profiles}`;
  // Another viewer of the same role, to build the list as the role sees it (no one's own entry).
  const asRole = viewer === undefined ? undefined : { ...viewer, id: -1 };
  let form = cache.forms.get(key);
  if (form === undefined) {
    form = build(services, asRole, clientGravatar, profiles);
    cache.forms.set(key, form);
    cache.counts.built++;
  } else {
    cache.counts.reused++;
  }
  const span = viewer === undefined || canSeeEmail(asRole, viewer) === canSeeEmail(viewer, viewer) ? undefined : form.spans.get(viewer.id);
  if (span === undefined) return new RawJson(form.json, form.encoded);
  return new RawJson(form.json.slice(0, span[0]) + listedUserJson(services, viewer!, viewer, clientGravatar, profiles) + form.json.slice(span[1]));
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
