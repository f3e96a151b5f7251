/** Every user and bot of an organization, in memory, indexed by id and email; saved per record (a record book). */
import type { UserRecord } from '../domain/users.js';
import { apiEmail } from '../domain/users.js';
import type { RealmKeys } from './keys.js';
import { RecordBook, UniqueIndex } from './record-book.js';

export class UserDirectory extends RecordBook<number, UserRecord> {
  /** By real and by API email, lower-cased. */
  private readonly emails: UniqueIndex<UserRecord>;

  constructor(keys: RealmKeys, host: string) {
    super({ prefix: keys.userPrefix, key: (user) => keys.user(user.id), id: (user) => user.id });
    this.emails = this.indexBy(new UniqueIndex((user: UserRecord) => [user.deliveryEmail.toLowerCase(), apiEmail(user, host).toLowerCase()]));
  }

  /** By real or API email, case-insensitively. */
  byEmail(email: string): UserRecord | undefined {
    return this.emails.get(email.toLowerCase());
  }
}
