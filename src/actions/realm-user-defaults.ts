/**
 * The personal settings new users start with (`PATCH /realm/user_settings_defaults`, Zulip's
 * RealmUserDefault): kept in the realm record where they differ from Zulip's defaults, copied into
 * each new account, announced as `realm_user_settings_defaults` events.
 */
import { requireAdministrator } from '../domain/channel-admin.js';
import { checkSettingValue, realmUserSettingsDefaults } from '../domain/user-settings.js';
import type { UserRecord } from '../domain/users.js';
import { everyone } from '../queries/people.js';
import type { Services } from '../services.js';

export function updateUserSettingsDefaults(services: Services, actor: UserRecord, changes: Record<string, unknown>): Promise<void> {
  requireAdministrator(actor.role);
  const given = Object.entries(changes).filter(([, value]) => value !== undefined);
  for (const [name, value] of given) checkSettingValue(name, value);
  return services.write((tx) => {
    const { org } = services;
    for (const [name, value] of given) {
      if (realmUserSettingsDefaults(org.realm.userSettingsDefaults)[name] === value) continue;
      org.saveRealm({ ...org.realm, userSettingsDefaults: { ...org.realm.userSettingsDefaults, [name]: value } }, tx);
      tx.emit({ type: 'realm_user_settings_defaults', op: 'update', property: name, value }, everyone(services));
    }
  });
}
