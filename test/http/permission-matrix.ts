/**
 * The permission matrix as data: every route × caller × target with the answer expected,
 * following Zulip's behaviour where the spec is silent. permissions.test.ts drives it through HTTP.
 */
import type { HttpMethod } from '../../src/http/router.js';
import type { Params } from '../helpers/client.js';

/** Who calls: one person per role, a deactivated account, a wrong key and no credentials at all. */
export const CALLERS = ['desdemona', 'iago', 'shiva', 'hamlet', 'othello', 'polonius', 'deactivated', 'wrongKey', 'none'] as const;
export type Caller = (typeof CALLERS)[number];
/** Callers who authenticate as an active user. */
export const USERS = ['desdemona', 'iago', 'shiva', 'hamlet', 'othello', 'polonius'] as const;
export type UserCaller = (typeof USERS)[number];
const ADMINS: readonly Caller[] = ['desdemona', 'iago'];
const GUESTS: readonly Caller[] = ['polonius'];

/** Every channel and conversation the matrix aims at, with who belongs to it (the demo's, plus the test's fixtures). */
export const PLACES = {
  /** Public, everyone subscribed, the guest included. */
  verona: { name: 'Verona', private: false, members: ['desdemona', 'iago', 'shiva', 'hamlet', 'othello', 'polonius'] },
  /** Public, the guest and most members not subscribed. */
  scotland: { name: 'Scotland', private: false, members: ['othello'] },
  coreTeam: { name: 'core team', private: true, members: ['desdemona', 'iago'] },
  moderation: { name: 'moderation', private: true, members: ['desdemona', 'iago', 'shiva'] },
  /** Created by the test: a private channel of two members, which the administrators are not in. */
  garden: { name: 'secret garden', private: true, members: ['hamlet', 'othello'] },
} as const satisfies Record<string, { name: string; private: boolean; members: readonly Caller[] }>;
export type Place = keyof typeof PLACES;
export const PRIVATE_PLACES = ['coreTeam', 'moderation', 'garden'] as const;
/** Another pair's direct messages: a conversation between shiva and othello. */
export const DM_PAIR: readonly Caller[] = ['shiva', 'othello'];

export const isMember = (caller: Caller, place: Place) => (PLACES[place].members as readonly Caller[]).includes(caller);
/** Zulip's content access: subscribers, and anyone but guests for a public channel. */
export const readsChannel = (caller: Caller, place: Place) => isMember(caller, place) || (!PLACES[place].private && !GUESTS.includes(caller) && (USERS as readonly string[]).includes(caller));
/** Zulip's metadata access: content access, and administrators for any channel. */
export const knowsChannel = (caller: Caller, place: Place) => readsChannel(caller, place) || ADMINS.includes(caller);

/** An answer: 200 with `result: success`, or an error status with its code and message. */
export interface Outcome {
  status: number;
  code?: string;
  msg?: string;
}

export const OK: Outcome = { status: 200 };
/** A cell not driven, because its request would change the fixtures the other rows need. */
export const SKIP: Outcome = { status: 0 };
const bad = (msg: string, code = 'BAD_REQUEST'): Outcome => ({ status: 400, code, msg });
export const INVALID_MESSAGE = bad('Invalid message(s)');
export const INVALID_CHANNEL = bad('Invalid channel ID');
const NO_PERMISSION = bad('Insufficient permission');
/** Zulip's require_realm_admin; the spec gives it the code BAD_REQUEST. */
const NOT_ADMIN = bad('Must be an organization administrator');
/** Zulip's require_non_guest_user, on subscribing. */
const NOT_FOR_GUESTS = bad('Not allowed for guest users');

/**
 * The three callers who are not an active user. FIXME(issue 8 item 6): Zulip wraps every credential
 * error of the REST API as `UNAUTHORIZED` (decorator.py, `raise UnauthorizedError(e.msg)`); the branch
 * fixing that changes the two codes below to 'UNAUTHORIZED', messages unchanged.
 */
// Zulip's REST API wraps every credential error as UNAUTHORIZED (authenticated_rest_api_view).
export const CREDENTIAL_ERRORS: Record<'deactivated' | 'wrongKey' | 'none', Outcome> = {
  deactivated: { status: 401, code: 'UNAUTHORIZED', msg: 'Account is deactivated' },
  wrongKey: { status: 401, code: 'UNAUTHORIZED', msg: 'Invalid API key' },
  none: { status: 401, code: 'UNAUTHORIZED', msg: 'Not logged in: API authentication or user session required' },
};

/** What the test gives a row's request builder: the fixtures' ids and a way to make fresh ones. */
export interface Fixtures {
  /** A demo user's id or address, by name or by caller (the deactivated caller is cordelia; wrongKey and none name hamlet). */
  userId(name: string): number;
  email(name: string): string;
  channelId(place: Place): number;
  /** The fixture message in a place, written by one of its members. */
  messageIn(place: Place | 'dm'): number;
  /** A message of the caller's own, in Verona (prospero's for callers who are not active users). */
  ownMessage(caller: Caller): number;
  /** A message in Verona by prospero, who is not among the callers. */
  othersMessage: number;
  /** A new message in a place (by one of its members) or, for 'own', by the caller, for rows that change or delete it. */
  freshMessage(place: Place | 'dm' | 'own' | 'others', caller: Caller): Promise<number>;
  /** Sends a message as a demo user and returns its id. */
  send(sender: string, params: Params): Promise<number>;
  /** A new event queue of the caller (hamlet's for callers who are not users). */
  freshQueue(caller: Caller): Promise<string>;
  /** The queue of othello registered at setup: someone else's queue for every other caller. */
  othersQueue: string;
  /** A custom profile field (short text) made at setup, editable by users. */
  profileField: number;
  /** A new custom profile field, for rows that delete one. */
  freshProfileField(): Promise<number>;
  /** Every custom profile field's id now (for reordering). */
  profileFieldIds(): number[];
  /** A new scheduled message (a DM to someone else) or reminder (of the owner's own Verona message), of the caller (prospero's for callers who are not active users) or of prospero. */
  scheduled(owner: Caller | 'prospero', kind: 'message' | 'reminder'): Promise<number>;
  /** The answer to POSTing `params` to `path` as the owner (prospero for callers who are not active users), for rows about one's own records. */
  created(owner: Caller | 'prospero', path: string, params: Params): Promise<Record<string, unknown>>;
  /** A new user group with no members, made by the caller (by prospero for callers who may not make one) or by prospero. */
  group(creator: Caller | 'prospero'): Promise<number>;
  /** A new email invitation of the caller (prospero's for guests and callers who are not users) or of prospero; a new link of iago. */
  invitation(owner: Caller | 'prospero', kind: 'email' | 'multiuse'): Promise<number>;
  /** The path (`/user_uploads/…`) of an image uploaded by a place's first member and linked from a message there. */
  fileIn(place: Place): string;
  /** A one-minute URL path for `fileIn(place)`, asked for by the place's first member. */
  temporaryFileUrl(place: Place): Promise<string>;
  /** The image paths of an animated custom emoji added at setup. */
  emoji: { source: string; still: string };
}

export interface RowRequest {
  /** Below /api/v1, or from the server's root for a root route's row. */
  path: string;
  params?: Params;
  /** Text the callers themselves wrote into what they ask for (a message they read back): echoing it reveals nothing. */
  says?: string;
}

export interface MatrixRow {
  method: HttpMethod;
  /** A root route (outside /api/v1): its answers are files or pages, so only their status is compared. */
  root?: true;
  /** The route's pattern as the router lists it. */
  route: string;
  /** What the request aims at: own, another user's, a place, another pair's DMs, or '-' when nothing. */
  target: string;
  /** The channel aimed at, whose id replaces `{channel_id}` in expected messages. */
  place?: Place;
  request(fx: Fixtures, caller: Caller): RowRequest | Promise<RowRequest>;
  /** Status 0: the cell is not driven (its request would change the fixtures the other rows need). */
  expect: Record<Caller, Outcome>;
}

/** Builds a caller → outcome record: `users` decides for active users, credential errors for the rest. */
function outcomes(users: (caller: UserCaller) => Outcome, others: Partial<Record<'deactivated' | 'wrongKey' | 'none', Outcome>> = {}): Record<Caller, Outcome> {
  const record = { ...CREDENTIAL_ERRORS, ...others } as Record<Caller, Outcome>;
  for (const user of USERS) record[user] = users(user);
  return record;
}
const everyone = (outcome: Outcome) => outcomes(() => outcome);
/** The same answer for every caller, credentials or none (routes that need none). */
const anyone = (outcome: Outcome) => outcomes(() => outcome, { deactivated: outcome, wrongKey: outcome, none: outcome });
/** A row of a root route: only the status is compared (credential errors keep theirs). */
const rootRow = (row: MatrixRow): MatrixRow => ({ ...row, root: true });
const adminsOnly = (refusal: Outcome) => outcomes((c) => (ADMINS.includes(c) ? OK : refusal));

