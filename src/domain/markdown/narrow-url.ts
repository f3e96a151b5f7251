/** Zulip's narrow URL fragments (`/#narrow/channel/5-Denmark/topic/some.20topic`) and their hash encoding. */

const NOT_ENCODED_BY_JS = /[!'()]/g;
const DOT = /\./g;
const PERCENT = /%/g;

/**
 * Zulip's hash component encoding: percent-encode everything but letters, digits and `-_.~*`,
 * then write `.` for `%` (so a literal `.` becomes `.2E`).
 */
export function encodeHashComponent(text: string): string {
  return encodeURIComponent(text)
    .replace(NOT_ENCODED_BY_JS, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(DOT, '%2E')
    .replace(PERCENT, '.');
}

/** `5-Denmark`: the channel's id, then its name with spaces as dashes, encoded. */
export function channelSlug(channelId: number, channelName: string): string {
  return `${channelId}-${encodeHashComponent(channelName.replaceAll(' ', '-'))}`;
}

export function channelNarrowPath(channelId: number, channelName: string): string {
  return `/#narrow/channel/${channelSlug(channelId, channelName)}`;
}

export function topicNarrowPath(channelId: number, channelName: string, topic: string): string {
  return `${channelNarrowPath(channelId, channelName)}/topic/${encodeHashComponent(topic)}`;
}
