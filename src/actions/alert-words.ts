/** A user's alert words: added and removed on the user record, with the `alert_words` event to the user's clients. */
import { withAlertWords, withoutAlertWords } from '../domain/alert-words.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';

function writeAlertWords(services: Services, userId: number, change: (current: readonly string[]) => string[]): Promise<string[]> {
  return services.write((tx) => {
    const user = services.org.users.get(userId)!;
    const current = user.alertWords ?? [];
    const words = change(current);
    // Unchanged lists are not saved: the organization's matcher is rebuilt only when words change.
    if (words.length !== current.length || words.some((word, i) => word !== current[i])) {
      services.org.users.save({ ...user, alertWords: words }, tx);
    }
    tx.emit({ type: 'alert_words', alert_words: words }, [userId]);
    return words;
  });
}

/** `POST /users/me/alert_words`: returns the whole list. */
export function addAlertWords(services: Services, user: UserRecord, words: readonly string[]): Promise<string[]> {
  return writeAlertWords(services, user.id, (current) => withAlertWords(current, words));
}

/** `DELETE /users/me/alert_words`: returns the whole list. */
export function removeAlertWords(services: Services, user: UserRecord, words: readonly string[]): Promise<string[]> {
  return writeAlertWords(services, user.id, (current) => withoutAlertWords(current, words));
}
