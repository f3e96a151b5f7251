/**
 * The organization's name and description, as its operator sets them (`npm run cli --
 * organization`, with the server stopped): Zulip's limits, stored in the realm record.
 */
import { badRequest } from '../domain/errors.js';
import type { RealmRecord } from '../domain/realm.js';
import type { Organization } from '../store/organization.js';
import type { Transaction } from '../store/transaction.js';

/** Zulip's Realm.MAX_REALM_NAME_LENGTH and MAX_REALM_DESCRIPTION_LENGTH. */
export const MAX_REALM_NAME_LENGTH = 40;
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;

export interface ProfileChanges {
  name?: string;
  description?: string;
}

/** Changes what is given (nothing when nothing is) and returns the realm as it then is. */
export function setOrganizationProfile(org: Organization, tx: Transaction, changes: ProfileChanges): RealmRecord {
  const realm = { ...org.realm };
  if (changes.name !== undefined) {
    const name = changes.name.trim();
    if (name === '') throw badRequest('Organization name cannot be empty.');
    if ([...name].length > MAX_REALM_NAME_LENGTH) throw badRequest(`Organization name is too long (at most ${MAX_REALM_NAME_LENGTH} characters).`);
    realm.name = name;
  }
  if (changes.description !== undefined) {
    if ([...changes.description].length > MAX_REALM_DESCRIPTION_LENGTH) {
      throw badRequest(`Organization description is too long (at most ${MAX_REALM_DESCRIPTION_LENGTH} characters).`);
    }
    realm.description = changes.description.trim();
  }
  if (changes.name !== undefined || changes.description !== undefined) org.saveRealm(realm, tx);
  return realm;
}
