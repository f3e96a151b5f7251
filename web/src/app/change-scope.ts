/** What a change reaches: which events re-render only the people and typing line, which move the feed rows' context, and what cached unread counts are keyed on. */
import type { App } from './app.js';

/** Events that change what feed rows show besides their messages (names, roles, channels, topic policies, custom emoji). */
export const ROW_CONTEXT_EVENTS = new Set(['realm_user', 'realm_emoji', 'realm', 'user_topic', 'subscription', 'stream']);
/** Events that change nothing but who is active or typing. */
export const QUIET_EVENTS = new Set(['presence', 'typing']);

/** What the unread counts depend on, as a string: the unread set's version, the topic policies' version, the muted channels. */
export function countsKey(app: App): string {
  let muted = '';
  for (const s of app.subscriptions.values()) if (s.is_muted) muted += `${s.stream_id},`;
  return `${app.unread.id}:${app.unread.version}|${app.topicPolicies.id}:${app.topicPolicies.version}|${muted}`;
}
