/**
 * The unsubscribe link of missed-message emails (Zulip's email_unsubscribe for
 * `missed_messages`): a signed token names the user, and following it turns
 * `enable_offline_email_notifications` off, with the usual settings events.
 */
import { checkUnsubscribeToken } from '../domain/missed-message-mail.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { changeSetting } from './settings.js';

/** The user whose emails stop, or undefined for a token that is not ours (or an inactive account). */
export async function unsubscribeFromMissedMessages(services: Services, token: string): Promise<UserRecord | undefined> {
  const userId = checkUnsubscribeToken(services.notifications.secret(), token);
  const user = userId === undefined ? undefined : services.org.users.get(userId);
  if (!user?.isActive) return undefined;
  await services.write((tx) => changeSetting(services, tx, services.org.users.get(user.id)!, 'enable_offline_email_notifications', false));
  return user;
}
