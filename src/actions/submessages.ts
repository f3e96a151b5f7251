/**
 * Submessages (Zulip's POST /submessage): a vote, a new poll option, a task ticked, added to a
 * widget message by someone who may read it. The message's sender attaches the first one; poll
 * and todo data are checked as Zulip checks them. Everyone who has the message is told
 * (`submessage`), and the sender's topic follows their settings for taking part.
 */
import { badRequest } from '../domain/errors.js';
import { topicKey } from '../domain/topics.js';
import type { UserRecord } from '../domain/users.js';
import { checkWidgetEvent, widgetTypeOf } from '../domain/widgets.js';
import { messageAudience } from '../queries/message-audience.js';
import { requireMessage } from '../queries/message-access.js';
import type { Services } from '../services.js';
import { participationPolicy } from '../domain/topic-follow.js';
import { setTopicPolicy } from './user-topics.js';

export interface SubmessageRequest {
  messageId: number;
  msgType: string;
  content: string;
}

export function addSubmessage(services: Services, user: UserRecord, request: SubmessageRequest): Promise<void> {
  return services.write((tx) => {
    const { record } = requireMessage(services, user, request.messageId);
    const submessages = record.submessages ?? [];
    // Collaboration among readers, but the first submessage is the sender's (Zulip's verify_submessage_sender).
    if (record.senderId !== user.id && !submessages.some((s) => s.senderId === record.senderId)) {
      throw badRequest('You cannot attach a submessage to this message.');
    }
    let data: unknown;
    try {
      data = JSON.parse(request.content);
    } catch {
      throw badRequest('Invalid json for submessage');
    }
    checkWidgetEvent(widgetTypeOf(submessages), data, record.senderId === user.id);
    const id = services.counters.nextRealmId(services.org.id, 'submessage', tx);
    const updated = { ...record, submessages: [...submessages, { id, senderId: user.id, msgType: request.msgType, content: request.content }] };
    services.messages.save(updated, tx);
    if (record.type === 'stream') {
      const subscription = services.subscriptions.subscription(user.id, record.channelId!);
      const policy = participationPolicy(user, {
        current: services.subscriptions.topicPolicy(user.id, record.channelId!, topicKey(record.topic!)),
        subscribed: subscription !== undefined,
        channelMuted: subscription?.isMuted ?? false,
      });
      if (policy !== undefined) setTopicPolicy(services, tx, user.id, record.channelId!, record.topic!, policy);
    }
    tx.emit(
      { type: 'submessage', msg_type: request.msgType, message_id: record.id, submessage_id: id, sender_id: user.id, content: request.content },
      messageAudience(services, updated),
    );
  });
}
