/** Personal settings: `PATCH /settings`. */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { updateSettings as update } from '../actions/settings.js';
import { me, type Request } from './route.js';

/** PATCH /settings */
export function updateSettings(services: Services, request: Request<typeof schemas.updateSettings>) {
  const { full_name, email, old_password, new_password, ...settings } = request.params;
  return update(services, me(request), { full_name, email, old_password, new_password }, settings);
}
