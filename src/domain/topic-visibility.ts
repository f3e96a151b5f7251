/** A user's visibility policy for a topic, as Zulip numbers them, and the one rule of what is muted for a user. */
export const VisibilityPolicy = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;
export type VisibilityPolicy = (typeof VisibilityPolicy)[keyof typeof VisibilityPolicy];

/** The channel's muting reaches the topic: the channel is muted and the topic is neither unmuted nor followed. */
export function mutedByChannel(policy: number, channelMuted: boolean): boolean {
  return channelMuted && policy !== VisibilityPolicy.UNMUTED && policy !== VisibilityPolicy.FOLLOWED;
}

/** A topic is muted for a user when muted itself, or in a muted channel without being unmuted or followed. */
export function topicMuted(policy: number, channelMuted: boolean): boolean {
  return policy === VisibilityPolicy.MUTED || mutedByChannel(policy, channelMuted);
}
