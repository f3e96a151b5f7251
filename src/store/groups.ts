/** The user groups of an organization (system groups included), in memory; saved per record (a record book). */
import type { GroupLookup, GroupRecord } from '../domain/groups.js';
import type { RealmKeys } from './keys.js';
import { RecordBook, UniqueIndex } from './record-book.js';

export class GroupDirectory extends RecordBook<number, GroupRecord> implements GroupLookup {
  private readonly names: UniqueIndex<GroupRecord>;

  constructor(keys: RealmKeys) {
    super({ prefix: keys.groupPrefix, key: (group) => keys.group(group.id), id: (group) => group.id });
    this.names = this.indexBy(new UniqueIndex((group: GroupRecord) => [group.name.toLowerCase()]));
  }

  /** Case-insensitive, as Zulip compares group names. */
  byName(name: string): GroupRecord | undefined {
    return this.names.get(name.toLowerCase());
  }
}
