/**
 * Reading uploaded files: who may, what is sent (type, disposition, byte ranges), the
 * short-lived URLs for clients that cannot send credentials, thumbnails, and the owner's list.
 */
import { ApiError, badRequest } from '../domain/errors.js';
import {
  attachmentObject, bareContentType, contentDisposition, formatsFor, INLINE_MIME_TYPES, mayReadAttachment, parseFormatName, parseRange,
  type AttachmentRecord,
} from '../domain/uploads.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { unixSeconds } from '../services.js';
import { RawAnswer } from '../shared/handler-result.js';
import type { FileStore } from '../store/files.js';
import { TEMPORARY_URL_SECONDS } from '../store/temporary-access.js';
import { accessMessage } from './message-access.js';

/** Whether a user may read an uploaded file: its owner, or anyone who may read a message linking it. */
export function mayReadUpload(services: Services, user: UserRecord, attachment: AttachmentRecord): boolean {
  return mayReadAttachment(user.id, attachment, (messageId) => {
    const record = services.messages.get(messageId);
    return record !== undefined && accessMessage(services, user, record) !== undefined;
  });
}

/** The attachment object with its messages' dates, as events and GET /attachments give it. */
export function attachmentFields(services: Services, record: AttachmentRecord): Record<string, unknown> {
  return attachmentObject(record, (id) => services.messages.get(id)?.timestamp);
}

/** Outside /api/v1 the answers are pages, as Zulip's; inside, the JSON envelope. */
export type Surface = 'page' | 'api';

const NOT_FOUND_TEXT = 'File not found.';
const FORBIDDEN_TEXT = 'You are not authorized to view this file.';

function refusal(surface: Surface, status: 403 | 404): RawAnswer {
  const text = status === 404 ? NOT_FOUND_TEXT : FORBIDDEN_TEXT;
  if (surface === 'api') throw new ApiError('BAD_REQUEST', text, status);
  return new RawAnswer(status, { 'Content-Type': 'text/html; charset=utf-8' }, `<p>${text}</p>`);
}

/** The attachment at `/user_uploads/{realm_id_str}/{filename}` that `user` may read, or the refusal. */
function readableAttachment(services: Services, user: UserRecord, realmIdStr: string, filename: string, surface: Surface): AttachmentRecord | RawAnswer {
  const record = realmIdStr === String(services.org.id) ? services.attachments.byPathId(`${realmIdStr}/${filename}`) : undefined;
  if (!record) return refusal(surface, 404);
  if (!mayReadUpload(services, user, record)) return refusal(surface, 403);
  return record;
}

/** A stored file as an answer: the whole file, one range of it (206), or 416 for a range past its end. */
async function fileAnswer(files: FileStore, path: string, size: number, headers: Record<string, string>, rangeHeader: string): Promise<RawAnswer> {
  const range = parseRange(rangeHeader, size);
  const common = { 'Accept-Ranges': 'bytes', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'private, immutable', ...headers };
  if (range === 'unsatisfiable') return new RawAnswer(416, { ...common, 'Content-Range': `bytes */${size}` }, '');
  const data = await files.read(path, range);
  if (!data) return refusal('page', 404);
  if (!range) return new RawAnswer(200, common, data);
  return new RawAnswer(206, { ...common, 'Content-Range': `bytes ${range.start}-${range.start + data.length - 1}/${size}` }, data);
}

function serveRecord(services: Services, record: AttachmentRecord, rangeHeader: string): Promise<RawAnswer> {
  const inline = INLINE_MIME_TYPES.has(bareContentType(record.contentType));
  const served = record.pathId.slice(record.pathId.lastIndexOf('/') + 1);
  return fileAnswer(services.files, services.files.blobPath(record.sha256), record.size, {
    'Content-Type': record.contentType,
    'Content-Disposition': contentDisposition(served, inline),
  }, rangeHeader);
}

/** GET /user_uploads/{realm_id_str}/{filename} (outside /api/v1): the file, to its owner or a reader of a message linking it. */
export async function serveUpload(services: Services, user: UserRecord, realmIdStr: string, filename: string, rangeHeader: string): Promise<RawAnswer> {
  const found = readableAttachment(services, user, realmIdStr, filename, 'page');
  if (found instanceof RawAnswer) return found;
  return serveRecord(services, found, rangeHeader);
}

/** GET /api/v1/user_uploads/{realm_id_str}/{filename}: a URL that serves the file for a minute without credentials. */
export function temporaryUploadUrl(services: Services, user: UserRecord, realmIdStr: string, filename: string): { url: string } {
  const found = readableAttachment(services, user, realmIdStr, filename, 'api') as AttachmentRecord;
  const token = services.temporaryAccess.sign(found.pathId, unixSeconds(services.clock) + TEMPORARY_URL_SECONDS);
  const name = found.pathId.slice(found.pathId.lastIndexOf('/') + 1);
  return { url: `/user_uploads/temporary/${token}/${encodeURIComponent(name)}` };
}

/** GET /user_uploads/temporary/{token}/{filename}: Zulip's serve_local_file_unauthed. */
export function serveTemporary(services: Services, token: string, filename: string, rangeHeader: string): Promise<RawAnswer> {
  const pathId = services.temporaryAccess.verify(token, unixSeconds(services.clock));
  if (pathId === undefined) throw badRequest('Invalid token');
  if (pathId.slice(pathId.lastIndexOf('/') + 1) !== filename) throw badRequest('Invalid filename');
  const record = services.attachments.byPathId(pathId);
  if (!record) return Promise.resolve(refusal('page', 404));
  return serveRecord(services, record, rangeHeader);
}

/** GET /user_uploads/thumbnail/{realm_id_str}/{path_id…}/{format}: an image's thumbnail, to whoever may read the image. */
export async function serveThumbnail(services: Services, user: UserRecord, realmIdStr: string, rest: string, rangeHeader: string): Promise<RawAnswer> {
  const slash = rest.lastIndexOf('/');
  const format = slash < 0 ? undefined : parseFormatName(rest.slice(slash + 1));
  const found = readableAttachment(services, user, realmIdStr, slash < 0 ? rest : rest.slice(0, slash), 'page');
  if (found instanceof RawAnswer) return found;
  const image = found.image;
  if (!format || !image || !formatsFor(image).some((f) => f.animated === format.animated)) return refusal('page', 404);
  const name = rest.slice(slash + 1);
  // Made after the upload; one not made yet (or lost to a restart) is made now and waited for.
  if (!(await services.files.hasThumbnail(found.sha256, name))) await services.thumbnails.ensure(found.sha256, image);
  const path = services.files.thumbnailPath(found.sha256, name);
  const size = (await services.files.sizeOf(path)) ?? 0;
  return fileAnswer(services.files, path, size, { 'Content-Type': 'image/webp', 'Content-Disposition': 'inline' }, rangeHeader);
}

/** GET /attachments: the user's files, newest first, with the organization's space used. */
export function attachmentsOf(services: Services, user: UserRecord) {
  const attachments = services.attachments.ofOwner(user.id).sort((a, b) => b.id - a.id).map((record) => attachmentFields(services, record));
  return { attachments, upload_space_used: services.attachments.usedBytes };
}
