/** `POST /users/me/presence`: report one's presence, read everyone's. */
import { badRequest } from '../domain/errors.js';
import type { Services } from '../services.js';
import { reportPresence } from '../actions/presence.js';
import { presencesField } from '../queries/presence.js';
import { RawJson } from '../shared/handler-result.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';

/** POST /users/me/presence */
export async function updatePresence(services: Services, request: Request<typeof schemas.updatePresence>) {
  const user = me(request);
  const p = request.params;
  if (user.isBot) throw badRequest('This endpoint does not accept bot requests.');
  if (p.status !== 'active' && p.status !== 'idle') throw badRequest(`Invalid status: ${p.status}`);
  const now = services.clock.now() / 1000;
  await reportPresence(services, user, p.status === 'active', now);
  if (p.ping_only) return {};
  const slim = p.slim_presence || p.last_update_id !== undefined;
  const since = p.last_update_id !== undefined && p.last_update_id > 0 ? p.last_update_id : -1;
  // Encoded pieces: a report reads everyone who reported since the one before (see presencesField).
  const fields = `"server_timestamp":${JSON.stringify(now)},"presence_last_update_id":${services.presence.newestUpdateId}`;
  return new RawJson(fields, undefined, [presencesField(services, slim, Math.floor(now), since)]);
}
