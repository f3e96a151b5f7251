/** The body limit of `POST /user_uploads`: the organization's file size limit, refused with Zulip's error before the body is read. */
import { badRequest } from '../domain/errors.js';
import { fileTooLargeMessage, maxUploadMib } from '../domain/uploads.js';
import type { BodyLimit } from '../http/front.js';
import type { Services } from '../services.js';

/** Room for the multipart envelope around the file (boundaries, part headers). */
const ENVELOPE_BYTES = 64 * 1024;

export function uploadBodyLimit(services: Services): BodyLimit {
  const mib = maxUploadMib(services.org.realm);
  return { bytes: mib * 1024 * 1024 + ENVELOPE_BYTES, refusal: badRequest(fileTooLargeMessage(mib)) };
}
