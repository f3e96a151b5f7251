/** The channels of an organization, in memory, indexed by id and name; saved per record (a record book). */
import type { ChannelRecord } from '../domain/channel-record.js';
import type { RealmKeys } from './keys.js';
import { RecordBook, UniqueIndex } from './record-book.js';

export class ChannelDirectory extends RecordBook<number, ChannelRecord> {
  private readonly names: UniqueIndex<ChannelRecord>;

  constructor(keys: RealmKeys) {
    super({ prefix: keys.channelPrefix, key: (channel) => keys.channel(channel.id), id: (channel) => channel.id });
    this.names = this.indexBy(new UniqueIndex((channel: ChannelRecord) => [channel.name.toLowerCase()]));
  }

  /** Case-insensitive, as Zulip compares channel names. */
  byName(name: string): ChannelRecord | undefined {
    return this.names.get(name.toLowerCase());
  }
}
