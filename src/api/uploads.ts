/** Uploaded files: `POST /user_uploads`, the file and its short-lived URL, thumbnails, and `/attachments`. */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import * as actions from '../actions/uploads.js';
import * as queries from '../queries/uploads.js';

type FilePath = { realm_id_str: string; filename: string };

/** POST /user_uploads */
export function uploadFile(services: Services, request: Request<typeof schemas.uploadFile>) {
  return actions.uploadFile(services, me(request), request.files);
}

/** GET /user_uploads/{realm_id_str}/{filename:path} (under /api/v1: the JSON form) */
export function getFileTemporaryUrl(services: Services, request: Request<typeof schemas.userUploadPath, FilePath>) {
  return queries.temporaryUploadUrl(services, me(request), request.params.realm_id_str, request.params.filename);
}

/** GET /user_uploads/{realm_id_str}/{filename:path} (outside /api/v1) */
export function serveUpload(services: Services, request: Request<typeof schemas.userUploadPath, FilePath>) {
  return queries.serveUpload(services, me(request), request.params.realm_id_str, request.params.filename, request.range);
}

/** GET /user_uploads/temporary/{token}/{filename} (outside /api/v1, no credentials) */
export function serveTemporaryUpload(services: Services, request: Request<typeof schemas.userUploadPath, { token: string; filename: string }>) {
  return queries.serveTemporary(services, request.params.token, request.params.filename, request.range);
}

/** GET /user_uploads/thumbnail/{realm_id_str}/{rest:path} (outside /api/v1) */
export function serveThumbnail(services: Services, request: Request<typeof schemas.userUploadPath, { realm_id_str: string; rest: string }>) {
  return queries.serveThumbnail(services, me(request), request.params.realm_id_str, request.params.rest, request.range);
}

/** GET /attachments */
export function getAttachments(services: Services, request: Request<typeof schemas.getAttachments>) {
  return queries.attachmentsOf(services, me(request));
}

/** DELETE /attachments/{attachment_id:int} */
export async function removeAttachment(services: Services, request: Request<typeof schemas.removeAttachment, { attachment_id: number }>) {
  await actions.deleteAttachment(services, me(request), request.params.attachment_id);
  return {};
}
