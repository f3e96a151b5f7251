/**
 * Uploading and deleting files (Zulip's upload_file_backend and remove_attachment): the limits,
 * the bytes made durable before their record is written, the `attachment` events to the owner.
 */
import { fileWriteRefusal } from '../store/store-fault.js';
import { fileInUse } from '../queries/stored-files.js';
import { randomBytes, randomInt } from 'node:crypto';
import { ApiError, badRequest } from '../domain/errors.js';
import { attachmentFields } from '../queries/uploads.js';
import {
  fileTooLargeMessage, maxUploadMib, QUOTA_EXCEEDED_MESSAGE, sanitizeFileName, uploadContentType,
  uploadPathId, uploadQuotaBytes, UPLOADS_URL_PREFIX, withCharset, type AttachmentRecord,
} from '../domain/uploads.js';
import type { UserRecord } from '../domain/users.js';
import type { UploadedFile } from '../shared/uploaded-file.js';
import type { Services } from '../services.js';
import { readImageInfo } from '../store/thumbnails.js';
import type { Transaction } from '../store/transaction.js';

const MIB = 1024 * 1024;

function checkQuota(services: Services, size: number): void {
  const quota = uploadQuotaBytes(services.org.realm);
  if (quota !== null && services.attachments.usedBytes + size > quota) throw new ApiError('REALM_UPLOAD_QUOTA', QUOTA_EXCEEDED_MESSAGE);
}

/** Zulip's `unquote` of the part's file name; a name that is not valid percent-encoding stays as sent. */
function uploadedName(raw: string): string {
  let name = raw;
  try {
    name = decodeURIComponent(raw);
  } catch {
    // kept as sent
  }
  return name.replace(/\0/g, '');
}

/** Tells the owner about a change of one of their files. */
export function emitAttachment(services: Services, tx: Transaction, op: 'add' | 'update' | 'remove', record: AttachmentRecord): void {
  tx.emit({
    type: 'attachment',
    op,
    attachment: op === 'remove' ? { id: record.id } : attachmentFields(services, record),
    upload_space_used: services.attachments.usedBytes,
  }, [record.ownerId]);
}

/** POST /user_uploads: stores one file and answers its URL. */
export async function uploadFile(services: Services, user: UserRecord, files: readonly UploadedFile[]) {
  if (files.length === 0) throw badRequest('You must specify a file to upload');
  if (files.length !== 1) throw badRequest('You may only upload one file at a time');
  const file = files[0];
  const maxMib = maxUploadMib(services.org.realm);
  if (file.data.length > maxMib * MIB) throw badRequest(fileTooLargeMessage(maxMib));
  checkQuota(services, file.data.length);
  const name = uploadedName(file.filename);
  const contentType = withCharset(uploadContentType(file.contentType, name), file.data);
  const image = await readImageInfo(file.data, contentType);
  // The bytes are durable before the record naming them is written, and held until it is.
  // A full disk refuses the bytes as it refuses the record: 503, nothing changed.
  const held = await services.files.put(file.data).catch((error: unknown) => Promise.reject(fileWriteRefusal(error)));
  let record: AttachmentRecord;
  try {
    record = await services.write((tx) => {
      // Again, inside the write: other uploads may have been written since the first check.
      checkQuota(services, file.data.length);
      const org = services.org;
      const created: AttachmentRecord = {
        id: services.counters.nextRealmId(org.id, 'attachment', tx),
        pathId: uploadPathId(org.id, randomInt(256), randomBytes(18).toString('base64url'), sanitizeFileName(name)),
        name,
        size: file.data.length,
        sha256: held.sha,
        contentType,
        ownerId: user.id,
        createTime: services.clock.now(),
        messageIds: [],
        ...(image ? { image } : {}),
      };
      services.attachments.save(created, tx);
      emitAttachment(services, tx, 'add', created);
      return created;
    });
  } catch (error) {
    // Refused after all (the quota, rechecked): the bytes go unless something else names them.
    held.release();
    services.files.removeUnlessUsed(held.sha, (sha) => fileInUse(services, sha));
    throw error;
  }
  held.release();
  // Off the request path: the answer does not wait for thumbnails.
  if (record.image) void services.thumbnails.ensure(record.sha256, record.image);
  const url = UPLOADS_URL_PREFIX + record.pathId;
  return { uri: url, url, filename: record.name };
}

/** Removes an attachment's record; its bytes go once no record names them (after the write is durable). */
export function dropAttachment(services: Services, tx: Transaction, record: AttachmentRecord): void {
  services.attachments.delete(record.id, tx);
  emitAttachment(services, tx, 'remove', record);
  // Bytes may be shared: by another upload of the same file, or (rarely) by a custom emoji.
  tx.afterCommit.push(() => services.files.removeUnlessUsed(record.sha256, (sha) => fileInUse(services, sha)));
}

/** DELETE /attachments/{attachment_id}: only the owner may, and another's file is answered as unknown. */
export async function deleteAttachment(services: Services, user: UserRecord, attachmentId: number): Promise<void> {
  await services.write((tx) => {
    const record = services.attachments.get(attachmentId);
    if (!record || record.ownerId !== user.id) throw badRequest('Invalid attachment');
    dropAttachment(services, tx, record);
  });
}
