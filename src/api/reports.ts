/** `POST /messages/{message_id}/report`: the notification bot posts the report to the moderation request channel. */
import type { Services } from '../services.js';
import { me, type ApiRoute } from './route.js';
import { reportMessage } from '../actions/reports.js';

export function reportRoutes(services: Services): ApiRoute[] {
  return [
    {
      method: 'POST',
      path: '/messages/{message_id:int}/report',
      schema: 'report-message',
      auth: 'user',
      handler: async (request) => {
        const p = request.params;
        await reportMessage(services, me(request), { messageId: p.message_id, reportType: p.report_type, description: p.description });
        return {};
      },
    },
  ];
}
