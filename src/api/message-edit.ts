/**
 * `PATCH /messages/{message_id}`: content edits by the sender, topic edits and moves between
 * channels (one message, later ones, or the whole topic), with Zulip's permissions and time
 * limits, the stored edit history, and the `update_message` event.
 */
import type { Services } from '../services.js';
import { topicParameter } from '../domain/topics.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import { editMessage } from '../actions/message-edit.js';

/** PATCH /messages/{message_id:int} */
export function updateMessage(services: Services, request: Request<typeof schemas.updateMessage, { message_id: number }>) {
  const p = request.params;
  return editMessage(services, me(request), p.message_id, {
    content: p.content,
    topic: topicParameter(p),
    streamId: p.stream_id,
    propagateMode: p.propagate_mode,
    notifyOldThread: p.send_notification_to_old_thread,
    notifyNewThread: p.send_notification_to_new_thread,
    prevContentSha256: p.prev_content_sha256,
  });
}
