/** `POST /fetch_api_key`: an API key for a password, with Zulip's limit on failed attempts (queries/login.ts). */
import type { Services } from '../services.js';
import { passwordLogin } from '../queries/login.js';
import * as schemas from '../../schemas/index.js';
import type { Request } from './route.js';

/** POST /fetch_api_key */
export async function fetchApiKey(services: Services, { params }: Request<typeof schemas.fetchApiKey>) {
  const user = await passwordLogin(services, params.username, params.password);
  return { api_key: user.apiKey, email: user.deliveryEmail, user_id: user.id };
}
