/** `POST /messages`: reading the addressing rules of Zulip's send, checking permissions, then writing. */
import { settingIncludes } from '../domain/groups.js';
import type { ChannelRecord } from '../domain/channel-record.js';
import { ApiError, badRequest, missingArgument } from '../domain/errors.js';
import { EMPTY_TOPIC_DISPLAY_NAME, realmGroupSetting, realmSetting } from '../domain/realm.js';
import { isGuest } from '../domain/roles.js';
import { normalizeContent, normalizeTopic, topicKey } from '../domain/topics.js';
import type { UserRecord } from '../domain/users.js';
import { LIMITS } from '../domain/versions.js';
import type { Services } from '../services.js';
import { Transaction } from '../store/transaction.js';
import { writeMessage, type Destination } from './message-write.js';
import { me, type ApiRoute } from './route.js';

/** Channels with more subscribers (topics with more participants) restrict wildcard mentions. */
export const WILDCARD_MENTION_THRESHOLD = 15;

/** Clients used by people (not scripts): their own messages start read. */
const HUMAN_CLIENTS = new Set(['zulipandroid', 'zulipios', 'zulipdesktop', 'zulipmobile', 'zulipelectron', 'zulipterminal', 'snipe', 'website', 'ios', 'android']);

export function defaultReadBySender(client: string): boolean {
  const name = client.toLowerCase();
  return HUMAN_CLIENTS.has(name) || name.includes('desktop app');
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

/** Finds the channel `to` names (a name, an id, or a one-element JSON list of either). */
export function channelFromTo(services: Services, to: unknown): ChannelRecord {
  let target = to;
  if (target === undefined || target === '' || (Array.isArray(target) && target.length === 0)) throw badRequest('Missing channel');
  if (Array.isArray(target)) {
    if (target.length !== 1) throw badRequest('Expected exactly one channel');
    target = target[0];
  }
  if (typeof target === 'number' && Number.isInteger(target)) {
    const channel = services.org.channels.get(target);
    if (!channel) throw new ApiError('STREAM_DOES_NOT_EXIST', `Channel with ID '${target}' does not exist`, 400, { stream_id: target });
    return channel;
  }
  if (typeof target !== 'string') throw badRequest('Invalid data type for channel');
  const name = target.trim();
  const channel = services.org.channels.byName(name);
  if (!channel) throw new ApiError('STREAM_DOES_NOT_EXIST', `Channel '${escapeHtml(name)}' does not exist`, 400, { stream: escapeHtml(name) });
  return channel;
}

/** Finds the users `to` names: a list of ids, a list of emails, or emails separated by commas. */
export function usersFromTo(services: Services, to: unknown): UserRecord[] {
  let data = to;
  if (data === undefined) data = [];
  if (typeof data === 'string') data = data.split(',');
  if (!Array.isArray(data)) throw badRequest('Invalid data type for recipients');
  const { users } = services.org;
  if (data.length === 0) return [];
  if (typeof data[0] === 'string') {
    if (!data.every((item) => typeof item === 'string')) throw badRequest('Recipient lists may contain emails or user IDs, but not both.');
    const emails = [...new Set((data as string[]).map((e) => e.trim()).filter(Boolean))];
    return emails.map((email) => {
      const user = users.byEmail(email);
      if (!user) throw badRequest(`Invalid email '${email}'`);
      return user;
    });
  }
  if (typeof data[0] === 'number') {
    if (!data.every((item) => typeof item === 'number' && Number.isInteger(item))) throw badRequest('Recipient lists may contain emails or user IDs, but not both.');
    return [...new Set(data as number[])].map((id) => {
      const user = users.get(id);
      if (!user) throw badRequest(`Invalid user ID ${id}`);
      return user;
    });
  }
  throw badRequest('Invalid data type for recipients');
}

/** Zulip's access_stream_for_send_message. */
export function checkMaySendToChannel(services: Services, sender: UserRecord, channel: ChannelRecord): void {
  const { org, subscriptions } = services;
  const sendGroup = channel.settings.can_send_message_group;
  if (sendGroup !== undefined && !settingIncludes(sender.id, sendGroup, org.groups)) {
    const owner = sender.botOwnerId === null ? undefined : sender.botOwnerId;
    if (owner === undefined || !settingIncludes(owner, sendGroup, org.groups)) throw badRequest('You do not have permission to post in this channel.');
  }
  const refused = () => badRequest(`Not authorized to send to channel '${channel.name}'`);
  if (channel.isArchived) throw refused();
  if (sender.isSystemBot) return;
  if (channel.isWebPublic) return;
  if (!channel.inviteOnly && !isGuest(sender.role)) return;
  if (subscriptions.isSubscribed(sender.id, channel.id)) return;
  if (sender.botOwnerId !== null && subscriptions.isSubscribed(sender.botOwnerId, channel.id)) return;
  throw refused();
}

export interface SendRequest {
  type: string;
  to: unknown;
  content: string;
  topic?: string;
  queueId?: string;
  localId?: string;
  readBySender?: boolean;
}

/** Validates and writes a message from `sender`; resolves once it is durable. */
export async function sendMessage(services: Services, sender: UserRecord, client: string, request: SendRequest) {
  const { org } = services;
  const content = normalizeContent(request.content, LIMITS.maxMessageLength);
  let destination: Destination;
  const rendered = services.render(content);
  const mayMentionMany = () => settingIncludes(sender.id, realmGroupSetting(org.realm, 'can_mention_many_users_group'), org.groups);
  if (request.type === 'stream' || request.type === 'channel') {
    const channel = channelFromTo(services, request.to);
    if (request.topic === undefined) throw badRequest('Missing topic');
    const topic = normalizeTopic(request.topic, { maxLength: LIMITS.maxTopicLength, emptyTopicDisplayName: EMPTY_TOPIC_DISPLAY_NAME });
    if (topic === '' && (realmSetting(org.realm, 'mandatory_topics') || channel.topicsPolicy === 'disable_empty_topic')) {
      throw new ApiError('BAD_REQUEST', `Sending messages to the ${EMPTY_TOPIC_DISPLAY_NAME} is not allowed in this channel.`, 400, {
        empty_topic_display_name: EMPTY_TOPIC_DISPLAY_NAME,
      });
    }
    checkMaySendToChannel(services, sender, channel);
    if (rendered.streamWildcard && services.subscriptions.subscribersOf(channel.id).size > WILDCARD_MENTION_THRESHOLD && !mayMentionMany()) {
      throw new ApiError('STREAM_WILDCARD_MENTION_NOT_ALLOWED', 'You do not have permission to use channel wildcard mentions in this channel.');
    }
    if (rendered.topicWildcard) {
      const participants = new Set(services.messages.topic(channel.id, topicKey(topic))?.participants ?? []);
      participants.add(sender.id);
      if (participants.size > WILDCARD_MENTION_THRESHOLD && !mayMentionMany()) {
        throw new ApiError('TOPIC_WILDCARD_MENTION_NOT_ALLOWED', 'You do not have permission to use topic wildcard mentions in this topic.');
      }
    }
    destination = { type: 'stream', channel, topic };
  } else {
    const recipients = usersFromTo(services, request.to);
    if (recipients.length === 0) throw badRequest('Message must have recipients');
    for (const user of recipients) {
      if (!user.isActive) throw badRequest(`'${user.deliveryEmail}' is no longer using Zulip.`);
    }
    const participants = recipients.some((u) => u.id === sender.id) ? recipients : [...recipients, sender];
    destination = { type: 'private', participants };
  }
  const tx = new Transaction();
  const written = writeMessage(services, tx, {
    sender,
    client,
    readBySender: request.readBySender ?? defaultReadBySender(client),
    content,
    rendered,
    destination,
    queueId: request.queueId,
    localId: request.localId,
  });
  await services.commit(tx);
  const response: Record<string, unknown> = { id: written.record.id };
  if (written.automaticNewVisibilityPolicy !== undefined) response.automatic_new_visibility_policy = written.automaticNewVisibilityPolicy;
  return response;
}

/** `topic`, or its legacy name `subject`; both at once is Zulip's REQUEST_CONFUSING_VAR. */
export function topicParameter(params: { topic?: string; subject?: string }): string | undefined {
  if (params.topic !== undefined && params.subject !== undefined) {
    throw new ApiError('REQUEST_CONFUSING_VAR', "Can't decide between 'topic' and 'subject' arguments", 400, { var_name1: 'topic', var_name2: 'subject' });
  }
  return params.topic ?? params.subject;
}

export function sendRoutes(services: Services): ApiRoute[] {
  return [
    {
      method: 'POST',
      path: '/messages',
      schema: 'send-message',
      auth: 'user',
      handler: (request) => {
        const p = request.params;
        // Local echo needs both: the queue to echo to and the id the client will recognise.
        if (p.queue_id !== undefined && p.local_id === undefined) throw missingArgument('local_id');
        return sendMessage(services, me(request), request.client, {
          type: p.type,
          to: p.to,
          content: p.content,
          topic: topicParameter(p),
          queueId: p.queue_id,
          localId: p.local_id,
          readBySender: p.read_by_sender,
        });
      },
    },
  ];
}
