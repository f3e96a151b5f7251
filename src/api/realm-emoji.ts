/** Custom emoji: `POST`, `GET` and `DELETE /realm/emoji`, and their images. */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import * as actions from '../actions/realm-emoji.js';
import * as queries from '../queries/realm-emoji.js';

/** POST /realm/emoji/{emoji_name} */
export async function uploadCustomEmoji(services: Services, request: Request<typeof schemas.uploadCustomEmoji, { emoji_name: string }>) {
  await actions.addRealmEmoji(services, me(request), request.params.emoji_name, request.files);
  return {};
}

/** GET /realm/emoji */
export function getCustomEmoji(services: Services, _request: Request<typeof schemas.getCustomEmoji>) {
  return { emoji: queries.realmEmojiState(services) };
}

/** DELETE /realm/emoji/{emoji_name} */
export async function deactivateCustomEmoji(services: Services, request: Request<typeof schemas.deactivateCustomEmoji, { emoji_name: string }>) {
  await actions.deactivateRealmEmoji(services, me(request), request.params.emoji_name);
  return {};
}

/** GET /user_avatars/{realm_id_str}/emoji/images/{file} (outside /api/v1, no credentials) */
export function serveEmojiImage(services: Services, request: Request<typeof schemas.getCustomEmoji, { realm_id_str: string; file: string }>) {
  return queries.serveEmojiImage(services, request.params.realm_id_str, request.params.file, false);
}

/** GET /user_avatars/{realm_id_str}/emoji/images/still/{file} (outside /api/v1, no credentials) */
export function serveStillEmojiImage(services: Services, request: Request<typeof schemas.getCustomEmoji, { realm_id_str: string; file: string }>) {
  return queries.serveEmojiImage(services, request.params.realm_id_str, request.params.file, true);
}