type MessageTarget = 'own' | 'others' | 'coreTeam' | 'garden' | 'dm';
const MESSAGE_TARGETS: MessageTarget[] = ['own', 'others', 'coreTeam', 'garden', 'dm'];
/** Whether a caller may read the fixture message of a target. */
function readsMessage(caller: Caller, target: MessageTarget): boolean {
  if (target === 'own' || target === 'others') return readsChannel(caller, 'verona');
  if (target === 'dm') return DM_PAIR.includes(caller);
  return isMember(caller, target);
}
const existingMessage = (fx: Fixtures, caller: Caller, target: MessageTarget) =>
  target === 'own' ? fx.ownMessage(caller) : target === 'others' ? fx.othersMessage : fx.messageIn(target);
/** Whether the caller wrote the fresh message of a target (a place's fresh message is by its first member). */
function authorOf(caller: Caller, target: MessageTarget): boolean {
  if (target === 'own') return true;
  if (target === 'others') return false;
  if (target === 'dm') return caller === DM_PAIR[0];
  return PLACES[target].members[0] === caller;
}

/** One row per message target, with the outcome for a caller who may read the message given by `readable`. */
function messageRows(method: HttpMethod, route: string, build: (id: number) => RowRequest, readable: (caller: UserCaller, target: MessageTarget) => Outcome, fresh = false): MatrixRow[] {
  return MESSAGE_TARGETS.map((target) => ({
    method,
    route,
    target: target === 'own' ? 'own message' : target === 'others' ? "another user's message" : target === 'dm' ? "another pair's DM" : `message in ${PLACES[target].name}`,
    request: async (fx, caller) => build(fresh ? await fx.freshMessage(target, caller) : existingMessage(fx, caller, target)),
    expect: outcomes((c) => (readsMessage(c, target) ? readable(c, target) : INVALID_MESSAGE)),
  }));
}

const CHANNEL_TARGETS: Place[] = ['verona', 'scotland', 'coreTeam', 'moderation', 'garden'];
/** One row per channel, with `ok` for callers who read it and `refused` for the others. */
function channelRows(method: HttpMethod, route: string, build: (fx: Fixtures, place: Place) => RowRequest, ok: (caller: UserCaller, place: Place) => Outcome, refused: (caller: UserCaller, place: Place) => Outcome, access = readsChannel): MatrixRow[] {
  return CHANNEL_TARGETS.map((place) => ({
    method,
    route,
    target: `channel ${PLACES[place].name}`,
    place,
    request: (fx) => build(fx, place),
    expect: outcomes((c) => (access(c, place) ? ok(c, place) : refused(c, place))),
  }));
}

/** A private channel the caller is in (core team for those in none, who are refused). */
export const privateHomeOf = (caller: Caller): Place => PRIVATE_PLACES.find((place) => isMember(caller, place)) ?? 'coreTeam';

const narrowTo = (fx: Fixtures, place: Place) => [{ operator: 'channel', operand: fx.channelId(place) }];

/** A delivery time no row reaches: scheduled rows never send. */
const FAR_FUTURE = 4_000_000_000;

/** Sending to each channel and to a person: POST /messages and POST /scheduled_messages check it alike. */
function sendingRows(route: '/messages' | '/scheduled_messages', extra: Params = {}): MatrixRow[] {
  const build = (fx: Fixtures, place: Place): RowRequest => ({ path: route, params: { type: 'stream', to: fx.channelId(place), topic: 'matrix', content: 'sent by the matrix', ...extra } });
  return [
    ...channelRows('POST', route, build, () => OK, (_c, place) => bad(`Not authorized to send to channel '${PLACES[place].name}'`))
      .filter((row) => row.place === 'verona' || row.place === 'scotland'),
    // A private channel the sender may not know of is answered as if its id did not exist.
    ...channelRows('POST', route, build,
      () => OK,
      // Administrators know every channel: they are told why, by name.
      (c, place) => (ADMINS.includes(c) ? bad(`Not authorized to send to channel '${PLACES[place].name}'`) : { status: 400, code: 'STREAM_DOES_NOT_EXIST', msg: "Channel with ID '{channel_id}' does not exist" }),
    ).filter((row) => PLACES[row.place!].private),
    {
      method: 'POST',
      route,
      target: 'a DM to another user',
      request: (fx) => ({ path: route, params: { type: 'direct', to: [fx.userId('prospero')], content: 'a direct message from the matrix', ...extra } }),
      expect: everyone(OK),
    },
  ];
}

/** A scheduled message or reminder of the caller's own, or of prospero (not a caller): another user's answers as a missing one. */
function scheduledRows(method: HttpMethod, route: string, kind: 'message' | 'reminder', build: (id: number) => RowRequest): MatrixRow[] {
  const missing: Outcome = { status: 404, code: 'BAD_REQUEST', msg: kind === 'message' ? 'Scheduled message does not exist' : 'Reminder does not exist' };
  return [
    { method, route, target: `own ${kind}`, request: async (fx, caller) => build(await fx.scheduled(caller, kind)), expect: everyone(OK) },
    { method, route, target: `another user's ${kind}`, request: async (fx) => build(await fx.scheduled('prospero', kind)), expect: everyone(missing) },
  ];
}

/** Rows for a record of one's own and another user's (prospero's), made by `create` and aimed at by `build`. */
function personalRows(method: HttpMethod, route: string, what: string, create: (fx: Fixtures, owner: Caller | 'prospero') => Promise<number | string>, build: (key: number | string) => RowRequest, missing: Outcome): MatrixRow[] {
  return [
    { method, route, target: `own ${what}`, request: async (fx, caller) => build(await create(fx, caller)), expect: everyone(OK) },
    { method, route, target: `another user's ${what}`, request: async (fx) => build(await create(fx, 'prospero')), expect: everyone(missing) },
  ];
}
const DRAFT_MISSING: Outcome = { status: 404, code: 'BAD_REQUEST', msg: 'Draft does not exist' };
const SNIPPET_MISSING: Outcome = { status: 404, code: 'BAD_REQUEST', msg: 'Saved snippet does not exist.' };
const newDraft = async (fx: Fixtures, owner: Caller | 'prospero') =>
  ((await fx.created(owner, '/drafts', { drafts: [{ type: 'stream', to: [fx.channelId('verona')], topic: 'matrix', content: 'a draft of the matrix' }] })).ids as number[])[0]!;
const newSnippet = async (fx: Fixtures, owner: Caller | 'prospero') =>
  (await fx.created(owner, '/saved_snippets', { title: 'matrix', content: 'a snippet of the matrix' })).saved_snippet_id as number;
let viewCount = 0;
const newView = async (fx: Fixtures, owner: Caller | 'prospero') => {
  const fragment = `narrow/matrix/${++viewCount}`;
  await fx.created(owner, '/navigation_views', { fragment, is_pinned: true, name: `Matrix ${viewCount}` });
  return fragment;
};
const newToken = (kind: 'apns' | 'fcm') => async (fx: Fixtures, owner: Caller | 'prospero') => {
  const token = `c0ffee${(++viewCount).toString(16).padStart(4, '0')}`;
  await fx.created(owner, kind === 'apns' ? '/users/me/apns_device_token' : '/users/me/android_gcm_reg_id', { token, ...(kind === 'apns' ? { appid: 'org.zulip.Zulip' } : {}) });
  return token;
};
const TOKEN_MISSING = bad('Token does not exist');
/**
 * A change to a user group, on the caller's own group and on another user's (prospero's). The
 * creator manages the group; the owner manages every group; `memberOnly` routes refuse guests
 * before anything else (Zulip's require_member_or_admin).
 */
function groupRows(method: HttpMethod, route: string, build: (id: number, caller: Caller, fx: Fixtures) => RowRequest | Promise<RowRequest>, memberOnly: boolean): MatrixRow[] {
  const guestRefusal = memberOnly ? NOT_FOR_GUESTS : NO_PERMISSION;
  return [
    {
      method, route, target: 'own group',
      request: async (fx, caller) => build(await fx.group(caller), caller, fx),
      expect: outcomes((c) => (GUESTS.includes(c) ? guestRefusal : OK)),
    },
    {
      method, route, target: "another user's group",
      request: async (fx, caller) => build(await fx.group('prospero'), caller, fx),
      expect: outcomes((c) => (GUESTS.includes(c) ? guestRefusal : c === 'desdemona' ? OK : NO_PERMISSION)),
    },
  ];
}

