/** Alert words: `GET`, `POST` and `DELETE /users/me/alert_words`. */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { addAlertWords as add, removeAlertWords as remove } from '../actions/alert-words.js';
import { me, type Request } from './route.js';

/** GET /users/me/alert_words */
export function getAlertWords(_services: Services, request: Request<typeof schemas.getAlertWords>) {
  return { alert_words: [...(me(request).alertWords ?? [])] };
}

/** POST /users/me/alert_words */
export async function addAlertWords(services: Services, request: Request<typeof schemas.addAlertWords>) {
  return { alert_words: await add(services, me(request), request.params.alert_words) };
}

/** DELETE /users/me/alert_words */
export async function removeAlertWords(services: Services, request: Request<typeof schemas.removeAlertWords>) {
  return { alert_words: await remove(services, me(request), request.params.alert_words) };
}
