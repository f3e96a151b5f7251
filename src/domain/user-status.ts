/**
 * A user's status (text and emoji) and Zulip's rules for changing it: `POST /users/me/status`
 * and the administrators' `POST /users/{user_id}/status` take the same request.
 */
import type { EmojiReactionType } from './emoji.js';
import { parseReactionType } from './emoji-rules.js';
import { checkEmoji, emojiByName, type RealmEmojiLookup } from './realm-emoji.js';
import { badRequest } from './errors.js';
import { LIMITS } from './versions.js';

export interface UserStatus {
  /** '' when cleared. */
  text: string;
  /** '' when the status has no emoji. */
  emojiName: string;
  emojiCode: string;
  reactionType: EmojiReactionType;
}

export const NO_STATUS: UserStatus = Object.freeze({ text: '', emojiName: '', emojiCode: '', reactionType: 'unicode_emoji' });

export interface StatusRequest {
  /** Deprecated: the inverse of the `presence_enabled` setting (own status only). */
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

export interface StatusChange {
  status: UserStatus;
  /** The `user_status` event's fields after `type` and `user_id`: only what the request changed. */
  changed: Record<string, unknown>;
}

/** Validates a status request against the current status, in Zulip's order of checks. */
export function planStatusChange(current: UserStatus, request: StatusRequest, realmEmoji: RealmEmojiLookup): StatusChange {
  const text = request.status_text?.trim();
  // Zulip strips before it counts, and counts code points.
  if (text !== undefined && [...text].length > LIMITS.maxStatusTextLength) {
    throw badRequest(`status_text is too long (limit: ${LIMITS.maxStatusTextLength} characters)`);
  }
  if (request.away === undefined && text === undefined && request.emoji_name === undefined) {
    throw badRequest('Client did not pass any new values.');
  }
  const name = request.emoji_name;
  let code = request.emoji_code;
  let type: EmojiReactionType | undefined;
  if (name === '') {
    // An empty name clears the emoji.
    code = '';
    type = 'unicode_emoji';
  } else if (name !== undefined) {
    type = parseReactionType(request.reaction_type, undefined);
    if (code === undefined || type === undefined) {
      const found = emojiByName(realmEmoji, name);
      code ??= found.code;
      type ??= found.type;
    }
    checkEmoji(realmEmoji, name, code, type);
  } else if (request.emoji_code !== undefined || request.reaction_type !== undefined) {
    throw badRequest('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
  }
  const status: UserStatus = { ...current };
  const changed: Record<string, unknown> = {};
  if (request.away !== undefined) changed.away = request.away;
  if (text !== undefined) {
    status.text = text;
    changed.status_text = text;
  }
  if (name !== undefined) {
    status.emojiName = name;
    status.emojiCode = code!;
    status.reactionType = type!;
    changed.emoji_name = name;
    changed.emoji_code = code;
    changed.reaction_type = type;
  }
  return { status, changed };
}

/** The API's status object: only what is set (`{}` when nothing is), with `away` for users who hid their presence. */
export function statusObject(status: UserStatus | undefined, presenceEnabled: boolean): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  if (!presenceEnabled) object.away = true;
  if (status?.text) object.status_text = status.text;
  if (status?.emojiName) {
    object.emoji_name = status.emojiName;
    object.emoji_code = status.emojiCode;
    object.reaction_type = status.reactionType;
  }
  return object;
}
