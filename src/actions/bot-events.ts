/** What every bot write shares: the `realm_bot` `update` event and Zulip's rule that an active account's name is not reused. */
import { badRequest } from '../domain/errors.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { botOwnerUserIds } from '../queries/bots.js';

/** Zulip's `check_bot_name_available`: no other active account has the name. */
export function checkBotNameAvailable(services: Services, fullName: string, exceptId?: number): void {
  for (const user of services.org.users.all()) {
    if (user.isActive && user.id !== exceptId && user.fullName === fullName) throw badRequest('Name is already in use!');
  }
}

/** The `realm_bot` `update` of some properties, to those who administer the bot. */
export function botUpdate(services: Services, tx: Transaction, bot: UserRecord, fields: Record<string, unknown>): void {
  tx.emit({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, ...fields } }, botOwnerUserIds(services, bot));
}
