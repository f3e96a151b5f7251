/** Body limits of the routes that take files, refused with Zulip's error before the body is read. */
import { badRequest } from '../domain/errors.js';
import { fileTooLargeMessage, maxUploadMib } from '../domain/uploads.js';
import type { BodyLimit } from '../http/front.js';
import type { Services } from '../services.js';
import { MAX_EMOJI_FILE_SIZE_MIB } from '../domain/realm-emoji.js';

/** Room for the multipart envelope around the file (boundaries, part headers). */
const ENVELOPE_BYTES = 64 * 1024;

/** `POST /user_uploads`: the organization's file size limit. */
export function uploadBodyLimit(services: Services): BodyLimit {
  const mib = maxUploadMib(services.org.realm);
  return { bytes: mib * 1024 * 1024 + ENVELOPE_BYTES, refusal: badRequest(fileTooLargeMessage(mib)) };
}

/** The body limit of `POST /realm/emoji/{emoji_name}`: Zulip's MAX_EMOJI_FILE_SIZE_MIB. */
export function emojiBodyLimit(): BodyLimit {
  return { bytes: MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024 + ENVELOPE_BYTES, refusal: badRequest(fileTooLargeMessage(MAX_EMOJI_FILE_SIZE_MIB)) };
}
