/**
 * Who posts through an incoming webhook: the account whose API key is in the URL, with the
 * errors of Zulip's `webhook_view` (`validate_api_key` with `is_webhook`).
 */
import { ApiError } from '../domain/errors.js';
import { secretsEqual } from '../domain/credentials.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { unauthorized } from './credentials.js';

export function webhookSender(services: Services, apiKey: string): UserRecord {
  const key = apiKey.trim();
  if (!/^[A-Za-z0-9]{32}$/.test(key)) throw unauthorized('Malformed API key');
  const { org } = services;
  let found: UserRecord | undefined;
  // A walk over every account: keys are secrets, so there is no index by key to leak timing through.
  for (const user of org.users.all()) if (secretsEqual(key, user.apiKey)) found = user;
  if (!found || found.isSystemBot) throw unauthorized('Invalid API key');
  if (org.realm.deactivated) throw new ApiError('REALM_DEACTIVATED', 'This organization has been deactivated', 401);
  if (!found.isActive) throw new ApiError('USER_DEACTIVATED', 'Account is deactivated', 401);
  return found;
}
