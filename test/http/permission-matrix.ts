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
  /** A new scheduled message (a DM to someone else) or reminder (of the owner's own Verona message), of the caller (prospero's for callers who are not active users) or of prospero. */
  scheduled(owner: Caller | 'prospero', kind: 'message' | 'reminder'): Promise<number>;
}

export interface RowRequest {
  path: string;
  params?: Params;
  /** Text the callers themselves wrote into what they ask for (a message they read back): echoing it reveals nothing. */
  says?: string;
}

export interface MatrixRow {
  method: HttpMethod;
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
  // Uploads (access to a file follows its messages: test/http/attachments.test.ts drives it per channel).
  { method: 'POST', route: '/user_uploads', target: '- (no file)', request: () => ({ path: '/user_uploads' }), expect: everyone(bad('You must specify a file to upload')) },
  {
    method: 'GET',
    route: '/user_uploads/{realm_id_str}/{filename:path}',
    target: 'a file that does not exist',
    request: () => ({ path: '/user_uploads/1/ab/NoSuchToken/missing.txt' }),
    expect: everyone({ status: 404, code: 'BAD_REQUEST', msg: 'File not found.' }),
  },
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
];
