/** What a person does to messages: send (with local echo), edit, delete, react, star, typing notices. */
import type { Message } from '../state/types.js';
import type { App } from './app.js';
import type { EmojiChoice } from './emoji.js';

export type Destination = { type: 'channel'; streamId: number; topic: string } | { type: 'dm'; userIds: number[] };

function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Sends; the message shows at once as a local echo, replaced by the server's when its event arrives. */
export async function sendMessage(app: App, to: Destination, content: string): Promise<void> {
  const self = app.user(app.selfId);
  const echo = app.messages.addEcho({
    sender_id: app.selfId,
    sender_full_name: self?.full_name ?? app.credentials.email,
    sender_email: app.credentials.email,
    avatar_url: self?.avatar_url,
    content: `<p>${escapeText(content).replace(/\n/g, '<br>')}</p>`,
    timestamp: Math.floor(Date.now() / 1000),
    type: to.type === 'channel' ? 'stream' : 'private',
    stream_id: to.type === 'channel' ? to.streamId : undefined,
    subject: to.type === 'channel' ? to.topic : '',
    display_recipient: to.type === 'channel' ? app.channelName(to.streamId) : [...to.userIds, app.selfId].map((id) => ({ id, email: app.user(id)?.email ?? '', full_name: app.userName(id) })),
  });
  app.changed();
  const params =
    to.type === 'channel'
      ? { type: 'stream', to: to.streamId, topic: to.topic, content }
      : { type: 'direct', to: JSON.stringify(to.userIds), content };
  try {
    const answer = await app.api.post<{ id: number }>('/messages', { ...params, queue_id: app.queue.queueId || undefined, local_id: app.queue.queueId ? echo.local_id : undefined });
    app.messages.confirmEcho(echo.local_id!, answer.id);
  } catch (error) {
    app.messages.failEcho(echo.local_id!);
    app.fail(error);
  }
  app.changed();
}

export async function editMessage(app: App, id: number, content: string): Promise<void> {
  try {
    await app.api.patch(`/messages/${id}`, { content });
  } catch (error) {
    app.fail(error);
  }
}

export async function moveTopic(app: App, id: number, topic: string, streamId?: number): Promise<void> {
  try {
    await app.api.patch(`/messages/${id}`, { topic, propagate_mode: 'change_all', ...(streamId ? { stream_id: streamId } : {}) });
  } catch (error) {
    app.fail(error);
  }
}

export async function deleteMessage(app: App, id: number): Promise<void> {
  try {
    await app.api.del(`/messages/${id}`);
  } catch (error) {
    app.fail(error);
  }
}

export async function toggleReaction(app: App, message: Message, emoji: EmojiChoice): Promise<void> {
  const mine = message.reactions.some((r) => r.user_id === app.selfId && r.emoji_code === emoji.code);
  const params = { emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.type };
  try {
    if (mine) await app.api.del(`/messages/${message.id}/reactions`, params);
    else await app.api.post(`/messages/${message.id}/reactions`, params);
  } catch (error) {
    app.fail(error);
  }
}

export async function toggleStar(app: App, message: Message): Promise<void> {
  const op = message.flags.includes('starred') ? 'remove' : 'add';
  try {
    await app.api.post('/messages/flags', { messages: [message.id], op, flag: 'starred' });
  } catch (error) {
    app.fail(error);
  }
}

/** `start` while typing (at most every 10 s, as Zulip's), `stop` when sent or abandoned. */
export function typingNotice(app: App, to: Destination, op: 'start' | 'stop'): void {
  const params = to.type === 'channel' ? { type: 'stream', stream_id: to.streamId, topic: to.topic } : { type: 'direct', to: JSON.stringify(to.userIds) };
  app.api.post('/typing', { ...params, op }).catch(() => {});
}

/** A message's Markdown source (for edit and quote). */
export async function rawContent(app: App, id: number): Promise<string> {
  const answer = await app.api.get<{ raw_content?: string; message?: { content: string } }>(`/messages/${id}`, { apply_markdown: false });
  return answer.raw_content ?? answer.message?.content ?? '';
}

/** Schedules a message; the notice to show, or undefined when it failed (the error is reported). */
export async function scheduleMessage(app: App, to: Destination, content: string, at: Date): Promise<string | undefined> {
  const when = Math.floor(at.getTime() / 1000);
  const params = to.type === 'channel' ? { type: 'stream', to: to.streamId, topic: to.topic } : { type: 'direct', to: JSON.stringify(to.userIds) };
  try {
    await app.api.post('/scheduled_messages', { ...params, content, scheduled_delivery_timestamp: when });
    return `Scheduled for ${at.toLocaleString()}`;
  } catch (error) {
    app.fail(error);
    return undefined;
  }
}

/** Mutes, unmutes, follows or resets a topic for oneself (`POST /user_topics`); the `user_topic` event updates the views. */
export async function setTopicVisibility(app: App, streamId: number, topic: string, policy: number): Promise<void> {
  try {
    await app.api.post('/user_topics', { stream_id: streamId, topic, visibility_policy: policy });
  } catch (error) {
    app.fail(error);
  }
}
