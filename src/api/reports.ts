/** `POST /messages/{message_id}/report`: the notification bot posts the report to the moderation request channel. */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import * as actions from '../actions/reports.js';

/** POST /messages/{message_id:int}/report */
export async function reportMessage(services: Services, request: Request<typeof schemas.reportMessage, { message_id: number }>) {
  const p = request.params;
  await actions.reportMessage(services, me(request), { messageId: p.message_id, reportType: p.report_type, description: p.description });
  return {};
}
