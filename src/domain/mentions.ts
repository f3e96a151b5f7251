/** Which recipients a message's mentions flag, shared by sending and editing. */
import { groupMembers, type GroupLookup } from './groups.js';
import { Flag } from './messages.js';

/** What a rendering mentions: people by name or through a group, and the wildcards. */
export interface Mentions {
  users: ReadonlySet<number>;
  streamWildcard: boolean;
  topicWildcard: boolean;
}

/** The mentions of a rendering; a group mention reaches every member of the group. */
export function mentionsOf(
  rendered: { mentionedUserIds: Iterable<number>; mentionedGroupIds: Iterable<number>; streamWildcard: boolean; topicWildcard: boolean },
  groups: GroupLookup,
): Mentions {
  const users = new Set(rendered.mentionedUserIds);
  for (const groupId of rendered.mentionedGroupIds) for (const userId of groupMembers(groupId, groups)) users.add(userId);
  return { users, streamWildcard: rendered.streamWildcard, topicWildcard: rendered.topicWildcard };
}

/**
 * The mention bits of one recipient's flags. A topic wildcard reaches only the topic's
 * participants (everyone, in a direct message).
 */
export function mentionFlags(userId: number, mentions: Mentions, topicParticipant: boolean): number {
  let bits = 0;
  if (mentions.users.has(userId)) bits |= Flag.mentioned;
  if (mentions.streamWildcard) bits |= Flag.stream_wildcard_mentioned;
  if (mentions.topicWildcard && topicParticipant) bits |= Flag.topic_wildcard_mentioned;
  return bits;
}

/** Everyone a mention may flag: those named, the topic's participants (topic wildcard), everyone (channel wildcard). */
export function* mentionCandidates(mentions: Mentions, topicParticipants: Iterable<number>, everyone: Iterable<number>): Generator<number> {
  if (mentions.streamWildcard) return yield* everyone;
  yield* mentions.users;
  if (mentions.topicWildcard) yield* topicParticipants;
}
