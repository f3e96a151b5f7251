/** Replacing a user's API key (Zulip's `do_regenerate_api_key`): the old key is refused from the next request on. */
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { regenerateApiKey } from './accounts.js';
import { botUpdate } from './bot-events.js';

/** `POST /users/me/api_key/regenerate`: returns the new key. */
export async function regenerateOwnApiKey(services: Services, user: UserRecord): Promise<string> {
  return services.write((tx) => {
    const updated = regenerateApiKey(services.org, tx, services.org.users.get(user.id)!);
    // As Zulip's do_regenerate_api_key: a bot's administrators are told its new key.
    if (updated.isBot && !updated.isSystemBot) botUpdate(services, tx, updated, { api_key: updated.apiKey });
    return updated.apiKey;
  });
}
