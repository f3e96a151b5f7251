/**
 * Who has read a message (GET /messages/{id}/read_receipts), as Zulip answers it: active users
 * who have the message marked read and share read receipts, never its sender, nor anyone who
 * muted the asker or whom the asker muted (muters would otherwise be found out by reading every
 * message at once).
 *
 * The candidates come from the read-state model (docs/architecture.md, "Per-user message state")
 * rather than from a scan: a direct message's participants; for a channel message delivered by
 * reception intervals, the users who ever received the channel plus those listed on the record
 * (historical rows); for a record kept by per-user rows (moved between channels, or older than
 * the cut-over), every user. Each candidate costs one flags lookup (a row or the read marks).
 */
import { Flag, type MessageRecord } from '../domain/messages.js';
import { settingOn } from '../domain/user-settings.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { messageFlags } from './message-state.js';

function candidates(services: Services, record: MessageRecord): Iterable<number> {
  if (record.type === 'private') return record.dmUserIds ?? [];
  if (record.explicit || record.id < services.readMarks.explicitBelow) return [...services.org.users.all()].map((user) => user.id);
  const ids = new Set(services.subscriptions.receiversOf(record.channelId!));
  for (const id of record.userIds) ids.add(id);
  return ids;
}

/** Does this user share read receipts (their `send_read_receipts` setting, default on)? */
function sharesReceipts(user: UserRecord): boolean {
  return settingOn(user, 'send_read_receipts');
}

/** Has either user muted the other? */
function mutedEitherWay(asker: UserRecord, other: UserRecord): boolean {
  return (asker.mutedUsers?.some((m) => m.id === other.id) ?? false) || (other.mutedUsers?.some((m) => m.id === asker.id) ?? false);
}

export function readReceipts(services: Services, asker: UserRecord, record: MessageRecord): number[] {
  const readers: number[] = [];
  for (const userId of candidates(services, record)) {
    if (userId === record.senderId) continue;
    const user = services.org.users.get(userId);
    if (!user || !user.isActive || !sharesReceipts(user)) continue;
    if (mutedEitherWay(asker, user)) continue;
    const flags = messageFlags(services, userId, record);
    if (flags !== undefined && (flags & Flag.read) !== 0) readers.push(userId);
  }
  return readers.sort((a, b) => a - b);
}
