/** `GET /messages` (a range of a narrow around an anchor) and `GET /messages/{message_id}`. */
import type { Services } from '../services.js';
import type { MessageFormat } from '../queries/message-format.js';
import { formatMessage } from '../queries/message-format.js';
import { requireMessage } from '../queries/message-access.js';
import { fetchByIds, fetchRange } from '../queries/message-fetch.js';
import * as schemas from '../../schemas/index.js';
import { me, type Params, type Request } from './route.js';

/** GET /messages */
export function getMessages(services: Services, request: Request<typeof schemas.getMessages>) {
  const viewer = me(request);
  const p = request.params;
  if (p.message_ids !== undefined) return fetchByIds(services, viewer, p.message_ids, formatOf(p));
  return fetchRange(services, viewer, p, formatOf(p));
}

/** GET /messages/{message_id:int} */
export function getMessage(services: Services, request: Request<typeof schemas.getMessage, { message_id: number }>) {
  const viewer = me(request);
  const { record, flags } = requireMessage(services, viewer, request.params.message_id);
  return {
    raw_content: record.content,
    message: formatMessage(services, record, viewer.id, flags, formatOf(request.params)),
  };
}

/** The formatting options shared by `GET /messages` and `GET /messages/{message_id}`. */
function formatOf(params: Params<typeof schemas.getMessage>): MessageFormat {
  return { applyMarkdown: params.apply_markdown, clientGravatar: params.client_gravatar, allowEmptyTopicName: params.allow_empty_topic_name };
}
