/**
 * Who counts as long-term idle, the rule behind two of Zulip's size cuts in POST /register:
 * `user_avatar_url_field_optional` (no `avatar_url` for long-term idle users) and
 * `include_subscribers=partial` (large channels list only bots and users who are not).
 */

/** Zulip soft-deactivates ("long_term_idle") users after 28 days without activity. */
export const LONG_TERM_IDLE_SECONDS = 28 * 86400;

/** Zulip sends full subscriber lists for channels below this size when asked for partial ones. */
export const MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE = 1000;

/**
 * Idle for the long term: neither seen (a presence report, in seconds) nor joined (ms) within
 * LONG_TERM_IDLE_SECONDS of `now` (seconds). Presence is kept in memory only, so after a restart
 * a user counts as idle until their client reports again (within a minute for a connected one).
 */
export function isLongTermIdle(lastSeen: number | undefined, dateJoinedMs: number, now: number): boolean {
  const latest = Math.max(lastSeen ?? 0, Math.floor(dateJoinedMs / 1000));
  return now - latest > LONG_TERM_IDLE_SECONDS;
}
