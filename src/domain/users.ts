/** User and bot records, who may see whose email, and the user objects the API returns. */
import { codePointLength, nonPrintablePosition, pyStrip } from './topics.js';
import { avatarUrlFor, type AvatarSource } from './avatar.js';
import { badRequest } from './errors.js';
import { isAdmin, isGuest, isModerator, isOwner, Role } from './roles.js';
import type { MutedUser } from './muted-users.js';
import type { UserStatus } from './user-status.js';

/** Per-user email visibility (Zulip's `email_address_visibility` values). */
export const EmailVisibility = {
  EVERYONE: 1,
  MEMBERS: 2,
  ADMINS: 3,
  NOBODY: 4,
  MODERATORS: 5,
} as const;
export type EmailVisibility = (typeof EmailVisibility)[keyof typeof EmailVisibility];

export const BotType = { GENERIC: 1, INCOMING_WEBHOOK: 2, OUTGOING_WEBHOOK: 3, EMBEDDED: 4 } as const;

export interface UserRecord {
  id: number;
  /** The user's personal recipient (1:1 direct messages to them). */
  recipientId: number;
  /** The real address, where mail goes. */
  deliveryEmail: string;
  fullName: string;
  role: Role;
  isActive: boolean;
  isBot: boolean;
  botType: number | null;
  botOwnerId: number | null;
  /** A bot of the system itself (notification bot): listed as a cross-realm bot. */
  isSystemBot: boolean;
  /** Unix milliseconds. */
  dateJoined: number;
  timezone: string;
  avatarSource: AvatarSource;
  avatarVersion: number;
  apiKey: string;
  passwordHash: string | null;
  emailAddressVisibility: EmailVisibility;
  /** Custom profile field values by field id. */
  profileData: Record<string, string>;
  /** The HTML of the values of Markdown fields (short and long text), by field id. */
  renderedProfileData?: Record<string, string>;
  /** Zulip's `can_change_user_emails` special permission (granted with the admin CLI). */
  canChangeUserEmails?: boolean;
  /** Personal settings that differ from the defaults. */
  settings: Record<string, unknown>;
  /** Status text and emoji; absent until first set. */
  status?: UserStatus;
  /** Alert words as given (matched without regard to case), in the order added; absent until first set. */
  alertWords?: readonly string[];
  /** Users this user muted, in the order muted; absent until first set. */
  mutedUsers?: readonly MutedUser[];
  /** A bot's defaults (Zulip's `default_sending_stream` etc.): channel ids; absent is none. */
  defaultSendingChannel?: number | null;
  defaultEventsRegisterChannel?: number | null;
  defaultAllPublicStreams?: boolean;
  /** An outgoing webhook bot's service (Zulip's `Service` row). */
  botService?: BotService;
  /** When a bot's owner was last told of its misdirected messages (unix ms; Zulip's `last_reminder`). */
  lastReminder?: number;
  /** An incoming webhook bot's configuration (Zulip's `BotConfigData`), e.g. `integration_id`. */
  botConfig?: Readonly<Record<string, string>>;
}

/** Where an outgoing webhook bot is told about messages, and how (Zulip's `Service`). */
export interface BotService {
  name: string;
  baseUrl: string;
  /** 1: Zulip's own payload; 2: Slack's outgoing webhook format. */
  interface: number;
  /** Sent with every request so that the receiver knows it is this server. */
  token: string;
}

/** Zulip's date format: ISO 8601 with microseconds and an explicit UTC offset. */
export function isoDate(ms: number): string {
  const iso = new Date(ms).toISOString();
  // Python's isoformat() leaves out a zero fraction of a second.
  return ms % 1000 === 0 ? iso.replace('.000Z', '+00:00') : iso.replace('Z', '000+00:00');
}

/** The placeholder address used by the API when a user's real email is not public. */
export function dummyEmail(userId: number, host: string): string {
  return `user${userId}@${host}`;
}

/** The address the API uses for `user` (and that user's Basic-auth username). */
export function apiEmail(user: UserRecord, host: string): string {
  if (user.isBot || user.emailAddressVisibility === EmailVisibility.EVERYONE) return user.deliveryEmail;
  return dummyEmail(user.id, host);
}

