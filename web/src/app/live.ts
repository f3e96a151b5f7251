/** One server event applied to the client's state (messages, unread counts, users, subscriptions, typing, presence). */
import type { MessageUpdate } from '../state/messages.js';
import type { Message, Reaction, ServerEvent, Subscription, User } from '../state/types.js';
import { dmKey } from '../state/types.js';
import type { App } from './app.js';
import { applyDraftsEvent, applyScheduledEvent } from '../state/drafts.js';

const TYPING_MS = 15_000;

/** Applies an event; false when it changed nothing (then nothing re-renders for it). */
export function applyEvent(app: App, event: ServerEvent): boolean {
  apply(app, event);
  return event.type !== 'update_message_flags' || flags(app, event);
}

function apply(app: App, event: ServerEvent): void {
  switch (event.type) {
    case 'message': {
      const message = event.message as Message;
      const flags = (event.flags as string[] | undefined) ?? message.flags ?? [];
      app.messages.addLive(message, flags, event.local_message_id as string | undefined);
      app.unread.add(message, flags);
      app.typing = app.typing.filter((t) => t.userId !== message.sender_id);
      if (message.type === 'stream') bumpTopic(app, message.stream_id!, message.subject, message.id);
      app.onMessage?.(message, flags);
      return;
    }
    case 'update_message': {
      const update = event as unknown as MessageUpdate & { stream_id?: number };
      app.messages.update(update);
      if (update.subject !== undefined || update.new_stream_id !== undefined) {
        app.unread.move(update.message_ids, update.new_stream_id, update.subject);
        if (update.stream_id !== undefined) app.topics.delete(update.stream_id);
        if (update.new_stream_id !== undefined) app.topics.delete(update.new_stream_id);
      }
      return;
    }
    case 'delete_message': {
      const ids = (event.message_ids as number[] | undefined) ?? [event.message_id as number];
      app.messages.remove(ids);
      app.unread.remove(ids);
      return;
    }
    case 'reaction':
      app.messages.react(event.op as 'add' | 'remove', event.message_id as number, event as unknown as Reaction);
      return;
    case 'typing':
      typing(app, event);
      return;
    case 'presence': {
      const presence = event.presence as Record<string, { timestamp?: number; status?: string }> | undefined;
      const latest = Math.max(0, ...Object.values(presence ?? {}).filter((p) => p.status === 'active').map((p) => p.timestamp ?? 0));
      if (latest) app.presence.set(event.user_id as number, latest);
      return;
    }
    case 'subscription':
      subscription(app, event);
      return;
    case 'stream':
      if (event.op === 'create') for (const s of event.streams as Subscription[]) app.channels.set(s.stream_id, { ...s, description: s.description ?? '' });
      if (event.op === 'delete') for (const s of event.streams as Subscription[]) (app.channels.delete(s.stream_id), app.subscriptions.delete(s.stream_id));
      if (event.op === 'update') {
        const sub = app.subscriptions.get(event.stream_id as number);
        if (sub) app.subscriptions.set(sub.stream_id, { ...sub, [event.property as string]: event.value });
      }
      return;
    case 'realm_user':
      realmUser(app, event);
      return;
    case 'realm':
      if (event.op === 'update' && event.property === 'name') app.realm = { ...app.realm, name: String(event.value) };
      if (event.op === 'update' && event.property === 'description') app.realm = { ...app.realm, description: String(event.value) };
      if (event.op === 'update_dict' && event.data) {
        const data = event.data as Record<string, unknown>;
        if (typeof data.name === 'string') app.realm = { ...app.realm, name: data.name };
        if (typeof data.description === 'string') app.realm = { ...app.realm, description: data.description };
      }
      return;
    case 'realm_emoji':
      app.realm = { ...app.realm, emoji: event.realm_emoji as typeof app.realm.emoji };
      return;
    case 'user_topic':
      app.topicPolicies.set(event.stream_id as number, String(event.topic_name), event.visibility_policy as number);
      app.mutingChanged();
      return;
    case 'drafts':
      app.drafts = applyDraftsEvent(app.drafts, event);
      return;
    case 'scheduled_messages':
      app.scheduled = applyScheduledEvent(app.scheduled, event);
      return;
    case 'user_settings':
      if (event.op === 'update') app.userSettings = { ...app.userSettings, [event.property as string]: event.value };
      return;
  }
}

