/**
 * Which messages link which uploads (Zulip's do_claim_attachments and
 * check_attachment_reference_change): called inside the message writes, so a message and the
 * records of the files it links change in one batch.
 */
import { linkedPathIds } from '../domain/uploads.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { attachmentFields, mayReadUpload } from '../queries/uploads.js';
import { dropAttachment, emitAttachment } from './uploads.js';
import { withFields } from '../shared/with-fields.js';

/**
 * Points a message's uploads at what its rendered HTML links now: files newly linked are
 * claimed when the author may read them (their own, or shared with them, as Zulip allows),
 * files no longer linked let go of it. Returns the author's files that no message links any more
 * (the edit answer's `detached_uploads`).
 */
export function relinkUploads(services: Services, tx: Transaction, messageId: number, author: UserRecord, html: string): Record<string, unknown>[] {
  const { attachments } = services;
  const linked = linkedPathIds(html);
  const previous = attachments.ofMessage(messageId);
  // Most messages link no file, before or after: nothing to build for them.
  if (linked.length === 0 && previous.length === 0) return [];
  const wanted = new Set(linked);
  const detached: Record<string, unknown>[] = [];
  for (const record of previous) {
    if (wanted.delete(record.pathId)) continue;
    const updated = withFields(record, { messageIds: record.messageIds.filter((id) => id !== messageId) });
    attachments.save(updated, tx);
    emitAttachment(services, tx, 'update', updated);
    if (updated.messageIds.length === 0 && updated.ownerId === author.id) detached.push(attachmentFields(services, updated));
  }
  for (const pathId of wanted) {
    const record = attachments.byPathId(pathId);
    if (!record || !mayReadUpload(services, author, record)) continue;
    const updated = withFields(record, { messageIds: [...record.messageIds, messageId].sort((a, b) => a - b) });
    attachments.save(updated, tx);
    emitAttachment(services, tx, 'update', updated);
  }
  return detached;
}

/**
 * A deleted message lets go of its uploads; a file whose last linking message is deleted is
 * deleted with it (Zulip removes such files with the message).
 */
export function unlinkDeletedMessage(services: Services, tx: Transaction, messageId: number): void {
  for (const record of services.attachments.ofMessage(messageId)) {
    const updated = withFields(record, { messageIds: record.messageIds.filter((id) => id !== messageId) });
    if (updated.messageIds.length === 0) {
      dropAttachment(services, tx, record);
    } else {
      services.attachments.save(updated, tx);
      emitAttachment(services, tx, 'update', updated);
    }
  }
}
