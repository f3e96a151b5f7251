/**
 * Drives the permission matrix (permission-matrix.ts) through HTTP against one server: every
 * route × caller × target answers as expected, and no answer to a caller without access names
 * a private channel (id, name, description) or shows its messages or another pair's DMs.
 */
import { test, type Test } from 'tap';
import { Api, type ApiResponse } from '../helpers/client.js';
import { clientFor, startTestServer, type TestServer } from '../helpers/server.js';
import { upload } from '../helpers/uploads.js';
import { animatedGif, png } from '../helpers/images.js';
import {
  CALLERS, DM_PAIR, knowsChannel, MATRIX, PLACES, PRIVATE_PLACES, USERS,
  type Caller, type Fixtures, type MatrixRow, type Outcome, type Place, type RowRequest,
} from './permission-matrix.js';

/** The account behind each caller: the deactivated caller is cordelia; the two without a valid key name hamlet. */
const ACCOUNT: Record<Caller, string> = {
  desdemona: 'desdemona', iago: 'iago', shiva: 'shiva', hamlet: 'hamlet', othello: 'othello', polonius: 'polonius',
  deactivated: 'cordelia', wrongKey: 'hamlet', none: 'hamlet',
};
const isUser = (caller: Caller) => (USERS as readonly string[]).includes(caller);

/** Text that only those with access may ever receive. */
const secretOf = (where: Place | 'dm') => `SECRET-${where}-body`;
const GARDEN_DESCRIPTION = 'SECRET-garden-description';
const DESCRIPTIONS: Partial<Record<Place, string>> = {
  coreTeam: 'A private channel for the core team',
  moderation: 'Moderation requests',
  garden: GARDEN_DESCRIPTION,
};

