/** What a change reaches: the parts of the client's state that views depend on (each a signal of its own), which parts each event changes, which events move the feed rows' context, and what cached unread counts are keyed on. */
import { batch, signal, type Signal } from '@preact/signals';

/**
 * The parts of the state a view can show. A view reads the versions of the parts it shows
 * (`app.watch`) and re-renders when one of them moves, not on every change: a switch, a read mark
 * or a presence event re-renders what shows it, not the whole page.
 * - feed: message lists and messages (pages, live messages, edits, reactions, flags) and what rows show beside them
 * - unread: the unread set (counts, the title, the unread marks)
 * - channels: subscriptions, channels and topic policies (sidebar, compose destination, headings)
 * - topics: the topic lists of channels
 * - people: users (names, roles)
 * - presence: who is active (the people list)
 * - typing: who is typing (the typing line)
 * - drafts: drafts and scheduled messages
 * - settings: the user's settings and the organization's (name, description, custom emoji)
 */
export const SCOPES = ['feed', 'unread', 'channels', 'topics', 'people', 'presence', 'typing', 'drafts', 'settings'] as const;
export type Scope = (typeof SCOPES)[number];
export type Versions = Readonly<Record<Scope, Signal<number>>>;

export function newVersions(): Versions {
  return Object.fromEntries(SCOPES.map((scope) => [scope, signal(0)])) as Record<Scope, Signal<number>>;
}

/** Moves the versions of `scopes` at once (one re-render of each view that reads any of them). */
export function bump(versions: Versions, scopes: Iterable<Scope>): void {
  batch(() => {
    for (const scope of new Set(scopes)) versions[scope].value++;
  });
}

const EVENT_SCOPES: Readonly<Record<string, readonly Scope[]>> = {
  // A new message also ends its sender's typing and may lead its channel's topic list (not the
  // people list: sorting a thousand people on every message cost milliseconds).
  message: ['feed', 'unread', 'topics', 'typing'],
  // An edit, or a move (its unread messages and the topic lists follow).
  update_message: ['feed', 'unread', 'topics'],
  delete_message: ['feed', 'unread'],
  reaction: ['feed'],
  typing: ['typing'],
  presence: ['presence'],
  // Muting changes the counts; a colour or a name changes the feed's headers.
  subscription: ['channels', 'unread', 'feed'],
  stream: ['channels', 'feed'],
  realm_user: ['people', 'feed'],
  realm: ['settings'],
  realm_emoji: ['settings', 'feed'],
  user_topic: ['channels', 'topics', 'unread', 'feed'],
  drafts: ['drafts'],
  scheduled_messages: ['drafts'],
  user_settings: ['settings'],
};

/** What applying an event can change. An event the client does not know may change anything. */
export function scopesOf(event: { type: string; op?: unknown; flag?: unknown }): readonly Scope[] {
  if (event.type === 'update_message_flags') return event.flag === 'read' ? ['feed', 'unread'] : ['feed'];
  // Who is subscribed to a channel is not shown.
  if (event.type === 'subscription' && (event.op === 'peer_add' || event.op === 'peer_remove')) return [];
  return EVENT_SCOPES[event.type] ?? SCOPES;
}

/** Events that change what feed rows show besides their messages (names, roles, channels, topic policies, custom emoji). */
export const ROW_CONTEXT_EVENTS = new Set(['realm_user', 'realm_emoji', 'realm', 'user_topic', 'subscription', 'stream']);

/** What the unread counts depend on (the app's parts, named here so that this file stays free of the browser's types). */
interface CountsInputs {
  subscriptions: ReadonlyMap<number, { stream_id: number; is_muted: boolean }>;
  unread: { id: number; version: number };
  topicPolicies: { id: number; version: number };
}

/** What the unread counts depend on, as a string: the unread set's version, the topic policies' version, the muted channels. */
export function countsKey(app: CountsInputs): string {
  let muted = '';
  for (const s of app.subscriptions.values()) if (s.is_muted) muted += `${s.stream_id},`;
  return `${app.unread.id}:${app.unread.version}|${app.topicPolicies.id}:${app.topicPolicies.version}|${muted}`;
}
