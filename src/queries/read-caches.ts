/**
 * The serialised answers kept for one organization's hottest reads (held by its `Services`, never
 * by a module, so that organizations sharing a process share nothing): message objects without
 * flags (message-json.ts) and the user list per way of seeing it (user-list-json.ts).
 */
import { MessageJsonCache } from './message-json.js';
import { UserListCache } from './user-list-json.js';

export class ReadCaches {
  readonly messages = new MessageJsonCache();
  readonly userLists = new UserListCache();
}
