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
import { listedUserJson } from './user-objects.js';
import { EncodedAnswer, RawJson } from '../shared/handler-result.js';

interface ListForm {
  /** `"members":[…]`. */
  json: string;
  /** The answer encoded once by the HTTP front, for every viewer whose own entry needs no change. */
  encoded: EncodedAnswer;
  /** Where each member's object lies in `json` ([start, end)), to put a viewer's own in its place. */
  spans: Map<number, readonly [number, number]>;
}

export class UserListCache {
  private version = -1;
  private readonly forms = new Map<string, ListForm>();
  /** Lists built and reused (tests and benches see the cache at work). */
  readonly counts = { built: 0, reused: 0 };

  /** `"members":[…]`: every listed user (system bots left out) as `viewer` sees them. */
  members(services: Services, viewer: UserRecord | undefined, clientGravatar: boolean, profiles: boolean): RawJson {
    const { users } = services.org;
    if (users.version !== this.version) {
      this.forms.clear();
      this.version = users.version;
    }
    const roleClass = viewer === undefined ? 'p' : `${+isGuest(viewer.role)}${+isModerator(viewer.role)}${+isAdmin(viewer.role)}`;
    const key = `${roleClass}${+clientGravatar}${+profiles}`;
    // Another viewer of the same role, to build the list as the role sees it (no one's own entry).
    const asRole = viewer === undefined ? undefined : { ...viewer, id: -1 };
    let form = this.forms.get(key);
    if (form === undefined) {
      form = this.build(services, asRole, clientGravatar, profiles);
      this.forms.set(key, form);
      this.counts.built++;
    } else {
      this.counts.reused++;
    }
    const span = viewer === undefined || canSeeEmail(asRole, viewer) === canSeeEmail(viewer, viewer) ? undefined : form.spans.get(viewer.id);
    if (span === undefined) return new RawJson(form.json, form.encoded);
    return new RawJson(form.json.slice(0, span[0]) + listedUserJson(services, viewer!, viewer, clientGravatar, profiles) + form.json.slice(span[1]));
  }

  private build(services: Services, asRole: UserRecord | undefined, clientGravatar: boolean, profiles: boolean): ListForm {
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
}
