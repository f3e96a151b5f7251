/**
 * The emoji type a request names, for reactions and statuses (`service_extra_emoji` is the spec's
 * name for Zulip's extra set). Which emoji a name and code name is `realm-emoji.ts`'s
 * `emojiByName` and `checkEmoji`, the one lookup that knows custom emoji too.
 */
import type { EmojiReactionType } from './emoji.js';
import { badRequest } from './errors.js';

/** Zulip clients send `zulip_extra_emoji`; the spec's name for the same set is `service_extra_emoji`. */
const EXTRA_TYPES = new Set(['zulip_extra_emoji', 'service_extra_emoji']);

export function parseReactionType(value: string | undefined, fallback: EmojiReactionType | undefined): EmojiReactionType | undefined {
  if (value === undefined) return fallback;
  if (EXTRA_TYPES.has(value)) return 'zulip_extra_emoji';
  if (value === 'unicode_emoji' || value === 'realm_emoji') return value;
  throw badRequest('Invalid emoji type.');
}
