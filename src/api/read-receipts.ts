/** `GET /messages/{message_id}/read_receipts`: who has read a message. */
import { badRequest } from '../domain/errors.js';
import { realmSetting } from '../domain/realm.js';
import type { Services } from '../services.js';
import { requireMessage } from '../queries/message-access.js';
import { readReceipts } from '../queries/read-receipts.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';

/** GET /messages/{message_id:int}/read_receipts */
export function getReadReceipts(services: Services, request: Request<typeof schemas.getReadReceipts, { message_id: number }>) {
  const viewer = me(request);
  // Zulip checks access first: an inaccessible message says so whatever the setting.
  const { record } = requireMessage(services, viewer, request.params.message_id);
  if (!realmSetting(services.org.realm, 'enable_read_receipts')) throw badRequest('Read receipts are disabled in this organization.');
  return { user_ids: readReceipts(services, viewer, record) };
}
