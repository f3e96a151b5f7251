/**
 * `realm_user_groups` of POST /register serialised once while groups, users and the realm are
 * unchanged: the system groups list every member of the organization, the same for every viewer.
 */
import type { Services } from '../services.js';
import { groupObjects } from './user-groups.js';
import { recordNumber } from '../shared/record-number.js';

/** `"realm_user_groups":[…]`. */
export function groupListJson(services: Services, includeDeactivated: boolean): Buffer {
  const { org } = services;
  const cache = services.readCaches.registerTexts;
  // The realm record is replaced on change: its identity is part of the stamp through a counter.
  const stamp = `${org.groups.version}:${org.users.version}:${recordNumber(org.realm)}`;
  const key = `groups${+includeDeactivated}`;
  const kept = cache.texts.get(key);
  if (kept !== undefined && kept.stamp === stamp) {
    cache.counts.reused++;
    return kept.json;
  }
  const json = Buffer.from(`"realm_user_groups":${JSON.stringify(groupObjects(services, includeDeactivated))}`);
  cache.texts.set(key, { stamp, json });
  cache.counts.built++;
  return json;
}
