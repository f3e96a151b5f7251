/** API keys: `POST /users/me/api_key/regenerate` (the old key stops working at once). */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import * as actions from '../actions/key-rotation.js';

/** POST /users/me/api_key/regenerate */
export async function regenerateApiKey(services: Services, request: Request<typeof schemas.regenerateApiKey>) {
  return { api_key: await actions.regenerateOwnApiKey(services, me(request)) };
}
