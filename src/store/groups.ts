/** The user groups of an organization (system groups included), in memory; saved per record. */
import type { GroupLookup, GroupRecord } from '../domain/groups.js';
import type { RealmKeys } from './keys.js';
import type { Transaction } from './transaction.js';

export class GroupDirectory implements GroupLookup {
  private readonly byId = new Map<number, GroupRecord>();
  private readonly byName = new Map<string, number>();
  version = 0;

  constructor(private readonly keys: RealmKeys) {}

  group(id: number): GroupRecord | undefined {
    return this.byId.get(id);
  }

  byGroupName(name: string): GroupRecord | undefined {
    const id = this.byName.get(name.toLowerCase());
    return id === undefined ? undefined : this.byId.get(id);
  }

  all(): IterableIterator<GroupRecord> {
    return this.byId.values();
  }

  load(group: GroupRecord): void {
    this.index(group);
  }

  save(group: GroupRecord, tx: Transaction): void {
    const previous = this.byId.get(group.id);
    tx.onRollback(() => {
      this.unindex(group);
      if (previous) this.index(previous);
    });
    if (previous) this.unindex(previous);
    this.index(group);
    tx.put(this.keys.group(group.id), group);
  }

  private unindex(group: GroupRecord): void {
    this.byId.delete(group.id);
    if (this.byName.get(group.name.toLowerCase()) === group.id) this.byName.delete(group.name.toLowerCase());
    this.version++;
  }

  private index(group: GroupRecord): void {
    this.byId.set(group.id, group);
    this.byName.set(group.name.toLowerCase(), group.id);
    this.version++;
  }
}
