/** The API's objects as the client keeps them (the subset of Zulip's fields it reads). */

export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';
  user_id: number;
}

export interface DisplayRecipient {
  id: number;
  email: string;
  full_name: string;
}

export interface Message {
  /** A server id; a local echo has a fractional id just above the newest known one until its event arrives. */
  id: number;
  sender_id: number;
  sender_full_name: string;
  sender_email: string;
  avatar_url?: string | null;
  /** Rendered HTML (apply_markdown), or the echo's escaped text. */
  content: string;
  timestamp: number;
  type: 'stream' | 'private';
  stream_id?: number;
  subject: string;
  display_recipient: string | DisplayRecipient[];
  flags: string[];
  reactions: Reaction[];
  last_edit_timestamp?: number;
  /** Set on a local echo: the `local_id` sent, and whether the send failed. */
  local_id?: string;
  failed?: boolean;
}

export interface User {
  user_id: number;
  email: string;
  full_name: string;
  /** Null: Gravatar, computed by the client (`client_gravatar`); absent: not sent (`user_avatar_url_field_optional`). */
  avatar_url?: string | null;
  avatar_version?: number;
  role?: number;
  is_active?: boolean;
  is_bot?: boolean;
  is_admin?: boolean;
  timezone?: string;
}

export interface Subscription {
  stream_id: number;
  name: string;
  description?: string;
  color: string;
  is_muted: boolean;
  pin_to_top: boolean;
  invite_only: boolean;
  desktop_notifications?: boolean | null;
}

export interface ServerEvent {
  id: number;
  type: string;
  [field: string]: unknown;
}

/** The users of a direct message conversation, without oneself (oneself alone for notes to self). */
export function dmUserIds(message: Pick<Message, 'display_recipient'>, selfId: number): number[] {
  if (typeof message.display_recipient === 'string') return [];
  const others = message.display_recipient.map((r) => r.id).filter((id) => id !== selfId);
  return others.length ? others.sort((a, b) => a - b) : [selfId];
}

/** One key per direct message conversation: its other users' ids, ascending. */
export function dmKey(userIds: readonly number[]): string {
  return [...userIds].sort((a, b) => a - b).join(',');
}
