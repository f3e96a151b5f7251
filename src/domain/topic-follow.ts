/**
 * The automatic follow rules: which visibility policy sending gives the sender's topic (Zulip's
 * automatically_follow_topics_policy and automatically_unmute_topics_in_muted_streams_policy) and
 * whether a mention makes someone follow it (automatically_follow_topics_where_mentioned).
 */
import { settingValue } from './user-settings.js';
import type { UserRecord } from './users.js';
import { VisibilityPolicy } from './topic-visibility.js';

/** Zulip's automatic visibility settings (ON_INITIATION to follow, ON_SEND to unmute). */
const FOLLOW_ON_PARTICIPATION = 1;
const FOLLOW_ON_SEND = 2;
const FOLLOW_ON_INITIATION = 3;

export interface SendFacts {
  /** The sender's current policy for the topic. */
  current: number;
  channelMuted: boolean;
  /** The message starts the topic. */
  initiated: boolean;
}

/** The policy sending gives the sender's topic, per the sender's settings, or undefined for no change. */
export function automaticPolicy(sender: Pick<UserRecord, 'isBot' | 'settings'>, { current, channelMuted, initiated }: SendFacts): number | undefined {
  if (sender.isBot) return undefined;
  const follow = settingValue(sender, 'automatically_follow_topics_policy') as number;
  const unmute = settingValue(sender, 'automatically_unmute_topics_in_muted_streams_policy') as number;
  if (current === VisibilityPolicy.FOLLOWED) return undefined;
  let candidate: number | undefined;
  if (follow === FOLLOW_ON_PARTICIPATION || follow === FOLLOW_ON_SEND) candidate = VisibilityPolicy.FOLLOWED;
  else if (channelMuted && (unmute === FOLLOW_ON_PARTICIPATION || unmute === FOLLOW_ON_SEND)) candidate = VisibilityPolicy.UNMUTED;
  if (current !== VisibilityPolicy.INHERIT) return candidate === current ? undefined : candidate;
  if (candidate === undefined && initiated) {
    if (follow === FOLLOW_ON_INITIATION) candidate = VisibilityPolicy.FOLLOWED;
    else if (channelMuted && unmute === FOLLOW_ON_INITIATION) candidate = VisibilityPolicy.UNMUTED;
  }
  return candidate;
}

/** A mentioned subscriber (not the sender, not a bot) follows the topic unless they muted or already follow it, or turned this off. */
export function followsWhenMentioned(user: Pick<UserRecord, 'isBot' | 'settings'>, current: number): boolean {
  if (user.isBot || !settingValue(user, 'automatically_follow_topics_where_mentioned')) return false;
  return current !== VisibilityPolicy.MUTED && current !== VisibilityPolicy.FOLLOWED;
}

/** What participating (not by sending) in a topic depends on. */
export interface ParticipationFacts {
  /** The user's current policy for the topic. */
  current: number;
  subscribed: boolean;
  channelMuted: boolean;
}

/**
 * The policy taking part in a topic otherwise than by sending (a submessage: Zulip's
 * do_add_submessage) gives the user's topic: only for settings "on participation", and only
 * ever raising it (a followed topic stays followed); undefined for no change.
 */
export function participationPolicy(user: Pick<UserRecord, 'isBot' | 'settings'>, { current, subscribed, channelMuted }: ParticipationFacts): number | undefined {
  if (user.isBot || !subscribed) return undefined;
  const follow = settingValue(user, 'automatically_follow_topics_policy') as number;
  const unmute = settingValue(user, 'automatically_unmute_topics_in_muted_streams_policy') as number;
  if (follow !== FOLLOW_ON_PARTICIPATION && unmute !== FOLLOW_ON_PARTICIPATION) return undefined;
  let candidate: number | undefined;
  if (follow === FOLLOW_ON_PARTICIPATION) candidate = VisibilityPolicy.FOLLOWED;
  else if (channelMuted && unmute === FOLLOW_ON_PARTICIPATION) candidate = VisibilityPolicy.UNMUTED;
  if (candidate === undefined || candidate === current || current === VisibilityPolicy.FOLLOWED) return undefined;
  return candidate;
}