function bumpTopic(app: App, streamId: number, topic: string, id: number): void {
  const topics = app.topics.get(streamId);
  if (!topics) return;
  const rest = topics.filter((t) => t.name.toLowerCase() !== topic.toLowerCase());
  app.topics.set(streamId, [{ name: topic, max_id: id }, ...rest]);
}

/** Flags changed; false when every message already had them as the event says (the server's answer to this client's own read marks). */
function flags(app: App, event: ServerEvent): boolean {
  const op = event.op as 'add' | 'remove';
  const flag = event.flag as string;
  const ids = (event.messages as number[]) ?? [];
  const all = Boolean(event.all);
  const changed = app.messages.flag(op, flag, ids, all);
  if (flag !== 'read') return changed > 0;
  if (op === 'add' && all) app.unread.removeAll();
  else if (op === 'add') return app.unread.remove(ids) + changed > 0;
  else {
    const details = event.message_details as Record<string, { type: string; stream_id?: number; topic?: string; user_ids?: number[]; mentioned?: boolean }> | undefined;
    for (const id of ids) {
      const known = app.messages.byId.get(id);
      const d = details?.[String(id)];
      if (known) app.unread.add(known, known.flags.filter((f) => f !== 'read'));
      else if (d) {
        const dr = d.type === 'stream' ? '' : (d.user_ids ?? []).map((u) => ({ id: u, email: '', full_name: '' }));
        app.unread.add({ id, type: d.type === 'stream' ? 'stream' : 'private', stream_id: d.stream_id, subject: d.topic ?? '', display_recipient: dr } as Message, d.mentioned ? ['mentioned'] : []);
      }
    }
  }
  return true;
}

function typing(app: App, event: ServerEvent): void {
  const sender = (event.sender as { user_id: number }).user_id;
  if (sender === app.selfId) return;
  const key =
    event.message_type === 'stream'
      ? `c${event.stream_id as number}:${String(event.topic).toLowerCase()}`
      : `d${dmKey(((event.recipients as { user_id: number }[]) ?? []).map((r) => r.user_id).filter((id) => id !== app.selfId))}`;
  app.typing = app.typing.filter((t) => t.userId !== sender || t.key !== key);
  if (event.op === 'start') app.typing.push({ userId: sender, key, until: Date.now() + TYPING_MS });
}

function subscription(app: App, event: ServerEvent): void {
  switch (event.op) {
    case 'add':
      for (const s of event.subscriptions as Subscription[]) app.subscriptions.set(s.stream_id, s);
      return;
    case 'remove':
      for (const s of event.subscriptions as { stream_id: number }[]) app.subscriptions.delete(s.stream_id);
      return;
    case 'update': {
      const sub = app.subscriptions.get(event.stream_id as number);
      // `in_home_view` is the old name of `is_muted`, inverted.
      const [property, value] = event.property === 'in_home_view' ? ['is_muted', !event.value] : [event.property as string, event.value];
      if (sub) app.subscriptions.set(sub.stream_id, { ...sub, [property]: value });
      if (property === 'is_muted') app.mutingChanged();
      return;
    }
  }
}

function realmUser(app: App, event: ServerEvent): void {
  const person = event.person as Partial<User> & { user_id: number };
  if (event.op === 'add') app.users.set(person.user_id, person as User);
  if (event.op === 'remove') app.users.delete(person.user_id);
  if (event.op === 'update') {
    const old = app.users.get(person.user_id);
    if (old) app.users.set(person.user_id, { ...old, ...person });
  }
}
