/** The channels of an organization, in memory, indexed by id, name and recipient; saved per record. */
import type { ChannelRecord } from '../domain/channel-record.js';
import type { RealmKeys } from './keys.js';
import type { Transaction } from './transaction.js';

export class ChannelDirectory {
  private readonly byId = new Map<number, ChannelRecord>();
  private readonly idByName = new Map<string, number>();

  constructor(private readonly keys: RealmKeys) {}

  get(id: number): ChannelRecord | undefined {
    return this.byId.get(id);
  }

  /** Case-insensitive, as Zulip compares channel names. */
  byName(name: string): ChannelRecord | undefined {
    const id = this.idByName.get(name.toLowerCase());
    return id === undefined ? undefined : this.byId.get(id);
  }

  all(): IterableIterator<ChannelRecord> {
    return this.byId.values();
  }

  load(channel: ChannelRecord): void {
    this.index(channel);
  }

  save(channel: ChannelRecord, tx: Transaction): void {
    const previous = this.byId.get(channel.id);
    tx.onRollback(() => {
      this.unindex(channel);
      if (previous) this.index(previous);
    });
    if (previous) this.unindex(previous);
    this.index(channel);
    tx.put(this.keys.channel(channel.id), channel);
  }

  private unindex(channel: ChannelRecord): void {
    this.byId.delete(channel.id);
    if (this.idByName.get(channel.name.toLowerCase()) === channel.id) this.idByName.delete(channel.name.toLowerCase());
  }

  private index(channel: ChannelRecord): void {
    this.byId.set(channel.id, channel);
    this.idByName.set(channel.name.toLowerCase(), channel.id);
  }
}
