/** Replacing a user's API key (Zulip's `do_regenerate_api_key`): the old key is refused from the next request on. */
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { regenerateApiKey } from './accounts.js';

/** `POST /users/me/api_key/regenerate`: returns the new key. */
export async function regenerateOwnApiKey(services: Services, user: UserRecord): Promise<string> {
  return services.write((tx) => regenerateApiKey(services.org, tx, services.org.users.get(user.id)!).apiKey);
}
