/**
 * Custom emoji of an organization (Zulip's RealmEmoji): the record, Zulip's name rules, who may
 * add and deactivate, the API object, and the one emoji lookup every use (messages, reactions,
 * statuses) validates against: custom emoji first, then Zulip's extra emoji, then Unicode.
 */
import { badRequest, ApiError } from './errors.js';
import { isUnicodeEmojiCode, unicodeEmojiCode, ZULIP_EXTRA_EMOJI, type EmojiReactionType } from './emoji.js';

export interface RealmEmojiRecord {
  /** Zulip's emoji id; its string form is the emoji's `emoji_code`. */
  id: number;
  name: string;
  /** The stored image's name in URLs (`{hash}.{ext}`). */
  fileName: string;
  /** Where the (resized) image's bytes are stored. */
  sha256: string;
  contentType: string;
  /** For animated emoji: the first frame, as PNG. */
  still?: { fileName: string; sha256: string };
  authorId: number | null;
  deactivated: boolean;
}

/** What the emoji rules need to know of an organization's custom emoji. */
export interface RealmEmojiLookup {
  /** The active custom emoji with this name. */
  activeByName(name: string): RealmEmojiRecord | undefined;
  /** Any custom emoji (deactivated too) by its code (the id as a string). */
  byCode(code: string): RealmEmojiRecord | undefined;
}

export const MAX_EMOJI_FILE_SIZE_MIB = 5;
/** Custom emoji are stored resized to this square, as Zulip's DEFAULT_EMOJI_SIZE. */
export const EMOJI_SIZE = 64;

/** Zulip's check_valid_emoji_name (after `upload_emoji` trimmed it and turned spaces into underscores). */
export function checkEmojiName(name: string): void {
  if (name === '') throw badRequest('Emoji name is missing');
  if (/^[0-9a-z_-]+$/.test(name)) {
    if (/[-_]$/.test(name)) throw badRequest('Emoji names must end with either a letter or digit.');
    return;
  }
  throw badRequest('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
}

/** The name as `upload_emoji` takes it from the path. */
export const normalizeEmojiName = (name: string): string => name.trim().replaceAll(' ', '_');

/** Whether a name is one of Zulip's own emoji (only administrators may shadow one). */
export function isBuiltInEmoji(name: string): boolean {
  return Object.hasOwn(ZULIP_EXTRA_EMOJI, name) || unicodeEmojiCode(name) !== undefined;
}

/** Zulip's check_remove_custom_emoji: administrators, or the emoji's author. */
export function mayDeactivateEmoji(userId: number, admin: boolean, emoji: RealmEmojiRecord): boolean {
  return admin || (emoji.authorId !== null && emoji.authorId === userId);
}

export function emojiUrl(realmId: number, fileName: string): string {
  return `/user_avatars/${realmId}/emoji/images/${fileName}`;
}

export function stillEmojiUrl(realmId: number, fileName: string): string {
  return `/user_avatars/${realmId}/emoji/images/still/${fileName}`;
}

/** The API's custom emoji object. */
export function realmEmojiObject(realmId: number, emoji: RealmEmojiRecord): Record<string, unknown> {
  return {
    id: String(emoji.id),
    name: emoji.name,
    source_url: emojiUrl(realmId, emoji.fileName),
    still_url: emoji.still ? stillEmojiUrl(realmId, emoji.still.fileName) : null,
    deactivated: emoji.deactivated,
    author_id: emoji.authorId,
  };
}

/** Zulip's get_emoji_data: the code and type of an emoji known by name only. */
export function emojiByName(realm: RealmEmojiLookup, name: string): { code: string; type: EmojiReactionType } {
  const custom = realm.activeByName(name);
  if (custom) return { code: String(custom.id), type: 'realm_emoji' };
  if (Object.hasOwn(ZULIP_EXTRA_EMOJI, name)) return { code: ZULIP_EXTRA_EMOJI[name], type: 'zulip_extra_emoji' };
  const code = unicodeEmojiCode(name);
  if (code) return { code, type: 'unicode_emoji' };
  throw badRequest(`Emoji '${name}' does not exist`);
}

/** Zulip's check_emoji_request: whether a name, code and type name an emoji one may newly use. */
export function checkEmoji(realm: RealmEmojiLookup, name: string, code: string, type: EmojiReactionType): void {
  switch (type) {
    case 'realm_emoji': {
      const custom = realm.byCode(code);
      if (!custom) throw badRequest('Invalid custom emoji.');
      if (custom.name !== name) throw badRequest('Invalid custom emoji name.');
      if (custom.deactivated) throw badRequest('This custom emoji has been deactivated.');
      return;
    }
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
    default:
      throw new ApiError('BAD_REQUEST', 'Invalid emoji type.');
  }
}