/** May `viewer` (undefined: an anonymous visitor) see `target`'s real email? */
export function canSeeEmail(viewer: UserRecord | undefined, target: UserRecord): boolean {
  if (target.isBot) return true;
  if (viewer && viewer.id === target.id) return true;
  switch (target.emailAddressVisibility) {
    case EmailVisibility.EVERYONE:
      return true;
    case EmailVisibility.MEMBERS:
      return viewer !== undefined && !isGuest(viewer.role);
    case EmailVisibility.MODERATORS:
      return viewer !== undefined && isModerator(viewer.role);
    case EmailVisibility.ADMINS:
      return viewer !== undefined && isAdmin(viewer.role);
    default:
      return false;
  }
}

export interface UserFormatOptions {
  host: string;
  realmUrl: string;
  clientGravatar: boolean;
  /** Include `profile_data` (non-bots only). */
  includeProfileData: boolean;
}

/** The user object of `GET /users` as `viewer` sees it. */
export function formatUser(target: UserRecord, viewer: UserRecord | undefined, options: UserFormatOptions): Record<string, unknown> {
  const visible = canSeeEmail(viewer, target);
  const user: Record<string, unknown> = {
    email: apiEmail(target, options.host),
    user_id: target.id,
    avatar_version: target.avatarVersion,
    is_admin: isAdmin(target.role),
    is_owner: isOwner(target.role),
    is_guest: isGuest(target.role),
    role: target.role,
    is_bot: target.isBot,
    full_name: target.fullName,
    timezone: target.timezone,
    is_active: target.isActive,
    date_joined: isoDate(target.dateJoined),
    delivery_email: visible ? target.deliveryEmail : null,
    avatar_url: avatarUrlFor(target, {
      clientGravatar: options.clientGravatar,
      emailIsPublic: target.isBot || target.emailAddressVisibility === EmailVisibility.EVERYONE,
      realmUrl: options.realmUrl,
    }),
    bot_type: target.isBot ? target.botType : null,
  };
  if (target.isBot) {
    user.bot_owner_id = target.botOwnerId;
  } else if (options.includeProfileData) {
    const profile: Record<string, { value: string; rendered_value?: string }> = {};
    for (const [fieldId, value] of Object.entries(target.profileData)) {
      const rendered = target.renderedProfileData?.[fieldId];
      profile[fieldId] = rendered === undefined ? { value } : { value, rendered_value: rendered };
    }
    user.profile_data = profile;
  }
  return user;
}

export function newUserRecord(fields: Pick<UserRecord, 'id' | 'deliveryEmail' | 'fullName' | 'role' | 'apiKey'> & Partial<UserRecord>): UserRecord {
  return {
    recipientId: 0,
    isActive: true,
    isBot: false,
    botType: null,
    botOwnerId: null,
    isSystemBot: false,
    dateJoined: Date.now(),
    timezone: '',
    avatarSource: 'G',
    avatarVersion: 1,
    passwordHash: null,
    emailAddressVisibility: EmailVisibility.EVERYONE,
    profileData: {},
    settings: {},
    ...fields,
  };
}

/** Characters a name may not hold (they would confuse mention syntax), as Zulip's NAME_INVALID_CHARS. */
const NAME_INVALID_CHARS = /[*`\\>"@]/;

/**
 * Zulip's `check_full_name`: the name stripped as Python strips, 2 to `maxLength` characters, no
 * mention-syntax or non-printable characters, no `|<digits>` ending; or the reason it is refused.
 */
export function checkFullName(raw: string, maxLength: number): string {
  const name = pyStrip(raw);
  if (codePointLength(name) > maxLength) throw badRequest('Name too long!');
  if (codePointLength(name) < 2) throw badRequest('Name too short!');
  if (NAME_INVALID_CHARS.test(name) || nonPrintablePosition(name) !== undefined) throw badRequest('Invalid characters in name!');
  // A name ending in `|15` would read as the disambiguated mention syntax `@**Name|15**`.
  if (/\|\d+$/.test(raw)) throw badRequest('Invalid format!');
  return name;
}

export const isValidEmail = (email: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || /^[^\s@]+@[^\s@.]+$/.test(email);

export { Role };