async function ok(response: Promise<ApiResponse>): Promise<any> {
  const answer = await response;
  if (answer.status !== 200) throw new Error(`setup request failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** Keys whose value names channels; Zulip sends the moderation request channel's id to everyone, as a realm setting. */
const CHANNEL_KEY = /(^|_)(stream|channel)_ids?$|^ignored_because_not_subscribed_channels$/;
const REALM_PUBLIC_KEYS = new Set(['realm_moderation_request_channel_id', 'moderation_request_channel_id']);
/** Collects the numbers held by channel keys anywhere in a JSON answer. */
function channelIdsIn(value: unknown, found: Set<number>, underChannelKey = false): void {
  if (Array.isArray(value)) {
    for (const item of value) channelIdsIn(item, found, underChannelKey);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) channelIdsIn(item, found, CHANNEL_KEY.test(key) && !REALM_PUBLIC_KEYS.has(key));
  } else if (typeof value === 'number' && underChannelKey) {
    found.add(value);
  }
}

const wordPattern = (text: string) => new RegExp(`(?<![\\w])${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])`, 'i');

test('permission matrix', async (t) => {
  const server: TestServer = await startTestServer();
  t.teardown(() => server.destroy());
  const { org } = server.services;
  const client = (name: string) => clientFor(server, `${name}@example.com`);
  const users = Object.fromEntries(['desdemona', 'iago', 'shiva', 'hamlet', 'othello', 'polonius', 'cordelia', 'prospero'].map((n) => [n, client(n)])) as Record<string, Api>;
  const userId = (name: string) => org.users.byEmail(`${ACCOUNT[name as Caller] ?? name}@example.com`)!.id;
  const email = (name: string) => `${ACCOUNT[name as Caller] ?? name}@example.com`;

  // Fixtures: a private channel the administrators are not in, and a message in every place.
  await ok(users.hamlet.post('/users/me/subscriptions', {
    subscriptions: [{ name: PLACES.garden.name, description: GARDEN_DESCRIPTION }],
    invite_only: true,
    principals: [userId('hamlet'), userId('othello')],
  }));
  const channelIds = {} as Record<Place, number>;
  for (const place of Object.keys(PLACES) as Place[]) channelIds[place] = org.channels.byName(PLACES[place].name)!.id;

  const sendTo = async (sender: string, where: Place | 'dm'): Promise<number> => {
    const params = where === 'dm'
      ? { type: 'direct', to: [userId(DM_PAIR[1])], content: secretOf('dm') }
      : { type: 'stream', to: channelIds[where], topic: 'matrix', content: PLACES[where].private ? secretOf(where) : `a message in ${where}` };
    return (await ok(users[sender].post('/messages', params))).id;
  };
  const firstMember = (where: Place | 'dm') => (where === 'dm' ? DM_PAIR[0] : PLACES[where].members[0]);
  const messageIds = {} as Record<Place | 'dm', number>;
  for (const where of [...Object.keys(PLACES), 'dm'] as (Place | 'dm')[]) messageIds[where] = await sendTo(firstMember(where), where);
  const ownMessages = new Map<string, number>();
  for (const name of [...USERS, 'cordelia', 'prospero']) ownMessages.set(name, await sendTo(name, 'verona'));
  const othersQueue = (await ok(users.othello.post('/register', {}))).queue_id as string;
  // One queue per user that watches the whole run: events, too, must reveal nothing out of reach.
  const watchers = new Map<string, string>();
  for (const name of USERS) watchers.set(name, (await ok(users[name].post('/register', {}))).queue_id as string);
  let fixtureRequests = 0;
  let invitations = 0;

  // The deactivated caller: cordelia, deactivated by an administrator.
  await ok(users.iago.delete(`/users/${userId('cordelia')}`));
  // A custom profile field for the rows that change or delete one (the administrators' rows make their own).
  const profileFieldId = (await ok(users.iago.post('/realm/profile_fields', { name: 'Matrix field', field_type: 1 }))).id as number;
  // An image in every channel, uploaded by its first member and linked from a message there: a file's access follows its messages.
  const files = {} as Record<Place, string>;
  for (const place of Object.keys(PLACES) as Place[]) {
    const member = firstMember(place);
    files[place] = (await ok(upload(users[member], { name: `${place}.png`, data: await png(60, 40), type: 'image/png' }))).uri as string;
    await ok(users[member].post('/messages', { type: 'stream', to: channelIds[place], topic: 'matrix', content: `[file](${files[place]})` }));
  }
  // An animated custom emoji (it has a still image too).
  await ok(upload(users.iago, { name: 'matrix.gif', data: await animatedGif(), type: 'image/gif' }, '/realm/emoji/matrix_fixture'));
  const emojiObject = Object.values((await ok(users.iago.get('/realm/emoji'))).emoji as Record<string, { source_url: string; still_url: string }>)[0]!;

  const fx: Fixtures = {
    userId,
    email,
    channelId: (place) => channelIds[place],
    messageIn: (where) => messageIds[where],
    ownMessage: (caller) => ownMessages.get(isUser(caller) ? caller : 'prospero')!,
    othersMessage: ownMessages.get('prospero')!,
    freshMessage: (where, caller) => {
      fixtureRequests++;
      if (where === 'own') return sendTo(isUser(caller) ? caller : 'prospero', 'verona');
      if (where === 'others') return sendTo('prospero', 'verona');
      return sendTo(firstMember(where), where);
    },
    freshQueue: async (caller) => (fixtureRequests++, await ok(users[isUser(caller) ? caller : 'hamlet'].post('/register', {}))).queue_id as string,
    othersQueue,
    profileField: profileFieldId,
    freshProfileField: async () => {
      fixtureRequests++;
      return (await ok(users.iago.post('/realm/profile_fields', { name: `Field ${fixtureRequests}`, field_type: 1 }))).id as number;
    },
    profileFieldIds: () => (org.realm.profileFields ?? []).map((f) => f.id),
    send: async (sender, params) => (fixtureRequests++, await ok(users[sender].post('/messages', params))).id as number,
    scheduled: async (owner, kind) => {
      fixtureRequests++;
      const name = owner === 'prospero' || isUser(owner) ? owner : 'prospero';
      if (kind === 'reminder') {
        return (await ok(users[name].post('/reminders', { message_id: ownMessages.get(name)!, scheduled_delivery_timestamp: 4_000_000_000 }))).reminder_id as number;
      }
      const to = [userId(name === 'prospero' ? 'hamlet' : 'prospero')];
      return (await ok(users[name].post('/scheduled_messages', { type: 'direct', to, content: 'scheduled by the matrix', scheduled_delivery_timestamp: 4_000_000_000 }))).scheduled_message_id as number;
    },
    created: async (owner, path, params) => {
      fixtureRequests++;
      return ok(users[owner === 'prospero' || isUser(owner) ? owner : 'prospero'].post(path, params));
    },
    group: async (creator) => {
      fixtureRequests++;
      const name = creator !== 'prospero' && isUser(creator) && creator !== 'polonius' ? creator : 'prospero';
      return (await ok(users[name].post('/user_groups/create', { name: `matrix group ${fixtureRequests}`, description: '', members: [] }))).group_id as number;
    },
    invitation: async (owner, kind) => {
      fixtureRequests++;
      if (kind === 'multiuse') {
        const link = (await ok(users.iago.post('/invites/multiuse', {}))).invite_link as string;
        const listed = (await ok(users.iago.get('/invites'))).invites as { id: number; link_url?: string }[];
        return listed.find((invite) => invite.link_url === link)!.id;
      }
      // Guests invite nobody: theirs is prospero's, as for the callers who are not users.
      const name = owner !== 'prospero' && isUser(owner) && owner !== 'polonius' ? owner : 'prospero';
      const address = `matrix-invitee-${++invitations}@example.com`;
      await ok(users[name].post('/invites', { invitee_emails: address, stream_ids: [] }));
      const listed = (await ok(users[name].get('/invites'))).invites as { id: number; email?: string }[];
      return listed.find((invite) => invite.email === address)!.id;
    },
    fileIn: (place) => files[place],
    temporaryFileUrl: async (place) => {
      fixtureRequests++;
      const url = (await ok(users[firstMember(place)].get(files[place]))).url as string;
      return new URL(url, server.url).pathname;
    },
    emoji: { source: emojiObject.source_url, still: emojiObject.still_url },
  };

  /** A request to a path from the root (a root route), with the caller's credentials; the body as text. */
  const rootRequest = async (api: Api, method: string, path: string): Promise<ApiResponse> => {
    const response = await fetch(`${server.url}${path}`, { method, headers: api.authorization ? { authorization: api.authorization } : {} });
    return { status: response.status, headers: response.headers, body: await response.text() };
  };
  const apiOf = (caller: Caller): Api => {
    if (isUser(caller)) return users[caller];
    if (caller === 'deactivated') return users.cordelia;
    if (caller === 'wrongKey') return new Api(server.url, email('hamlet'), 'x'.repeat(32));
    return new Api(server.url);
  };

  /** What in `body` a caller without access must not see, given the request it sent. */
  function leaks(caller: Caller, request: RowRequest, response: ApiResponse): string[] {
    const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body ?? '');
    const asked = JSON.stringify(request.params ?? {}) + request.path + (request.says ?? '');
    const found: string[] = [];
    const ids = new Set<number>();
    channelIdsIn(response.body, ids);
    for (const place of PRIVATE_PLACES) {
      if (!knowsChannel(caller, place)) {
        const id = channelIds[place];
        // An unknown-channel answer echoing the id the caller sent says no more than for an id that does not exist.
        const echoed = response.body?.code === 'STREAM_DOES_NOT_EXIST' && response.body?.stream_id === id && asked.includes(String(id));
        if ((ids.has(id) && !echoed) || text.includes(`data-stream-id=\\"${id}\\"`) || text.includes(`/channel/${id}-`)) found.push(`id of ${PLACES[place].name} (${id})`);
        if (!asked.includes(PLACES[place].name) && wordPattern(PLACES[place].name).test(text)) found.push(`name of ${PLACES[place].name}`);
        if (text.includes(DESCRIPTIONS[place]!)) found.push(`description of ${PLACES[place].name}`);
      }
      if (!PLACES[place].members.includes(caller as never) && text.includes(secretOf(place))) found.push(`a message of ${PLACES[place].name}`);
    }
    if (!DM_PAIR.includes(caller) && text.includes(secretOf('dm'))) found.push("another pair's direct message");
    return found;
  }

  /** The parts of an answer that the expected outcome names, with Zulip's envelope. */
  function outcomeOf(response: ApiResponse, expected: Outcome): Outcome & { result: unknown } {
    const actual: Outcome & { result: unknown } = { status: response.status, result: response.body?.result };
    if (expected.code !== undefined) actual.code = response.body?.code;
    if (expected.msg !== undefined) actual.msg = response.body?.msg;
    return actual;
  }

  await t.test('the leak check finds what it looks for', async (tt) => {
    // desdemona's answer, judged as if hamlet had received it, and hamlet's events judged as polonius's.
    const request = { path: `/messages/${messageIds.coreTeam}` };
    const answer = await users.desdemona.get(request.path);
    tt.same(leaks('hamlet', request, answer), ['id of core team (' + channelIds.coreTeam + ')', 'name of core team', 'a message of core team']);
    const listed = await users.hamlet.get('/streams');
    tt.same(leaks('shiva', { path: '/streams' }, listed), ['id of secret garden (' + channelIds.garden + ')', 'name of secret garden', 'description of secret garden']);
  });

  // Every route the server serves has rows, and every row is a route the server serves.
  // A root route's key is marked: `/user_uploads/{realm_id_str}/{filename:path}` is also an API route.
  const served = new Set(server.routes.map((r) => `${r.method} ${r.root ? '(root) ' : ''}${r.path}`));
  const covered = new Set(MATRIX.map((row) => `${row.method} ${row.root ? '(root) ' : ''}${row.route}`));
  t.same([...served].filter((r) => !covered.has(r)), [], 'every route served has rows in the permission matrix');
  t.same([...covered].filter((r) => !served.has(r)), [], 'every row of the permission matrix is a route served');

  let requests = 0;
  /** What rows wrote into messages themselves: events echoing it reveal nothing. */
  const said = new Set<string>();
  // The callers of a row ask at once (no row's cells depend on each other's order); answers are checked in caller order.
  const drive = async (row: MatrixRow, tt: Test) => {
    const cells = await Promise.all(CALLERS.filter((caller) => row.expect[caller].status !== 0).map(async (caller) => {
      const request = await row.request(fx, caller);
      const response = row.root ? await rootRequest(apiOf(caller), row.method, request.path) : await apiOf(caller).request(row.method, request.path, request.params ?? {});
      return { caller, request, response };
    }));
    for (const { caller, request, response } of cells) {
      requests++;
      if (request.says) said.add(request.says);
      const expected = { ...row.expect[caller] };
      if (expected.msg !== undefined && row.place) expected.msg = expected.msg.replace('{channel_id}', String(channelIds[row.place]));
      // One assertion per cell: the answer, and nothing in it that the caller may not know.
      if (row.root) {
        // A root route answers with a file or a page: its status, and nothing in it out of reach.
        tt.same({ status: response.status, leaks: leaks(caller, request, response) }, { status: expected.status, leaks: [] }, `${caller}: ${response.status}`);
        continue;
      }
      tt.same(
        { ...outcomeOf(response, expected), leaks: leaks(caller, request, response) },
        { ...expected, result: expected.status === 200 ? 'success' : 'error', leaks: [] },
        `${caller}: ${JSON.stringify(response.body).slice(0, 200)}`,
      );
    }
  };

  for (const row of MATRIX) await t.test(`${row.method} ${row.route} → ${row.target}`, (tt) => drive(row, tt));

  await t.test('events delivered during the run reveal nothing out of reach', async (tt) => {
    for (const name of USERS) {
      const events: unknown[] = [];
      let last = -1;
      for (;;) {
        const polled = await ok(users[name].get('/events', { queue_id: watchers.get(name), last_event_id: last, dont_block: true }));
        const fresh = (polled.events as { id: number; type: string }[]).filter((e) => e.type !== 'heartbeat');
        if (fresh.length === 0) break;
        events.push(...fresh);
        last = fresh[fresh.length - 1].id;
      }
      tt.ok(events.length > 0, `${name} received events`);
      tt.same(leaks(name, { path: '/events', says: [...said].join(' ') }, { status: 200, headers: new Headers(), body: events }), [], `${name}: ${events.length} events reveal nothing out of reach`);
    }
  });

  const cells = MATRIX.reduce((n, row) => n + CALLERS.filter((c) => row.expect[c].status !== 0).length, 0);
  t.comment(`permission matrix: ${served.size} routes, ${MATRIX.length} rows (route × target), ${CALLERS.length} callers, ${cells} cells, ${requests} requests (and ${fixtureRequests} for fresh fixtures)`);
});
