/**
 * Deactivating and reactivating a whole organization (`npm run cli -- deactivate-organization`),
 * as Zulip's do_deactivate_realm / do_reactivate_realm: the realm record's `deactivated`, and on
 * deactivation the `realm` `deactivated` event to every active user, so that open clients learn
 * it at once. Requests then get REALM_DEACTIVATED (queries/credentials.ts).
 */
import { everyone } from '../queries/people.js';
import type { Services } from '../services.js';

/** Sets the organization's state; false when it already was so (nothing is written then). */
export async function setOrganizationDeactivated(services: Services, deactivated: boolean): Promise<boolean> {
  const { org } = services;
  if (org.realm.deactivated === deactivated) return false;
  await services.write((tx) => {
    org.saveRealm({ ...org.realm, deactivated }, tx);
    // Zulip tells nobody of a reactivation: no client of a deactivated organization is connected.
    if (deactivated) tx.emit({ type: 'realm', op: 'deactivated', realm_id: org.id }, everyone(services));
  });
  return true;
}