/** Who administers a place: organization administrators, and the creator (hamlet made the garden). */
const administers = (caller: Caller, place: Place) => ADMINS.includes(caller) || (place === 'garden' && caller === 'hamlet');
const CANNOT_ADMINISTER = bad('You do not have permission to administer this channel.');
/** Refusal of channel administration: the reason to those who read the channel, an unknown id to the others. */
const adminRefusal = (caller: UserCaller, place: Place) => (readsChannel(caller, place) ? CANNOT_ADMINISTER : INVALID_CHANNEL);
/**
 * Channel administration, default channels, channel folders and organization settings. Requests
 * that would change fixtures other rows need are no-ops (a value already set) or are not driven
 * for those who would succeed (archiving).
 */
const channelAdminRows: MatrixRow[] = [
  ...channelRows('PATCH', '/streams/{stream_id:int}', (fx, place) => ({ path: `/streams/${fx.channelId(place)}`, params: { topics_policy: 'inherit' } }),
    () => OK, adminRefusal, (c, place) => administers(c, place)),
  ...CHANNEL_TARGETS.map((place): MatrixRow => ({
    method: 'DELETE',
    route: '/streams/{stream_id:int}',
    target: `channel ${PLACES[place].name}`,
    place,
    request: (fx) => ({ path: `/streams/${fx.channelId(place)}` }),
    expect: outcomes((c) => (administers(c, place) ? SKIP : adminRefusal(c, place))),
  })),
  ...channelRows('POST', '/streams/{stream_id:int}/delete_topic', (fx, place) => ({ path: `/streams/${fx.channelId(place)}/delete_topic`, params: { topic_name: 'a topic nobody wrote' } }),
    () => OK, (c) => (ADMINS.includes(c) ? INVALID_CHANNEL : NOT_ADMIN), (c, place) => ADMINS.includes(c) && readsChannel(c, place)),
  ...channelRows('GET', '/streams/{stream_id:int}/members', (fx, place) => ({ path: `/streams/${fx.channelId(place)}/members` }), () => OK, () => INVALID_CHANNEL, knowsChannel),
  ...channelRows('GET', '/streams/{stream_id:int}/email_address', (fx, place) => ({ path: `/streams/${fx.channelId(place)}/email_address` }), () => OK, () => INVALID_CHANNEL, knowsChannel),
  ...channelRows('GET', '/users/{user_id:int}/subscriptions/{stream_id:int}', (fx, place) => ({ path: `/users/${fx.userId('othello')}/subscriptions/${fx.channelId(place)}` }), () => OK, () => INVALID_CHANNEL, knowsChannel),
  ...channelRows('POST', '/default_streams', (fx, place) => ({ path: '/default_streams', params: { stream_id: fx.channelId(place) } }),
    (_c, place) => (PLACES[place].private ? bad('Private channels cannot be made default.') : OK),
    (c) => (ADMINS.includes(c) ? INVALID_CHANNEL : NOT_ADMIN), (c, place) => ADMINS.includes(c) && readsChannel(c, place))
    .filter((row) => row.place !== 'scotland'),
  ...channelRows('DELETE', '/default_streams', (fx, place) => ({ path: '/default_streams', params: { stream_id: fx.channelId(place) } }),
    () => OK, (c) => (ADMINS.includes(c) ? INVALID_CHANNEL : NOT_ADMIN), (c, place) => ADMINS.includes(c) && knowsChannel(c, place))
    .filter((row) => row.place !== 'scotland'),
  { method: 'POST', route: '/channel_folders/create', target: '-', request: (_fx, caller) => ({ path: '/channel_folders/create', params: { name: `matrix folder of ${caller}`, description: '' } }), expect: adminsOnly(NOT_ADMIN) },
  { method: 'GET', route: '/channel_folders', target: '-', request: () => ({ path: '/channel_folders', params: { include_archived: true } }), expect: everyone(OK) },
  { method: 'PATCH', route: '/channel_folders', target: '- (an order naming no folder)', request: () => ({ path: '/channel_folders', params: { order: [] } }), expect: outcomes((c) => (ADMINS.includes(c) ? bad('Invalid order mapping.') : NOT_ADMIN)) },
  { method: 'PATCH', route: '/channel_folders/{channel_folder_id:int}', target: 'a folder that does not exist', request: () => ({ path: '/channel_folders/999999', params: { name: 'x' } }), expect: outcomes((c) => (ADMINS.includes(c) ? bad('Invalid channel folder ID') : NOT_ADMIN)) },
  { method: 'PATCH', route: '/realm', target: '- (the name it has)', request: () => ({ path: '/realm', params: { name: 'Parley Demo' } }), expect: adminsOnly(NOT_ADMIN) },
  { method: 'PATCH', route: '/realm/user_settings_defaults', target: '- (a default it has)', request: () => ({ path: '/realm/user_settings_defaults', params: { enter_sends: false } }), expect: adminsOnly(NOT_ADMIN) },
  { method: 'POST', route: '/realm/test_welcome_bot_custom_message', target: 'own', request: () => ({ path: '/realm/test_welcome_bot_custom_message', params: { welcome_message_custom_text: 'Welcome from the matrix' }, says: 'Welcome from the matrix' }), expect: adminsOnly(NOT_ADMIN) },
];
/** Rows about a bot of prospero's, made fresh for each row: its owner's business and the administrators'. */
let matrixBots = 0;
function botRows(method: HttpMethod, route: string, build: (id: number) => RowRequest): MatrixRow[] {
  const bot = async (fx: Fixtures) => (await fx.created('prospero', '/bots', { full_name: `Matrix Bot ${++matrixBots}`, short_name: `matrix${matrixBots}` })).user_id as number;
  return [{ method, route, target: "another user's bot", request: async (fx) => build(await bot(fx)), expect: adminsOnly(NO_PERMISSION) }];
}
const adminsOnlyOr = (admins: Outcome, others: Outcome) => outcomes((c) => (ADMINS.includes(c) ? admins : others));
const PRESENCE_MISSING: Outcome = { status: 400, code: 'BAD_REQUEST' };
let linkifierCount = 0;
const newLinkifier = () => ({ pattern: `MX${++linkifierCount}-(?P<id>[0-9]+)`, url_template: 'https://tracker.example.com/{id}' });
const newPlayground = () => ({ name: `Matrix playground ${++linkifierCount}`, pygments_language: 'Python', url_template: 'https://play.example.com/?code={code}' });

/** Issue 24, part C: message tools, submessages, linkifiers and code playgrounds. */
const ISSUE_24C_ROWS: MatrixRow[] = [
  // A preview renders as the caller; nothing is stored.
  { method: 'POST', route: '/messages/render', target: '-', request: () => ({ path: '/messages/render', params: { content: 'a **matrix** preview' } }), expect: everyone(OK) },
  // Which of some messages match a narrow: those the caller did not receive are left out, never refused.
  ...MESSAGE_TARGETS.map((target): MatrixRow => ({
    method: 'GET',
    route: '/messages/matches_narrow',
    target: `${target} message`,
    request: (fx, caller) => ({ path: '/messages/matches_narrow', params: { msg_ids: [existingMessage(fx, caller, target)], narrow: [] } }),
    expect: everyone(OK),
  })),
  // Typing an edit: only who may edit the message's content.
  ...messageRows(
    'POST',
    '/messages/{message_id:int}/typing',
    (id) => ({ path: `/messages/${id}/typing`, params: { op: 'start' } }),
    (c, target) => (authorOf(c, target) ? OK : bad("You don't have permission to edit this message")),
    true,
  ),
  // A submessage on a message one may read: the message's sender attaches the first.
  ...messageRows(
    'POST',
    '/submessage',
    (id) => ({ path: '/submessage', params: { message_id: id, msg_type: 'widget', content: '{"type": "vote", "key": "canned,0", "vote": 1}' } }),
    (c, target) => (authorOf(c, target) ? OK : bad('You cannot attach a submessage to this message.')),
    true,
  ),
  // Linkifiers and code playgrounds: anyone reads them, administrators change them.
  { method: 'GET', route: '/realm/linkifiers', target: '-', request: () => ({ path: '/realm/linkifiers' }), expect: everyone(OK) },
  { method: 'POST', route: '/realm/filters', target: '-', request: () => ({ path: '/realm/filters', params: newLinkifier() }), expect: adminsOnly(NOT_ADMIN) },
  {
    method: 'PATCH',
    route: '/realm/filters/{filter_id:int}',
    target: 'a linkifier',
    request: async (fx) => ({ path: `/realm/filters/${(await fx.created('desdemona', '/realm/filters', newLinkifier())).id}`, params: newLinkifier() }),
    expect: adminsOnly(NOT_ADMIN),
  },
  {
    method: 'DELETE',
    route: '/realm/filters/{filter_id:int}',
    target: 'a linkifier',
    request: async (fx) => ({ path: `/realm/filters/${(await fx.created('desdemona', '/realm/filters', newLinkifier())).id}` }),
    expect: adminsOnly(NOT_ADMIN),
  },
  {
    method: 'PATCH',
    route: '/realm/linkifiers',
    target: 'an order naming an unknown linkifier',
    request: () => ({ path: '/realm/linkifiers', params: { ordered_linkifier_ids: [999999] } }),
    expect: outcomes((c) => (ADMINS.includes(c) ? bad('The ordered list must enumerate all existing linkifiers exactly once') : NOT_ADMIN)),
  },
  { method: 'POST', route: '/realm/playgrounds', target: '-', request: () => ({ path: '/realm/playgrounds', params: newPlayground() }), expect: adminsOnly(NOT_ADMIN) },
  {
    method: 'DELETE',
    route: '/realm/playgrounds/{playground_id:int}',
    target: 'a playground',
    request: async (fx) => ({ path: `/realm/playgrounds/${(await fx.created('desdemona', '/realm/playgrounds', newPlayground())).id}` }),
    expect: adminsOnly(NOT_ADMIN),
  },
];

