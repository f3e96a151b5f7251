/**
 * A user's topic visibility policies (muted, unmuted, followed) as the client keeps them: seeded by
 * `user_topics` from POST /register and kept by `user_topic` events. The rule of what is muted is
 * the server's own (src/domain/topic-visibility.ts), imported so that both sides agree.
 */
import { VisibilityPolicy, topicMuted } from '../../../src/domain/topic-visibility.js';
import { topicKey } from './unread.js';

export { VisibilityPolicy };

export interface UserTopic {
  stream_id: number;
  topic_name: string;
  visibility_policy: number;
  last_updated?: number;
}

let made = 0;

export class TopicPolicies {
  private readonly policies = new Map<string, number>();
  /** Which set this is, and how many changes it has had: what cached unread counts are keyed on. */
  readonly id = ++made;
  private changes = 0;

  get version(): number {
    return this.changes;
  }

  constructor(seed: readonly UserTopic[] = []) {
    for (const t of seed) this.set(t.stream_id, t.topic_name, t.visibility_policy);
  }

  /** A `user_topic` event: the policy replaces the old one (INHERIT forgets it). */
  set(streamId: number, topic: string, policy: number): void {
    const key = topicKey(streamId, topic);
    this.changes++;
    if (policy === VisibilityPolicy.INHERIT) this.policies.delete(key);
    else this.policies.set(key, policy);
  }

  policy(streamId: number, topic: string): number {
    return this.policies.get(topicKey(streamId, topic)) ?? VisibilityPolicy.INHERIT;
  }

  /** Muted for the reader: muted itself, or in a muted channel without being unmuted or followed. */
  muted(streamId: number, topic: string, channelMuted: boolean): boolean {
    return topicMuted(this.policy(streamId, topic), channelMuted);
  }

  followed(streamId: number, topic: string): boolean {
    return this.policy(streamId, topic) === VisibilityPolicy.FOLLOWED;
  }
}

/**
 * The policy that mutes (or unmutes) a topic: in a muted channel a topic is muted by default and
 * unmuted explicitly; elsewhere it is muted explicitly and unmuted by going back to the default.
 */
export function mutePolicy(channelMuted: boolean, mute: boolean): number {
  if (channelMuted) return mute ? VisibilityPolicy.INHERIT : VisibilityPolicy.UNMUTED;
  return mute ? VisibilityPolicy.MUTED : VisibilityPolicy.INHERIT;
}
