/** Bots: `GET`/`POST /bots`, `PATCH`/`DELETE /bots/{bot_id}`, `POST /bots/{bot_id}/api_key/regenerate` (reactivation is `POST /users/{id}/reactivate`). */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import * as actions from '../actions/bots.js';
import { changeBot } from '../actions/bot-changes.js';

/** GET /bots */
export function getBots(services: Services, request: Request<typeof schemas.getBots>) {
  return { bots: actions.ownBots(services, me(request)) };
}

/** POST /bots */
export function createBot(services: Services, request: Request<typeof schemas.createBot>) {
  return actions.createBot(services, me(request), request.params);
}

/** PATCH /bots/{bot_id} */
export function updateBot(services: Services, request: Request<typeof schemas.updateBot, { bot_id: number }>) {
  return changeBot(services, me(request), request.params.bot_id, request.params);
}

/** POST /bots/{bot_id}/api_key/regenerate */
export async function regenerateBotApiKey(services: Services, request: Request<typeof schemas.botId, { bot_id: number }>) {
  return { api_key: await actions.regenerateBotKey(services, me(request), request.params.bot_id) };
}

/** DELETE /bots/{bot_id} */
export function deactivateBot(services: Services, request: Request<typeof schemas.botId, { bot_id: number }>) {
  return actions.deactivateBot(services, me(request), request.params.bot_id);
}
