/**
 * Deactivating an organization (Zulip's do_deactivate_realm) and bringing it back: the realm
 * record's `deactivated` flag, which every credential check reads (queries/credentials.ts), and
 * the `realm`/`deactivated` event to every active user, so that open clients learn it at once.
 * Other organizations of the server are not touched.
 */
import type { Services } from '../services.js';

export function deactivateOrganization(services: Services): Promise<void> {
  const { org } = services;
  return services.write((tx) => {
    if (org.realm.deactivated) return;
    org.saveRealm({ ...org.realm, deactivated: true }, tx);
    const active = [...org.users.all()].filter((user) => user.isActive).map((user) => user.id);
    tx.emit({ type: 'realm', op: 'deactivated', realm_id: org.id }, active);
  });
}

/** Zulip's do_reactivate_realm: the flag goes; it sends no event (nobody can be listening). */
export function reactivateOrganization(services: Services): Promise<void> {
  const { org } = services;
  return services.write((tx) => {
    if (org.realm.deactivated) org.saveRealm({ ...org.realm, deactivated: false }, tx);
  });
}
