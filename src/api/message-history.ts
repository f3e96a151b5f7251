/** `GET /messages/{message_id}/history`: every version of a message, oldest first, with HTML diffs. */
import { badRequest } from '../domain/errors.js';
import { htmlDiff } from '../domain/html-diff.js';
import { EMPTY_TOPIC_DISPLAY_NAME, realmSetting } from '../domain/realm.js';
import { displayTopic } from '../domain/topics.js';
import type { MessageRecord } from '../domain/messages.js';
import type { Services } from '../services.js';
import { requireMessage } from '../queries/message-access.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';

/**
 * Snapshots of a message, oldest first. The stored history is newest first and keeps what was
 * there before each edit, so the walk goes back from the current state.
 */
export function messageHistory(record: MessageRecord, allowEmptyTopicName: boolean): Record<string, unknown>[] {
  const topic = (value: string | undefined) => displayTopic(value ?? '', allowEmptyTopicName, EMPTY_TOPIC_DISPLAY_NAME);
  const snapshots: Record<string, unknown>[] = [];
  let content = record.content;
  let rendered = record.renderedContent;
  let currentTopic = record.topic ?? '';
  for (const entry of record.editHistory) {
    const snapshot: Record<string, unknown> = {
      topic: topic(currentTopic),
      content,
      rendered_content: rendered,
      timestamp: entry.timestamp,
      user_id: entry.userId,
    };
    if (entry.prevTopic !== undefined) {
      snapshot.prev_topic = topic(entry.prevTopic);
      currentTopic = entry.prevTopic;
    }
    if (entry.prevStream !== undefined) {
      snapshot.stream = entry.stream;
      snapshot.prev_stream = entry.prevStream;
    }
    if (entry.prevContent !== undefined) {
      snapshot.prev_content = entry.prevContent;
      snapshot.prev_rendered_content = entry.prevRenderedContent;
      snapshot.content_html_diff = htmlDiff(entry.prevRenderedContent ?? '', rendered);
      content = entry.prevContent;
      rendered = entry.prevRenderedContent ?? '';
    }
    snapshots.push(snapshot);
  }
  snapshots.push({ topic: topic(currentTopic), content, rendered_content: rendered, timestamp: record.timestamp, user_id: record.senderId });
  return snapshots.reverse();
}

/** GET /messages/{message_id:int}/history */
export function getMessageHistory(services: Services, request: Request<typeof schemas.getMessageHistory, { message_id: number }>) {
  if (!realmSetting(services.org.realm, 'allow_edit_history')) throw badRequest('Message edit history is disabled in this organization');
  const { record } = requireMessage(services, me(request), request.params.message_id);
  return { message_history: messageHistory(record, request.params.allow_empty_topic_name) };
}
