/**
 * Which emoji a request names, as Zulip checks it for reactions and statuses: the type
 * (`service_extra_emoji` is this server's name for Zulip's extra set), the code found by name,
 * and whether name, code and type agree.
 */
import { isUnicodeEmojiCode, unicodeEmojiCode, ZULIP_EXTRA_EMOJI, type EmojiReactionType } from './emoji.js';
import { badRequest } from './errors.js';

/** Zulip clients send `zulip_extra_emoji`; the spec's name for the same set is `service_extra_emoji`. */
const EXTRA_TYPES = new Set(['zulip_extra_emoji', 'service_extra_emoji']);

export function parseReactionType(value: string | undefined, fallback: EmojiReactionType | undefined): EmojiReactionType | undefined {
  if (value === undefined) return fallback;
  if (EXTRA_TYPES.has(value)) return 'zulip_extra_emoji';
  if (value === 'unicode_emoji' || value === 'realm_emoji') return value;
  throw badRequest('Invalid emoji type.');
}

/** The code and type of an emoji known by name only. */
export function emojiByName(name: string): { code: string; type: EmojiReactionType } {
  if (ZULIP_EXTRA_EMOJI[name]) return { code: ZULIP_EXTRA_EMOJI[name], type: 'zulip_extra_emoji' };
  const code = unicodeEmojiCode(name);
  if (code) return { code, type: 'unicode_emoji' };
  throw badRequest(`Emoji '${name}' does not exist`);
}

/** Refuses a name, code and type that do not name one emoji (custom emoji do not exist here). */
export function checkEmoji(name: string, code: string, type: EmojiReactionType): void {
  switch (type) {
    case 'zulip_extra_emoji':
      if (code !== 'zulip') throw badRequest('Invalid emoji code.');
      if (name !== code) throw badRequest('Invalid emoji name.');
      return;
    case 'unicode_emoji': {
      if (!isUnicodeEmojiCode(code)) throw badRequest('Invalid emoji code.');
      // A name we know must be this emoji's; one we do not know is taken on trust with a valid
      // code (Zulip's name table has aliases no published emoji data set carries).
      const known = unicodeEmojiCode(name);
      if (known !== undefined && known !== code) throw badRequest('Invalid emoji name.');
      return;
    }
    case 'realm_emoji':
      throw badRequest('Invalid custom emoji.');
  }
}