export const MATRIX: MatrixRow[] = [
  // Authentication and public routes: credentials are not looked at.
  {
    method: 'POST',
    route: '/fetch_api_key',
    target: 'own credentials',
    request: (fx, caller) => ({
      path: '/fetch_api_key',
      params: { username: fx.email(caller), password: caller === 'wrongKey' ? 'not-the-password' : 'parley-demo' },
    }),
    // Not an authenticated view: Zulip answers its own codes here, whatever the REST API's wrapping.
    expect: outcomes(() => OK, { deactivated: { status: 401, code: 'USER_DEACTIVATED', msg: 'Account is deactivated' }, wrongKey: { status: 401, code: 'AUTHENTICATION_FAILED', msg: 'Your username or password is incorrect' }, none: OK }),
  },
  { method: 'GET', route: '/server_settings', target: '-', request: () => ({ path: '/server_settings' }), expect: outcomes(() => OK, { deactivated: OK, wrongKey: OK, none: OK }) },

  // Users: anyone may list and read; only administrators change someone.
  { method: 'GET', route: '/users', target: '-', request: () => ({ path: '/users' }), expect: everyone(OK) },
  { method: 'GET', route: '/users/me', target: 'own', request: () => ({ path: '/users/me' }), expect: everyone(OK) },
  { method: 'GET', route: '/users/{user_id:int}', target: 'another user', request: (fx) => ({ path: `/users/${fx.userId('prospero')}` }), expect: everyone(OK) },
  { method: 'GET', route: '/users/{email:email}', target: 'another user', request: (fx) => ({ path: `/users/${fx.email('prospero')}` }), expect: everyone(OK) },
  {
    method: 'PATCH',
    route: '/users/{user_id:int}',
    target: 'another user',
    request: (fx) => ({ path: `/users/${fx.userId('prospero')}`, params: { full_name: 'Prospero from The Tempest' } }),
    expect: adminsOnly(NO_PERMISSION),
  },
  {
    method: 'PATCH',
    route: '/users/{user_id:int}',
    target: 'own',
    request: (fx, caller) => ({ path: `/users/${fx.userId(caller)}`, params: { full_name: `${caller} renamed` } }),
    expect: adminsOnly(NO_PERMISSION),
  },
  {
    method: 'PATCH',
    route: '/users/{user_id:int}',
    target: "the owner's role",
    request: (fx) => ({ path: `/users/${fx.userId('desdemona')}`, params: { role: 400 } }),
    expect: outcomes((c) => (c === 'desdemona' ? bad('The owner permission cannot be removed from the only organization owner.') : c === 'iago' ? bad('Must be an organization owner') : NO_PERMISSION)),
  },
  {
    method: 'PATCH',
    route: '/users/{email:email}',
    target: 'another user',
    request: (fx) => ({ path: `/users/${fx.email('prospero')}`, params: { full_name: 'Prospero from The Tempest' } }),
    expect: adminsOnly(NO_PERMISSION),
  },
  {
    method: 'PATCH',
    route: '/users/{user_id:int}',
    target: "another user's profile data",
    request: (fx) => ({ path: `/users/${fx.userId('prospero')}`, params: { profile_data: [{ id: fx.profileField, value: 'set by an admin' }] } }),
    expect: adminsOnly(NO_PERMISSION),
  },
  // Deactivating prospero would change the fixtures: the administrators' cells are driven in deactivation.test.ts.
  {
    method: 'DELETE',
    route: '/users/{user_id:int}',
    target: 'another user',
    request: (fx) => ({ path: `/users/${fx.userId('prospero')}` }),
    expect: outcomes((c) => (ADMINS.includes(c) ? SKIP : NO_PERMISSION)),
  },
  {
    method: 'DELETE',
    route: '/users/{user_id:int}',
    target: 'the only owner',
    request: (fx) => ({ path: `/users/${fx.userId('desdemona')}` }),
    expect: outcomes((c) => (c === 'desdemona' ? bad('Cannot deactivate the only organization owner') : c === 'iago' ? bad('Must be an organization owner') : NO_PERMISSION)),
  },
  {
    method: 'POST',
    route: '/users/{user_id:int}/reactivate',
    target: 'an active user',
    // Reactivating an active user changes nothing (and succeeds, as in Zulip).
    request: (fx) => ({ path: `/users/${fx.userId('prospero')}/reactivate` }),
    expect: adminsOnly(NO_PERMISSION),
  },
  {
    method: 'DELETE',
    route: '/users/me',
    target: 'own',
    request: () => ({ path: '/users/me' }),
    expect: outcomes((c) => (c === 'desdemona' ? { status: 400, code: 'CANNOT_DEACTIVATE_LAST_USER', msg: 'Cannot deactivate the only organization owner' } : SKIP)),
  },
  // A new key would lock the caller out of the rows after this one: driven in api-keys.test.ts.
  { method: 'POST', route: '/users/me/api_key/regenerate', target: 'own', request: () => ({ path: '/users/me/api_key/regenerate' }), expect: outcomes(() => SKIP) },

  // Custom profile fields: anyone reads them and sets their own values; administrators define them.
  { method: 'GET', route: '/realm/profile_fields', target: '-', request: () => ({ path: '/realm/profile_fields' }), expect: everyone(OK) },
  {
    method: 'POST',
    route: '/realm/profile_fields',
    target: '-',
    request: (_fx, caller) => ({ path: '/realm/profile_fields', params: { name: `Made by ${caller}`, field_type: 1 } }),
    expect: adminsOnly(NOT_ADMIN),
  },
  {
    method: 'PATCH',
    route: '/realm/profile_fields',
    target: '-',
    request: (fx) => ({ path: '/realm/profile_fields', params: { order: [...fx.profileFieldIds()].reverse() } }),
    expect: adminsOnly(NOT_ADMIN),
  },
  {
    method: 'PATCH',
    route: '/realm/profile_fields/{field_id:int}',
    target: 'a field',
    request: (fx) => ({ path: `/realm/profile_fields/${fx.profileField}`, params: { hint: 'changed by the matrix' } }),
    expect: adminsOnly(NOT_ADMIN),
  },
  {
    method: 'DELETE',
    route: '/realm/profile_fields/{field_id:int}',
    target: 'a field',
    request: async (fx) => ({ path: `/realm/profile_fields/${await fx.freshProfileField()}` }),
    expect: adminsOnly(NOT_ADMIN),
  },
  {
    method: 'PATCH',
    route: '/users/me/profile_data',
    target: 'own',
    request: (fx, caller) => ({ path: '/users/me/profile_data', params: { data: [{ id: fx.profileField, value: `${caller}'s value` }] } }),
    expect: everyone(OK),
  },
  {
    method: 'DELETE',
    route: '/users/me/profile_data',
    target: 'own',
    request: (fx) => ({ path: '/users/me/profile_data', params: { data: [fx.profileField] } }),
    expect: everyone(OK),
  },
  {
    method: 'POST',
    route: '/users',
    target: '-',
    request: (_fx, caller) => ({ path: '/users', params: { email: `new-${caller}@example.com`, password: 'a-long-password', full_name: `New ${caller}` } }),
    expect: adminsOnly(NO_PERMISSION),
  },

  // Channels: metadata for those who know of the channel (administrators know every one).
  { method: 'GET', route: '/streams', target: '-', request: () => ({ path: '/streams' }), expect: everyone(OK) },
  ...channelRows('GET', '/streams/{stream_id:int}', (fx, place) => ({ path: `/streams/${fx.channelId(place)}` }), () => OK, () => INVALID_CHANNEL, knowsChannel),
  ...channelRows('GET', '/get_stream_id', (_fx, place) => ({ path: '/get_stream_id', params: { stream: PLACES[place].name } }), () => OK, (_c, place) => bad(`Invalid channel name '${PLACES[place].name}'`), knowsChannel),
  ...channelRows('GET', '/users/me/{stream_id:int}/topics', (fx, place) => ({ path: `/users/me/${fx.channelId(place)}/topics` }), () => OK, () => INVALID_CHANNEL),

  // Event queues: one's own only.
  { method: 'POST', route: '/register', target: '-', request: () => ({ path: '/register' }), expect: everyone(OK) },
  { method: 'GET', route: '/events', target: 'own queue', request: async (fx, caller) => ({ path: '/events', params: { queue_id: await fx.freshQueue(caller), last_event_id: -1, dont_block: true } }), expect: everyone(OK) },
  {
    method: 'GET',
    route: '/events',
    target: "another user's queue",
    request: (fx) => ({ path: '/events', params: { queue_id: fx.othersQueue, last_event_id: -1, dont_block: true } }),
    expect: outcomes((c) => (c === 'othello' ? OK : { status: 400, code: 'BAD_EVENT_QUEUE_ID' })),
  },
  { method: 'DELETE', route: '/events', target: 'own queue', request: async (fx, caller) => ({ path: '/events', params: { queue_id: await fx.freshQueue(caller) } }), expect: everyone(OK) },
  {
    method: 'DELETE',
    route: '/events',
    target: "another user's queue",
    // othello comes last among the users, so his own queue stays for the rows before.
    request: (fx) => ({ path: '/events', params: { queue_id: fx.othersQueue } }),
    expect: outcomes((c) => (c === 'othello' ? OK : { status: 400, code: 'BAD_EVENT_QUEUE_ID' })),
  },

  // Reading messages.
  ...channelRows('GET', '/messages', (fx, place) => ({ path: '/messages', params: { anchor: 'newest', num_before: 100, num_after: 0, narrow: narrowTo(fx, place) } }), () => OK, () => OK),
  {
    method: 'GET',
    route: '/messages',
    target: "another pair's DM",
    request: (fx) => ({ path: '/messages', params: { anchor: 'newest', num_before: 100, num_after: 0, narrow: [{ operator: 'dm', operand: [fx.userId('shiva'), fx.userId('othello')] }] } }),
    expect: everyone(OK),
  },
  {
    method: 'GET',
    route: '/messages',
    target: 'message ids of every target',
    request: (fx, caller) => ({ path: '/messages', params: { message_ids: [fx.ownMessage(caller), fx.othersMessage, fx.messageIn('coreTeam'), fx.messageIn('moderation'), fx.messageIn('garden'), fx.messageIn('dm')] } }),
    expect: everyone(OK),
  },
  ...messageRows('GET', '/messages/{message_id:int}', (id) => ({ path: `/messages/${id}` }), () => OK),
  // A channel link written by someone who cannot read the channel stays plain text (no id, no link).
  {
    method: 'GET',
    route: '/messages/{message_id:int}',
    target: 'a Verona message by hamlet linking #**core team**',
    request: async (fx) => ({
      path: `/messages/${await fx.send('hamlet', { type: 'stream', to: fx.channelId('verona'), topic: 'matrix', content: 'see #**core team**' })}`,
      says: 'core team',
    }),
    expect: everyone(OK),
  },
  ...messageRows('GET', '/messages/{message_id:int}/history', (id) => ({ path: `/messages/${id}/history` }), () => OK),
  ...messageRows('GET', '/messages/{message_id:int}/read_receipts', (id) => ({ path: `/messages/${id}/read_receipts` }), () => OK),

  // Flags.
  ...messageRows('POST', '/messages/flags', (id) => ({ path: '/messages/flags', params: { op: 'add', flag: 'starred', messages: [id] } }), () => OK),
  ...messageRows('POST', '/messages/flags', (id) => ({ path: '/messages/flags', params: { op: 'remove', flag: 'read', messages: [id] } }), () => OK),
  ...channelRows('POST', '/messages/flags/narrow', (fx, place) => ({ path: '/messages/flags/narrow', params: { op: 'remove', flag: 'read', anchor: 'newest', num_before: 10, num_after: 0, narrow: narrowTo(fx, place) } }), () => OK, () => OK),
  { method: 'POST', route: '/mark_all_as_read', target: '-', request: () => ({ path: '/mark_all_as_read' }), expect: everyone(OK) },
  ...channelRows('POST', '/mark_stream_as_read', (fx, place) => ({ path: '/mark_stream_as_read', params: { stream_id: fx.channelId(place) } }), () => OK, () => INVALID_CHANNEL),
  ...channelRows('POST', '/mark_topic_as_read', (fx, place) => ({ path: '/mark_topic_as_read', params: { stream_id: fx.channelId(place), topic_name: 'matrix' } }), () => OK, () => INVALID_CHANNEL),

  // Sending, editing, deleting.
  ...sendingRows('/messages'),
  ...messageRows(
    'PATCH',
    '/messages/{message_id:int}',
    (id) => ({ path: `/messages/${id}`, params: { content: 'edited by the matrix' } }),
    (c, target) => (authorOf(c, target) ? OK : bad("You don't have permission to edit this message")),
    true,
  ),
  // Moving to another topic: everyone may (can_move_messages_between_topics_group), in what they may read.
  ...messageRows(
    'PATCH',
    '/messages/{message_id:int}',
    (id) => ({ path: `/messages/${id}`, params: { topic: 'matrix moved', propagate_mode: 'change_one' } }),
    (_c, target) => (target === 'dm' ? bad('Direct messages cannot have topics.') : OK),
    true,
  ),
  // Moving into a private channel: those who lose access get `delete_message`, never the new channel's id.
  {
    method: 'PATCH',
    route: '/messages/{message_id:int}',
    target: 'own message into a private channel one is in',
    request: async (fx, caller) => ({ path: `/messages/${await fx.freshMessage('own', caller)}`, params: { stream_id: fx.channelId(privateHomeOf(caller)), propagate_mode: 'change_one' } }),
    expect: outcomes((c) => (GUESTS.includes(c) ? bad("You don't have permission to move this message") : OK)),
  },
  ...messageRows(
    'DELETE',
    '/messages/{message_id:int}',
    (id) => ({ path: `/messages/${id}` }),
    (c, target) => (authorOf(c, target) || ADMINS.includes(c) ? OK : bad("You don't have permission to delete this message")),
    true,
  ),

  // Scheduled messages and reminders: one sees and changes only one's own.
  { method: 'GET', route: '/scheduled_messages', target: 'own', request: () => ({ path: '/scheduled_messages' }), expect: everyone(OK) },
  ...sendingRows('/scheduled_messages', { scheduled_delivery_timestamp: FAR_FUTURE }),
  ...scheduledRows('PATCH', '/scheduled_messages/{scheduled_message_id:int}', 'message', (id) => ({ path: `/scheduled_messages/${id}`, params: { content: 'edited by the matrix' } })),
  ...scheduledRows('DELETE', '/scheduled_messages/{scheduled_message_id:int}', 'message', (id) => ({ path: `/scheduled_messages/${id}` })),
  { method: 'GET', route: '/reminders', target: 'own', request: () => ({ path: '/reminders' }), expect: everyone(OK) },
  ...messageRows('POST', '/reminders', (id) => ({ path: '/reminders', params: { message_id: id, scheduled_delivery_timestamp: FAR_FUTURE } }), () => OK),
  ...scheduledRows('DELETE', '/reminders/{reminder_id:int}', 'reminder', (id) => ({ path: `/reminders/${id}` })),

  // Invitations: anyone but guests invites (can_invite_users_group), to channels they may read;
  // links are the administrators' (create_multiuse_invite_group); one manages one's own, administrators all.
  { method: 'GET', route: '/invites', target: 'own (all for administrators)', request: () => ({ path: '/invites' }), expect: outcomes((c) => (GUESTS.includes(c) ? NOT_FOR_GUESTS : OK)) },
  {
    method: 'POST',
    route: '/invites',
    target: '-',
    request: (_fx, caller) => ({ path: '/invites', params: { invitee_emails: `invited-by-${caller}@example.com`, stream_ids: [] } }),
    expect: outcomes((c) => (GUESTS.includes(c) ? NOT_FOR_GUESTS : OK)),
  },
  ...CHANNEL_TARGETS.map((place): MatrixRow => ({
    method: 'POST',
    route: '/invites',
    target: `channel ${PLACES[place].name}`,
    place,
    request: (fx, caller) => ({ path: '/invites', params: { invitee_emails: `invited-to-${place}-by-${caller}@example.com`, stream_ids: [fx.channelId(place)] } }),
    expect: outcomes((c) => (GUESTS.includes(c) ? NOT_FOR_GUESTS : readsChannel(c, place) ? OK : bad('Invalid channel ID {channel_id}. No invites were sent.'))),
  })),
  ...CHANNEL_TARGETS.map((place): MatrixRow => ({
    method: 'POST',
    route: '/invites/multiuse',
    target: `channel ${PLACES[place].name}`,
    place,
    request: (fx) => ({ path: '/invites/multiuse', params: { stream_ids: [fx.channelId(place)] } }),
    expect: outcomes((c) => (GUESTS.includes(c) ? NOT_FOR_GUESTS : !ADMINS.includes(c) ? NO_PERMISSION : readsChannel(c, place) ? OK : bad('Invalid channel ID {channel_id}. No invites were sent.'))),
  })),
  ...(['DELETE', 'POST'] as const).flatMap((method): MatrixRow[] => {
    const path = (id: number) => (method === 'DELETE' ? `/invites/${id}` : `/invites/${id}/resend`);
    const route = method === 'DELETE' ? '/invites/{invite_id:int}' : '/invites/{invite_id:int}/resend';
    return [
      { method, route, target: 'own invitation', request: async (fx, caller) => ({ path: path(await fx.invitation(caller, 'email')) }), expect: outcomes((c) => (GUESTS.includes(c) ? NOT_FOR_GUESTS : OK)) },
      {
        method,
        route,
        target: "another user's invitation",
        request: async (fx) => ({ path: path(await fx.invitation('prospero', 'email')) }),
        expect: outcomes((c) => (GUESTS.includes(c) ? NOT_FOR_GUESTS : ADMINS.includes(c) ? OK : bad('Must be an organization administrator'))),
      },
    ];
  }),
  {
    method: 'DELETE',
    route: '/invites/multiuse/{invite_id:int}',
    target: "iago's link",
    request: async (fx) => ({ path: `/invites/multiuse/${await fx.invitation('iago', 'multiuse')}` }),
    expect: outcomes((c) => (GUESTS.includes(c) ? NOT_FOR_GUESTS : ADMINS.includes(c) ? OK : bad('Must be an organization administrator'))),
  },

  // Reactions and reports.
  ...messageRows('POST', '/messages/{message_id:int}/reactions', (id) => ({ path: `/messages/${id}/reactions`, params: { emoji_name: 'octopus' } }), () => OK, true),
  ...messageRows('DELETE', '/messages/{message_id:int}/reactions', (id) => ({ path: `/messages/${id}/reactions`, params: { emoji_name: 'octopus' } }), () => ({ status: 400, code: 'REACTION_DOES_NOT_EXIST', msg: "Reaction doesn't exist." })),
  // Reporting copies the message into the moderation channel (Zulip's send_message_report): a report of a
  // private message by one who may read it is left out, or moderators outside it would rightly see its text.
  ...messageRows('POST', '/messages/{message_id:int}/report', (id) => ({ path: `/messages/${id}/report`, params: { report_type: 'spam' } }), (_c, target) => (target === 'own' || target === 'others' ? OK : SKIP)),

  // Presence and typing.
  { method: 'POST', route: '/users/me/presence', target: 'own', request: () => ({ path: '/users/me/presence', params: { status: 'active' } }), expect: everyone(OK) },
  ...channelRows('POST', '/typing', (fx, place) => ({ path: '/typing', params: { type: 'stream', op: 'start', stream_id: fx.channelId(place), topic: 'matrix' } }), () => OK, () => INVALID_CHANNEL),
  { method: 'POST', route: '/typing', target: 'a DM to another user', request: (fx) => ({ path: '/typing', params: { type: 'direct', op: 'start', to: [fx.userId('prospero')] } }), expect: everyone(OK) },

  // Subscriptions: one's own.
  { method: 'GET', route: '/users/me/subscriptions', target: 'own', request: () => ({ path: '/users/me/subscriptions' }), expect: everyone(OK) },
  ...channelRows(
    'POST',
    '/users/me/subscriptions/properties',
    (fx, place) => ({ path: '/users/me/subscriptions/properties', params: { subscription_data: [{ stream_id: fx.channelId(place), property: 'pin_to_top', value: false }] } }),
    () => OK,
    (c, place) => (readsChannel(c, place) ? bad('Not subscribed to channel ID {channel_id}') : INVALID_CHANNEL),
    isMember,
  ),
  ...channelRows('PATCH', '/users/me/subscriptions/muted_topics', (fx, place) => ({ path: '/users/me/subscriptions/muted_topics', params: { stream_id: fx.channelId(place), topic: 'matrix', op: 'add' } }), () => OK, () => INVALID_CHANNEL),
  ...channelRows('POST', '/user_topics', (fx, place) => ({ path: '/user_topics', params: { stream_id: fx.channelId(place), topic: 'matrix', visibility_policy: 0 } }), () => OK, () => INVALID_CHANNEL),
  // Only the private channels a caller may not join: a successful subscription would change who is in them.
  ...PRIVATE_PLACES.map((place): MatrixRow => ({
    method: 'POST',
    route: '/users/me/subscriptions',
    target: `channel ${PLACES[place].name}`,
    request: () => ({ path: '/users/me/subscriptions', params: { subscriptions: [{ name: PLACES[place].name }] } }),
    expect: outcomes((c) => (GUESTS.includes(c) ? NOT_FOR_GUESTS : isMember(c, place) ? OK : bad(`Unable to access channel (${PLACES[place].name}).`))),
  })),
  {
    method: 'POST',
    route: '/users/me/subscriptions',
    target: 'another user into a private channel one is in',
    // prospero is no caller: adding him changes nobody's access among the callers.
    request: (fx, caller) => ({ path: '/users/me/subscriptions', params: { subscriptions: [{ name: PLACES[privateHomeOf(caller)].name }], principals: [fx.userId('prospero')] } }),
    expect: outcomes((c) => (GUESTS.includes(c) ? NOT_FOR_GUESTS : OK)),
  },
  {
    method: 'POST',
    route: '/users/me/subscriptions',
    target: 'another user into Scotland',
    request: (fx) => ({ path: '/users/me/subscriptions', params: { subscriptions: [{ name: 'Scotland' }], principals: [fx.userId('prospero')] } }),
    expect: outcomes((c) => (GUESTS.includes(c) ? NOT_FOR_GUESTS : OK)),
  },
  ...PRIVATE_PLACES.map((place): MatrixRow => ({
    method: 'DELETE',
    route: '/users/me/subscriptions',
    target: `channel ${PLACES[place].name}`,
    // Unsubscribing from a channel one is in would change the fixtures: only those outside ask. As Zulip,
    // they are told it was not removed: the name they gave, nothing more.
    request: () => ({ path: '/users/me/subscriptions', params: { subscriptions: [PLACES[place].name] } }),
    expect: outcomes((c) => (isMember(c, place) ? SKIP : OK)),
  })),
  {
    method: 'PATCH',
    route: '/users/me/subscriptions',
    target: 'channel core team',
    request: () => ({ path: '/users/me/subscriptions', params: { add: [{ name: 'core team' }] } }),
    expect: outcomes((c) => (GUESTS.includes(c) ? NOT_FOR_GUESTS : isMember(c, 'coreTeam') ? OK : bad('Unable to access channel (core team).'))),
  },

  // Drafts, navigation views, saved snippets, push devices: one's own only; another's is missing.
  { method: 'GET', route: '/drafts', target: 'own', request: () => ({ path: '/drafts' }), expect: everyone(OK) },
  ...channelRows('POST', '/drafts', (fx, place) => ({ path: '/drafts', params: { drafts: [{ type: 'stream', to: [fx.channelId(place)], topic: 'matrix', content: 'a draft' }] } }), () => OK, () => INVALID_CHANNEL),
  { method: 'POST', route: '/drafts', target: 'a DM to another user', request: (fx) => ({ path: '/drafts', params: { drafts: [{ type: 'private', to: [fx.userId('prospero')], topic: '', content: 'a draft' }] } }), expect: everyone(OK) },
  ...personalRows('PATCH', '/drafts/{draft_id:int}', 'draft', newDraft, (id) => ({ path: `/drafts/${id}`, params: { draft: { type: '', to: [], topic: '', content: 'edited by the matrix' } } }), DRAFT_MISSING),
  ...personalRows('DELETE', '/drafts/{draft_id:int}', 'draft', newDraft, (id) => ({ path: `/drafts/${id}` }), DRAFT_MISSING),
  { method: 'GET', route: '/navigation_views', target: 'own', request: () => ({ path: '/navigation_views' }), expect: everyone(OK) },
  { method: 'POST', route: '/navigation_views', target: 'own', request: () => ({ path: '/navigation_views', params: { fragment: 'recent', is_pinned: false } }), expect: everyone(OK) },
  { method: 'PATCH', route: '/navigation_views/{fragment:path}', target: 'a built-in view', request: () => ({ path: '/navigation_views/narrow/is/starred', params: { is_pinned: false } }), expect: everyone(OK) },
  ...personalRows('PATCH', '/navigation_views/{fragment:path}', 'custom view', newView, (fragment) => ({ path: `/navigation_views/${fragment}`, params: { is_pinned: false } }), { status: 404, code: 'NOT_FOUND', msg: 'Navigation view does not exist.' }),
  ...personalRows('DELETE', '/navigation_views/{fragment:path}', 'custom view', newView, (fragment) => ({ path: `/navigation_views/${fragment}` }), { status: 404, code: 'NOT_FOUND', msg: 'Navigation view does not exist.' }),
  { method: 'GET', route: '/saved_snippets', target: 'own', request: () => ({ path: '/saved_snippets' }), expect: everyone(OK) },
  { method: 'POST', route: '/saved_snippets', target: 'own', request: () => ({ path: '/saved_snippets', params: { title: 'matrix', content: 'a snippet' } }), expect: everyone(OK) },
  ...personalRows('PATCH', '/saved_snippets/{saved_snippet_id:int}', 'snippet', newSnippet, (id) => ({ path: `/saved_snippets/${id}`, params: { title: 'edited by the matrix' } }), SNIPPET_MISSING),
  ...personalRows('DELETE', '/saved_snippets/{saved_snippet_id:int}', 'snippet', newSnippet, (id) => ({ path: `/saved_snippets/${id}` }), SNIPPET_MISSING),
  // The matrix's server has no push bouncer configured.
  {
    method: 'POST',
    route: '/mobile_push/register',
    target: 'own device',
    request: () => ({ path: '/mobile_push/register', params: { token_kind: 'fcm', push_account_id: 1, push_public_key: 'a2V5', bouncer_public_key: 'key', encrypted_push_registration: 'cmVn' } }),
    expect: everyone({ status: 400, code: 'PUSH_SERVICE_NOT_CONFIGURED', msg: 'Server is not configured to use push notification service.' }),
  },
  { method: 'POST', route: '/users/me/apns_device_token', target: 'own device', request: () => ({ path: '/users/me/apns_device_token', params: { token: 'c0ffee', appid: 'org.zulip.Zulip' } }), expect: everyone(OK) },
  { method: 'POST', route: '/users/me/android_gcm_reg_id', target: 'own device', request: () => ({ path: '/users/me/android_gcm_reg_id', params: { token: 'android-token' } }), expect: everyone(OK) },
  ...personalRows('DELETE', '/users/me/apns_device_token', 'token', newToken('apns'), (token) => ({ path: '/users/me/apns_device_token', params: { token } }), TOKEN_MISSING),
  ...personalRows('DELETE', '/users/me/android_gcm_reg_id', 'token', newToken('fcm'), (token) => ({ path: '/users/me/android_gcm_reg_id', params: { token } }), TOKEN_MISSING),
  { method: 'POST', route: '/mobile_push/test_notification', target: 'all own devices', request: () => ({ path: '/mobile_push/test_notification' }), expect: everyone(OK) },
  ...personalRows('POST', '/mobile_push/test_notification', 'token', newToken('fcm'), (token) => ({ path: '/mobile_push/test_notification', params: { token } }), { status: 400, code: 'INVALID_PUSH_DEVICE_TOKEN', msg: 'Device not recognized' }),
  // User groups: members and administrators read them; a group is changed by whoever manages it
  // (its creator by default) or manages all groups (the owner by default); guests never.
  {
    method: 'POST',
    route: '/user_groups/create',
    target: '-',
    request: (_fx, caller) => ({ path: '/user_groups/create', params: { name: `made by ${caller}`, description: '', members: [] } }),
    expect: outcomes((c) => (GUESTS.includes(c) ? NO_PERMISSION : OK)),
  },
  { method: 'GET', route: '/user_groups', target: '-', request: () => ({ path: '/user_groups' }), expect: outcomes((c) => (GUESTS.includes(c) ? NOT_FOR_GUESTS : OK)) },
  ...groupRows('PATCH', '/user_groups/{user_group_id:int}', (id, caller) => ({ path: `/user_groups/${id}`, params: { description: `changed by ${caller}` } }), true),
  ...groupRows('POST', '/user_groups/{user_group_id:int}/deactivate', (id) => ({ path: `/user_groups/${id}/deactivate` }), false),
  ...groupRows('POST', '/user_groups/{user_group_id:int}/members', (id, _caller, fx) => ({ path: `/user_groups/${id}/members`, params: { add: [fx.userId('prospero')] } }), true),
  ...groupRows('POST', '/user_groups/{user_group_id:int}/subgroups', async (id, _caller, fx) => ({ path: `/user_groups/${id}/subgroups`, params: { add: [await fx.group('prospero')] } }), true),
  ...['/user_groups/{user_group_id:int}/members', '/user_groups/{user_group_id:int}/subgroups'].map((route): MatrixRow => ({
    method: 'GET',
    route,
    target: "another user's group",
    request: async (fx) => ({ path: route.replace('{user_group_id:int}', String(await fx.group('prospero'))) }),
    expect: outcomes((c) => (GUESTS.includes(c) ? NOT_FOR_GUESTS : OK)),
  })),
  {
    method: 'GET',
    route: '/user_groups/{user_group_id:int}/members/{user_id:int}',
    target: "another user's group",
    request: async (fx) => ({ path: `/user_groups/${await fx.group('prospero')}/members/${fx.userId('hamlet')}` }),
    expect: outcomes((c) => (GUESTS.includes(c) ? NOT_FOR_GUESTS : OK)),
  },
  // User status: one's own for everyone; another user's (and one's own by id) for administrators only, as the spec says.
  { method: 'POST', route: '/users/me/status', target: 'own', request: () => ({ path: '/users/me/status', params: { status_text: 'in the matrix' } }), expect: everyone(OK) },
  { method: 'POST', route: '/users/{user_id:int}/status', target: 'another user', request: (fx) => ({ path: `/users/${fx.userId('prospero')}/status`, params: { status_text: 'set by the matrix' } }), expect: adminsOnly(NO_PERMISSION) },
  { method: 'POST', route: '/users/{user_id:int}/status', target: 'own', request: (fx, caller) => ({ path: `/users/${fx.userId(caller)}/status`, params: { emoji_name: 'tada' } }), expect: adminsOnly(NO_PERMISSION) },
  { method: 'GET', route: '/users/{user_id:int}/status', target: 'another user', request: (fx) => ({ path: `/users/${fx.userId('prospero')}/status` }), expect: everyone(OK) },
  // Personal settings, alert words and muted users: only ever one's own.
  { method: 'PATCH', route: '/settings', target: 'own', request: () => ({ path: '/settings', params: { enter_sends: true } }), expect: everyone(OK) },
  { method: 'GET', route: '/users/me/alert_words', target: 'own', request: () => ({ path: '/users/me/alert_words' }), expect: everyone(OK) },
  { method: 'POST', route: '/users/me/alert_words', target: 'own', request: () => ({ path: '/users/me/alert_words', params: { alert_words: ['matrix'] } }), expect: everyone(OK) },
  { method: 'DELETE', route: '/users/me/alert_words', target: 'own', request: () => ({ path: '/users/me/alert_words', params: { alert_words: ['matrix'] } }), expect: everyone(OK) },
  { method: 'POST', route: '/users/me/muted_users/{muted_user_id:int}', target: 'own', request: (fx, caller) => ({ path: `/users/me/muted_users/${fx.userId(caller)}` }), expect: everyone(bad('Cannot mute self')) },
  // Cordelia (deactivated, and no caller's fixture sender) may be muted, then unmuted, by everyone.
  { method: 'POST', route: '/users/me/muted_users/{muted_user_id:int}', target: 'another user', request: (fx) => ({ path: `/users/me/muted_users/${fx.userId('cordelia')}` }), expect: everyone(OK) },
  { method: 'DELETE', route: '/users/me/muted_users/{muted_user_id:int}', target: 'another user', request: (fx) => ({ path: `/users/me/muted_users/${fx.userId('cordelia')}` }), expect: everyone(OK) },
  { method: 'DELETE', route: '/users/me/muted_users/{muted_user_id:int}', target: 'a user not muted', request: (fx) => ({ path: `/users/me/muted_users/${fx.userId('prospero')}` }), expect: everyone(bad('User is not muted')) },
  // Uploads (access to a file follows its messages: test/http/attachments.test.ts drives it per channel).
  { method: 'POST', route: '/user_uploads', target: '- (no file)', request: () => ({ path: '/user_uploads' }), expect: everyone(bad('You must specify a file to upload')) },
  {
    method: 'GET',
    route: '/user_uploads/{realm_id_str}/{filename:path}',
    target: 'a file that does not exist',
    request: () => ({ path: '/user_uploads/1/ab/NoSuchToken/missing.txt' }),
    expect: everyone({ status: 404, code: 'BAD_REQUEST', msg: 'File not found.' }),
  },
  // The JSON form: a one-minute URL, for those who may read a message linking the file.
  ...channelRows('GET', '/user_uploads/{realm_id_str}/{filename:path}', (fx, place) => ({ path: fx.fileIn(place) }), () => OK, () => ({ status: 403, code: 'BAD_REQUEST', msg: 'You are not authorized to view this file.' })),
  // Root routes: the file itself, its thumbnail and the one-minute URL; custom emoji images (public, as Zulip's).
  ...channelRows('GET', '/user_uploads/{realm_id_str}/{filename:path}', (fx, place) => ({ path: fx.fileIn(place) }), () => OK, () => ({ status: 403 })).map(rootRow),
  ...channelRows('GET', '/user_uploads/thumbnail/{realm_id_str}/{rest:path}', (fx, place) => ({ path: fx.fileIn(place).replace('/user_uploads/', '/user_uploads/thumbnail/') + '/840x560.webp' }), () => OK, () => ({ status: 403 })).map(rootRow),
  { root: true, method: 'GET', route: '/user_uploads/temporary/{token}/{filename}', target: 'a file in core team, by a URL its reader asked for', request: async (fx) => ({ path: await fx.temporaryFileUrl('coreTeam') }), expect: anyone(OK) },
  { root: true, method: 'GET', route: '/user_avatars/{realm_id_str}/emoji/images/{file}', target: 'a custom emoji', request: (fx) => ({ path: fx.emoji.source }), expect: anyone(OK) },
  { root: true, method: 'GET', route: '/user_avatars/{realm_id_str}/emoji/images/still/{file}', target: 'a custom emoji\'s still image', request: (fx) => ({ path: fx.emoji.still }), expect: anyone(OK) },
  { method: 'GET', route: '/attachments', target: 'own', request: () => ({ path: '/attachments' }), expect: everyone(OK) },
  { method: 'DELETE', route: '/attachments/{attachment_id:int}', target: 'an unknown attachment', request: () => ({ path: '/attachments/999999' }), expect: everyone(bad('Invalid attachment')) },
  // Custom emoji (can_add_custom_emoji_group: members; test/http/custom-emoji.test.ts drives the uploads).
  { method: 'GET', route: '/realm/emoji', target: '-', request: () => ({ path: '/realm/emoji' }), expect: everyone(OK) },
  {
    method: 'POST',
    route: '/realm/emoji/{emoji_name}',
    target: '- (no file)',
    request: () => ({ path: '/realm/emoji/matrix_emoji' }),
    expect: outcomes((c) => (GUESTS.includes(c) ? NO_PERMISSION : bad('You must upload exactly one file.'))),
  },
  {
    method: 'DELETE',
    route: '/realm/emoji/{emoji_name}',
    target: 'an emoji that does not exist',
    request: () => ({ path: '/realm/emoji/no_such_emoji' }),
    expect: everyone({ status: 404, code: 'BAD_REQUEST', msg: "Emoji 'no_such_emoji' does not exist" }),
  },
  ...channelAdminRows,

  // Bots (issue 24 B): creating is a realm group setting (members here; guests never); a bot is
  // administered by its owner and the administrators. Rows aim at prospero's bots, made per row.
  { method: 'GET', route: '/bots', target: 'own', request: () => ({ path: '/bots' }), expect: everyone(OK) },
  {
    method: 'POST',
    route: '/bots',
    target: '- (an embedded bot: not enabled)',
    request: (_fx, caller) => ({ path: '/bots', params: { full_name: `Matrix bot of ${caller}`, short_name: `matrix-${caller}`, bot_type: 4 } }),
    expect: outcomes((c) => (GUESTS.includes(c) ? NO_PERMISSION : bad('Invalid bot type'))),
  },
  ...botRows('PATCH', '/bots/{bot_id:int}', (id) => ({ path: `/bots/${id}`, params: { default_all_public_streams: false } })),
  ...botRows('DELETE', '/bots/{bot_id:int}', (id) => ({ path: `/bots/${id}` })),
  ...botRows('POST', '/bots/{bot_id:int}/api_key/regenerate', (id) => ({ path: `/bots/${id}/api_key/regenerate` })),
  // Incoming webhooks take no Basic credentials: the key is a parameter, so every caller alike.
  { method: 'POST', route: '/external/slack_incoming', target: '- (no api_key)', request: () => ({ path: '/external/slack_incoming', params: { stream: 'Verona' } }), expect: anyone(bad("Missing 'api_key' argument", 'REQUEST_VARIABLE_MISSING')) },
  { method: 'POST', route: '/external/github', target: '- (no api_key)', request: () => ({ path: '/external/github', params: { stream: 'Verona' } }), expect: anyone(bad("Missing 'api_key' argument", 'REQUEST_VARIABLE_MISSING')) },
  { method: 'POST', route: '/external/slack_incoming', target: '- (a wrong api_key)', request: () => ({ path: '/external/slack_incoming', params: { api_key: 'x'.repeat(32) } }), expect: anyone({ status: 401, code: 'UNAUTHORIZED', msg: 'Invalid API key' }) },
  // Presence reads: anyone may read anyone's.
  { method: 'GET', route: '/users/{user_id_or_email}/presence', target: 'a user who never reported', request: (fx) => ({ path: `/users/${fx.userId('prospero')}/presence` }), expect: everyone(PRESENCE_MISSING) },
  { method: 'GET', route: '/realm/presence', target: '-', request: () => ({ path: '/realm/presence' }), expect: everyone(OK) },
  // Data exports: administrators only (Zulip's require_realm_admin).
  { method: 'POST', route: '/export/realm', target: '- (an unknown type)', request: () => ({ path: '/export/realm', params: { export_type: 9 } }), expect: adminsOnlyOr(bad('Invalid export_type'), NOT_ADMIN) },
  { method: 'GET', route: '/export/realm', target: '-', request: () => ({ path: '/export/realm' }), expect: adminsOnly(NOT_ADMIN) },
  { method: 'DELETE', route: '/export/realm/{export_id:int}', target: 'an unknown export', request: () => ({ path: '/export/realm/999999' }), expect: adminsOnlyOr(bad('Invalid data export ID'), NOT_ADMIN) },
  { method: 'GET', route: '/export/realm/consents', target: '-', request: () => ({ path: '/export/realm/consents' }), expect: adminsOnly(NOT_ADMIN) },
  rootRow({ method: 'GET', route: '/user_avatars/exports/{realm_id}/{token}/{file}', target: 'an export that does not exist', request: () => ({ path: '/user_avatars/exports/1/none/zulip-export-none.tar.gz' }), expect: outcomes((c) => (ADMINS.includes(c) ? { status: 404 } : { status: 403 }), { deactivated: { status: 401 }, wrongKey: { status: 401 }, none: { status: 401 } }) }),
  // Video calls: no BigBlueButton server in the test's configuration.
  { method: 'GET', route: '/calls/bigbluebutton/create', target: '-', request: () => ({ path: '/calls/bigbluebutton/create', params: { meeting_name: 'matrix' } }), expect: everyone(bad('BigBlueButton is not configured.')) },
  rootRow({ method: 'GET', route: '/calls/bigbluebutton/join', target: '- (a link of another server)', request: () => ({ path: '/calls/bigbluebutton/join?bigbluebutton=e30.c2lnbmF0dXJl' }), expect: everyone(bad('BigBlueButton is not configured.')) }),
  ...ISSUE_24C_ROWS,
];
