/** `POST /messages/render` and `GET /messages/matches_narrow`: reads that help a client with its messages. */
import type { Services } from '../services.js';
import { matchesNarrow, renderPreview } from '../queries/message-tools.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';

/** POST /messages/render */
export function renderMessage(services: Services, request: Request<typeof schemas.renderMessage>) {
  return { rendered: renderPreview(services, me(request), request.params.content) };
}

/** GET /messages/matches_narrow */
export function checkMessagesMatchNarrow(services: Services, request: Request<typeof schemas.checkMessagesMatchNarrow>) {
  return { messages: matchesNarrow(services, me(request), request.params.msg_ids, request.params.narrow) };
}
