/**
 * Black-box tests of messages through HTTP: sending (addressing, topics, content, Markdown,
 * mentions, wildcard limits, flags), fetching with anchors and narrows, editing and moving,
 * edit history, deleting, reactions, flags, reports, and who may reach which message. Then a
 * restart, the published zulip-js client, and a store-read count over 100,000 messages.
 */
import { test } from 'tap';
import { createRequire } from 'node:module';
import type { Api, ApiResponse } from '../helpers/client.js';
import type { TestServer } from '../helpers/server.js';
import { clientFor, demoClients, startTestServer } from '../helpers/server.js';
import { createAccount } from '../../src/actions/accounts.js';
import { writeMessage } from '../../src/actions/message-send.js';
import { VisibilityPolicy } from '../../src/domain/topic-visibility.js';
import type { RealmSettings } from '../../src/domain/realm.js';
import { Flag } from '../../src/domain/messages.js';
import { Role } from '../../src/domain/roles.js';
import { Transaction } from '../../src/store/transaction.js';

const require = createRequire(import.meta.url);
const zulip = require('zulip-js') as (config: Record<string, string>) => Promise<any>;

// The demo organization's ids.
const VERONA = 2;
const DENMARK = 3;
const SCOTLAND = 4;
const CORE_TEAM = 5;
const MODERATION = 6;
const BOT = 9;
const NEWEST = 10000000000000000;

const MESSAGE_FIELDS = [
  'avatar_url', 'client', 'content', 'content_type', 'display_recipient', 'flags', 'id', 'is_me_message', 'reactions',
  'recipient_id', 'sender_email', 'sender_full_name', 'sender_id', 'sender_realm_str', 'subject', 'submessages',
  'timestamp', 'topic_links', 'type',
];

async function setRealm(server: TestServer, settings: Partial<RealmSettings>): Promise<void> {
  const { org } = server.services;
  const tx = new Transaction();
  org.saveRealm({ ...org.realm, settings: { ...org.realm.settings, ...settings } }, tx);
  await server.services.commit(tx);
}

/** The id of a message the request sent; fails loudly otherwise. */
function sentId(response: ApiResponse): number {
  if (response.status !== 200 || typeof response.body.id !== 'number') throw new Error(`send failed: ${JSON.stringify(response.body)}`);
  return response.body.id;
}

const send = async (client: Api, to: string | number, topic: string, content: string, extra: Record<string, unknown> = {}) =>
  sentId(await client.post('/messages', { type: 'stream', to, topic, content, ...extra }));
const sendDm = async (client: Api, to: unknown, content: string, extra: Record<string, unknown> = {}) =>
  sentId(await client.post('/messages', { type: 'direct', to, content, ...extra }));
const message = async (client: Api, id: number, params: Record<string, unknown> = {}) => (await client.get(`/messages/${id}`, params)).body.message;
const flagsOf = async (client: Api, id: number) => (await message(client, id)).flags as string[];
const fetchIds = async (client: Api, params: Record<string, unknown>) => {
  const response = await client.get('/messages', params);
  if (response.status !== 200) throw new Error(`fetch failed: ${JSON.stringify(response.body)}`);
  return (response.body.messages as { id: number }[]).map((m) => m.id);
};
const error = (response: ApiResponse) => [response.status, response.body.code, response.body.msg];
const invalidMessage = [400, 'BAD_REQUEST', 'Invalid message(s)'];

test('messages over HTTP', async (t) => {
  let now = Date.UTC(2026, 0, 1, 12, 0, 0);
  const clock = { now: () => now };
  const advance = (seconds: number) => {
    now += seconds * 1000;
  };
  const seconds = () => Math.floor(now / 1000);
  const server = await startTestServer({}, { clock });
  t.teardown(() => server.destroy());
  const { org } = server.services;
  const { desdemona, iago, shiva, hamlet, othello, cordelia, prospero, polonius } = demoClients(server);
  const flagsInStore = (userId: number, messageId: number) => server.services.messages.flags(userId, messageId);

  async function addUsers(prefix: string, count: number) {
    const tx = new Transaction();
    const created = [];
    for (let i = 0; i < count; i++) {
      created.push(createAccount(org, server.services.counters, tx, {
        email: `${prefix}${i}@example.com`, fullName: `${prefix} ${i}`, role: Role.MEMBER, passwordHash: 'x', nowMs: now,
      }));
    }
    await server.services.commit(tx);
    return created;
  }

  t.test('POST /messages to a channel: addressing', async (t) => {
    const byName = await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 'castle', content: 'by name' });
    t.equal(byName.status, 200);
    t.same(Object.keys(byName.body).sort(), ['automatic_new_visibility_policy', 'id', 'msg', 'result']);
    const first = byName.body.id;
    t.match(await message(hamlet, first), { stream_id: DENMARK, display_recipient: 'Denmark', subject: 'castle', type: 'stream' });
    const byId = await send(hamlet, DENMARK, 'castle', 'by id', { type: 'channel' });
    t.equal((await message(hamlet, byId)).stream_id, DENMARK, 'to as an id; type channel is stream');
    const byList = await send(hamlet, JSON.stringify(['Denmark']), 'castle', 'as a one-element list');
    t.equal((await message(hamlet, byList)).stream_id, DENMARK);
    const byIdList = await send(hamlet, JSON.stringify([DENMARK]), 'castle', 'as a one-element list of an id');
    t.equal((await message(hamlet, byIdList)).stream_id, DENMARK);
    const loose = await send(hamlet, '  dENMARK ', 'castle', 'stripped, any case');
    t.equal((await message(hamlet, loose)).stream_id, DENMARK);
    t.ok(first < byId && byId < byList && byList < byIdList && byIdList < loose, 'ids increase');

    const missing = await hamlet.post('/messages', { type: 'stream', to: 'Atlantis', topic: 'x', content: 'x' });
    t.same(missing.body, { result: 'error', msg: "Channel 'Atlantis' does not exist", code: 'STREAM_DOES_NOT_EXIST', stream: 'Atlantis' });
    t.equal(missing.status, 400);
    const escaped = await hamlet.post('/messages', { type: 'stream', to: '<b>&x', topic: 'x', content: 'x' });
    t.same([escaped.body.msg, escaped.body.stream], ["Channel '&lt;b&gt;&amp;x' does not exist", '&lt;b&gt;&amp;x'], 'the name is HTML-escaped');
    const missingId = await hamlet.post('/messages', { type: 'stream', to: 999, topic: 'x', content: 'x' });
    t.same(missingId.body, { result: 'error', msg: "Channel with ID '999' does not exist", code: 'STREAM_DOES_NOT_EXIST', stream_id: 999 });
    t.same(error(await hamlet.post('/messages', { type: 'stream', to: ['Denmark', 'Verona'], topic: 'x', content: 'x' })), [400, 'BAD_REQUEST', 'Expected exactly one channel']);
    t.same(error(await hamlet.post('/messages', { type: 'stream', to: { name: 'Denmark' }, topic: 'x', content: 'x' })), [400, 'BAD_REQUEST', 'Invalid data type for channel']);
    t.same(error(await hamlet.post('/messages', { type: 'stream', topic: 'x', content: 'x' })), [400, 'BAD_REQUEST', 'Missing channel']);
    t.same(error(await hamlet.post('/messages', { type: 'group', to: 'Denmark', topic: 'x', content: 'x' })), [400, 'BAD_REQUEST', 'Invalid type']);
    t.same(error(await hamlet.post('/messages', { to: 'Denmark', topic: 'x', content: 'x' })), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'type' argument"]);
    t.same(error(await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 'x' })), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'content' argument"]);

    // Unlike Zulip, a private channel the sender may not know of is answered as missing: no answer confirms it exists.
    t.same(error(await hamlet.post('/messages', { type: 'stream', to: 'core team', topic: 'x', content: 'x' })), [400, 'STREAM_DOES_NOT_EXIST', "Channel 'core team' does not exist"]);
    t.same(error(await polonius.post('/messages', { type: 'stream', to: 'Denmark', topic: 'x', content: 'x' })), [400, 'BAD_REQUEST', "Not authorized to send to channel 'Denmark'"], 'guests only where subscribed');
    t.equal((await polonius.post('/messages', { type: 'stream', to: 'Verona', topic: 'x', content: 'x' })).status, 200);
    const outsider = await send(hamlet, 'Scotland', 'visit', 'not subscribed here');
    t.equal(flagsInStore(4, outsider), undefined, 'a sender outside the channel gets no per-user record');
    t.same(await flagsOf(hamlet, outsider), ['read', 'historical']);
  });

  t.test('POST /messages: every recipient gets a per-user record with a flags bitfield', async (t) => {
    const id = await send(hamlet, 'Denmark', 'records', 'hello @**Iago**');
    for (const userId of [1, 2, 3, 4, 5, 6, 7]) t.type(flagsInStore(userId, id), 'number', `user ${userId} has a record`);
    t.equal(flagsInStore(2, id), 8, 'iago: mentioned (bit 3)');
    t.equal(flagsInStore(5, id), 0, 'othello: nothing set, so unread');
    t.equal(flagsInStore(8, id), undefined, 'polonius is not subscribed');
    t.equal(flagsInStore(BOT, id), undefined);
    t.same(await flagsOf(iago, id), ['mentioned']);
    t.same(await flagsOf(othello, id), []);
  });

  t.test('POST /messages: direct messages', async (t) => {
    const hamletUser = org.users.get(4)!;
    const iagoUser = org.users.get(2)!;
    const byIds = await sendDm(hamlet, [2], 'ids');
    const seen = await message(hamlet, byIds);
    t.equal(seen.type, 'private', 'type direct is private');
    t.equal(seen.subject, '');
    t.notOk('stream_id' in seen);
    t.same(seen.display_recipient, [
      { id: 4, email: 'hamlet@example.com', full_name: 'King Hamlet', is_mirror_dummy: false },
      { id: 2, email: 'iago@example.com', full_name: 'Iago', is_mirror_dummy: false },
    ], 'both people, ordered by email');
    t.equal(seen.recipient_id, iagoUser.recipientId, "the sender sees the other person's recipient");
    t.equal((await message(iago, byIds)).recipient_id, hamletUser.recipientId, "the receiver sees the sender's, so both directions share one");
    t.same(await flagsOf(iago, byIds), []);

    const byEmails = await sendDm(hamlet, ['iago@example.com'], 'emails', { type: 'private' });
    const bare = await sendDm(hamlet, 'IAGO@example.com', 'a bare email, any case');
    const jsonString = await sendDm(hamlet, JSON.stringify('iago@example.com'), 'a JSON string');
    const withSelf = await sendDm(hamlet, [4, 2], 'the sender may be in the list');
    const dup = await sendDm(hamlet, [2, 2], 'duplicates count once');
    const conversation = await fetchIds(hamlet, { anchor: 'newest', num_before: 10, narrow: [{ operator: 'dm', operand: [2] }] });
    t.same(conversation, [byIds, byEmails, bare, jsonString, withSelf, dup], 'all the same conversation');
    t.same(await fetchIds(iago, { anchor: 'newest', num_before: 10, narrow: [{ operator: 'dm', operand: [4] }] }), conversation);

    const group = await sendDm(hamlet, 'iago@example.com, othello@example.com', 'comma-separated emails');
    const groupSeen = await message(othello, group);
    t.same(groupSeen.display_recipient.map((u: any) => u.id), [2, 4, 5], 'a group: everyone, by id');
    t.same(await flagsOf(othello, group), []);
    t.equal(flagsInStore(6, group), undefined, 'cordelia is not in it');
    const sameGroup = await sendDm(othello, [2, 4], 'the same group');
    t.equal((await message(othello, sameGroup)).recipient_id, groupSeen.recipient_id, 'one recipient per group');

    const self = await sendDm(hamlet, [4], 'note to self');
    t.same((await message(hamlet, self)).display_recipient.map((u: any) => u.id), [4], 'a self-DM has one entry');
    t.equal((await message(hamlet, self)).recipient_id, hamletUser.recipientId);
    const ignoredTopic = await sendDm(hamlet, [5], 'topics are ignored for DMs', { topic: 'ignored' });
    t.equal((await message(othello, ignoredTopic)).subject, '');

    t.same(error(await hamlet.post('/messages', { type: 'direct', to: 5, content: 'x' })), [400, 'BAD_REQUEST', 'Invalid data type for recipients'], 'a bare id is not a list');
    t.same(error(await hamlet.post('/messages', { type: 'direct', to: [], content: 'x' })), [400, 'BAD_REQUEST', 'Message must have recipients']);
    t.same(error(await hamlet.post('/messages', { type: 'direct', to: '', content: 'x' })), [400, 'BAD_REQUEST', 'Message must have recipients']);
    t.same(error(await hamlet.post('/messages', { type: 'direct', content: 'x' })), [400, 'BAD_REQUEST', 'Message must have recipients']);
    t.same(error(await hamlet.post('/messages', { type: 'direct', to: ['iago@example.com', 5], content: 'x' })), [400, 'BAD_REQUEST', 'Recipient lists may contain emails or user IDs, but not both.']);
    t.same(error(await hamlet.post('/messages', { type: 'direct', to: [5, 'iago@example.com'], content: 'x' })), [400, 'BAD_REQUEST', 'Recipient lists may contain emails or user IDs, but not both.']);
    t.same(error(await hamlet.post('/messages', { type: 'direct', to: [true], content: 'x' })), [400, 'BAD_REQUEST', 'Invalid data type for recipients']);
    t.same(error(await hamlet.post('/messages', { type: 'direct', to: ['ghost@example.com'], content: 'x' })), [400, 'BAD_REQUEST', "Invalid email 'ghost@example.com'"]);
    t.same(error(await hamlet.post('/messages', { type: 'direct', to: [999], content: 'x' })), [400, 'BAD_REQUEST', 'Invalid user ID 999']);

    const prosperoUser = org.users.get(7)!;
    const tx = new Transaction();
    org.users.save({ ...prosperoUser, isActive: false }, tx);
    await server.services.commit(tx);
    t.same(error(await hamlet.post('/messages', { type: 'direct', to: [7], content: 'x' })), [400, 'BAD_REQUEST', "'prospero@example.com' is no longer using Zulip."]);
    const tx2 = new Transaction();
    org.users.save({ ...org.users.get(7)!, isActive: true }, tx2);
    await server.services.commit(tx2);
    t.equal((await hamlet.post('/messages', { type: 'direct', to: [7], content: 'x' })).status, 200);
  });

  t.test('POST /messages: topics and content', async (t) => {
    const subject = await send(hamlet, 'Denmark', '', 'x', { topic: undefined, subject: 'legacy subject' });
    t.equal((await message(hamlet, subject)).subject, 'legacy subject', 'subject is the legacy name of topic');
    const both = await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 'a', subject: 'b', content: 'x' });
    t.same([both.status, both.body.code], [400, 'REQUEST_CONFUSING_VAR']);
    t.same(error(await hamlet.post('/messages', { type: 'stream', to: 'Denmark', content: 'x' })), [400, 'BAD_REQUEST', 'Missing topic']);

    const stripped = await send(hamlet, 'Denmark', '  spaced out \n', 'x');
    t.equal((await message(hamlet, stripped)).subject, 'spaced out');
    const empties = [await send(hamlet, 'Denmark', '', 'x'), await send(hamlet, 'Denmark', '(no topic)', 'x'), await send(hamlet, 'Denmark', 'general chat', 'x')];
    for (const id of empties) {
      t.equal((await message(hamlet, id)).subject, 'general chat', 'the empty topic, shown by its display name');
      t.equal((await message(hamlet, id, { allow_empty_topic_name: true })).subject, '', 'and as it is to clients that know it');
    }
    const emptyTopic = await fetchIds(hamlet, { anchor: 'newest', num_before: 10, narrow: [['stream', 'Denmark'], ['topic', '']] });
    t.same(emptyTopic, empties, 'one topic');
    const long = await send(hamlet, 'Denmark', 'x'.repeat(61), 'x');
    t.equal((await message(hamlet, long)).subject, 'x'.repeat(57) + '...', 'a topic over 60 characters is shortened');
    const sixty = await send(hamlet, 'Denmark', 'y'.repeat(60), 'x');
    t.equal((await message(hamlet, sixty)).subject, 'y'.repeat(60));
    t.same(error(await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 'a\u0007b', content: 'x' })), [400, 'BAD_REQUEST', 'Invalid character in topic, at position 2!']);

    await setRealm(server, { mandatory_topics: true });
    for (const topic of ['', '(no topic)', 'general chat', '   ']) {
      const refused = await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic, content: 'x' });
      t.same(refused.body, {
        result: 'error', code: 'BAD_REQUEST', msg: 'Sending messages to the general chat is not allowed in this channel.', empty_topic_display_name: 'general chat',
      }, `topic ${JSON.stringify(topic)} is refused where topics are required`);
    }
    t.equal((await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 'real', content: 'x' })).status, 200);
    t.equal((await hamlet.post('/messages', { type: 'direct', to: [2], content: 'x' })).status, 200, 'direct messages have no topics');
    await setRealm(server, { mandatory_topics: false });

    t.same(error(await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 'x', content: '' })), [400, 'BAD_REQUEST', 'Message must not be empty']);
    t.same(error(await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 'x', content: ' \n\t ' })), [400, 'BAD_REQUEST', 'Message must not be empty']);
    t.same(error(await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 'x', content: 'a\x00b' })), [400, 'BAD_REQUEST', 'Message must not contain null bytes']);
    const normalized = await send(hamlet, 'Denmark', 'x', '\n\n    indented\ntext  \n\n');
    t.equal((await hamlet.get(`/messages/${normalized}`)).body.raw_content, '    indented\ntext', 'leading blank lines and trailing whitespace go; leading spaces stay');
    const big = 'z'.repeat(10001);
    const truncated = await send(hamlet, 'Denmark', 'x', big);
    const raw = (await hamlet.get(`/messages/${truncated}`)).body.raw_content as string;
    t.equal(raw.length, 10000, 'content over 10000 characters is cut to 10000');
    t.equal(raw, 'z'.repeat(9980) + '\n[message truncated]');
    const exact = await send(hamlet, 'Denmark', 'x', 'w'.repeat(10000));
    t.equal((await hamlet.get(`/messages/${exact}`)).body.raw_content, 'w'.repeat(10000));
  });

  t.test('Markdown: rendered HTML is stored with the message', async (t) => {
    const tx = new Transaction();
    org.groups.save({
      id: 900, name: 'actors', description: 'Players', isSystemGroup: false, directMembers: [5, 6], directSubgroups: [],
      deactivated: false, creatorId: 1, dateCreated: seconds(), settings: {},
    }, tx);
    await server.services.commit(tx);
    const cases: [string, string][] = [
      ['@**Iago**', '<p><span class="user-mention" data-user-id="2">@Iago</span></p>'],
      ['@**Iago|2**', '<p><span class="user-mention" data-user-id="2">@Iago</span></p>'],
      ['@_**Iago**', '<p><span class="user-mention silent" data-user-id="2">Iago</span></p>'],
      ['@*actors*', '<p><span class="user-group-mention" data-user-group-id="900">@actors</span></p>'],
      ['@**all**', '<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span></p>'],
      ['@**everyone**', '<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@everyone</span></p>'],
      ['@**channel**', '<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@channel</span></p>'],
      ['@**topic**', '<p><span class="topic-mention">@topic</span></p>'],
      ['#**Denmark**', '<p><a class="stream" data-stream-id="3" href="/#narrow/channel/3-Denmark">#Denmark</a></p>'],
      ['#**Verona>balcony**', '<p><a class="stream-topic" data-stream-id="2" href="/#narrow/channel/2-Verona/topic/balcony">#Verona &gt; balcony</a></p>'],
      [':tada:', '<p><span aria-label="tada" class="emoji emoji-1f389" role="img" title="tada">:tada:</span></p>'],
      ['```\nlet x = 1;\n```', '<div class="codehilite"><pre><span></span><code>let x = 1;\n</code></pre></div>'],
      ['> quoted', '<blockquote>\n<p>quoted</p>\n</blockquote>'],
      ['```quote\nq\n```', '<blockquote>\n<p>q</p>\n</blockquote>'],
      ['```spoiler Title\nhidden\n```', '<div class="spoiler-block"><div class="spoiler-header">\n<p>Title</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>hidden</p>\n</div></div>'],
      ['[Zulip](https://zulip.com)', '<p><a href="https://zulip.com">Zulip</a></p>'],
      ['see https://example.com/a?b=c', '<p>see <a href="https://example.com/a?b=c">https://example.com/a?b=c</a></p>'],
      ['<time:2024-01-01T12:00:00+00:00>', '<p><time datetime="2024-01-01T12:00:00Z">2024-01-01T12:00:00+00:00</time></p>'],
    ];
    for (const [content, html] of cases) {
      const id = await send(hamlet, 'Denmark', 'markdown', content);
      const got = await hamlet.get(`/messages/${id}`);
      t.equal(got.body.message.content, html, content);
      t.equal(got.body.raw_content, content, 'the Markdown is kept too');
      t.equal((await message(hamlet, id, { apply_markdown: false })).content, content);
    }
  });

  t.test('Markdown: mentions set the flags of the users concerned', async (t) => {
    const personal = await send(hamlet, 'Denmark', 'mentions', 'hi @**Iago** and @**Othello, the Moor of Venice|5**');
    t.same(await flagsOf(iago, personal), ['mentioned']);
    t.same(await flagsOf(othello, personal), ['mentioned'], 'by name|id');
    t.same(await flagsOf(cordelia, personal), []);
    const silent = await send(hamlet, 'Denmark', 'mentions', 'hi @_**Iago**');
    t.same(await flagsOf(iago, silent), [], 'silent mentions notify nobody');
    const wrongName = await send(hamlet, 'Denmark', 'mentions', 'hi @**King Lear|2**');
    t.same(await flagsOf(iago, wrongName), [], 'name|id needs the right name');
    const inCode = await send(hamlet, 'Denmark', 'mentions', '`@**Iago**`\n```\n@**Iago**\n```');
    t.same(await flagsOf(iago, inCode), [], 'mentions in code do not count');
    const group = await send(hamlet, 'Denmark', 'mentions', 'calling @*actors*');
    t.same(await flagsOf(othello, group), ['mentioned'], 'group members are mentioned');
    t.same(await flagsOf(cordelia, group), ['mentioned']);
    t.same(await flagsOf(iago, group), []);
    const silentGroup = await send(hamlet, 'Denmark', 'mentions', 'calling @_*actors*');
    t.same(await flagsOf(othello, silentGroup), []);

    for (const wildcard of ['all', 'everyone', 'channel', 'stream']) {
      const id = await send(hamlet, 'Denmark', 'mentions', `@**${wildcard}** listen`);
      t.same(await flagsOf(cordelia, id), ['stream_wildcard_mentioned', 'wildcard_mentioned'], `@**${wildcard}** reaches every recipient`);
      t.same(await flagsOf(iago, id), ['stream_wildcard_mentioned', 'wildcard_mentioned']);
    }
    const silentAll = await send(hamlet, 'Denmark', 'mentions', '@_**all** listen');
    t.same(await flagsOf(cordelia, silentAll), []);

    await send(othello, 'Denmark', 'wildcard topic', 'I was here');
    const topicWide = await send(hamlet, 'Denmark', 'wildcard topic', '@**topic** listen');
    t.same(await flagsOf(othello, topicWide), ['topic_wildcard_mentioned', 'wildcard_mentioned'], 'participants of the topic');
    t.same(await flagsOf(hamlet, topicWide), ['topic_wildcard_mentioned', 'wildcard_mentioned'], 'the sender participates');
    t.same(await flagsOf(cordelia, topicWide), [], 'not the rest of the channel');
    const both = await send(hamlet, 'Denmark', 'mentions', '@**all** and @**Cordelia, Lear\'s daughter**');
    t.same(await flagsOf(cordelia, both), ['mentioned', 'stream_wildcard_mentioned', 'wildcard_mentioned'], 'in bit order, wildcard_mentioned last');
  });

  t.test('wildcard mentions in big channels and topics', async (t) => {
    const crowd = await addUsers('crowd', 16);
    const ids = crowd.map((u) => u.id);
    const created = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Crowd' }], principals: [4, ...ids.slice(0, 14)] });
    t.equal(created.status, 200);
    t.equal(server.services.subscriptions.subscribersOf(org.channels.byName('Crowd')!.id).size, 15);
    const ok = await hamlet.post('/messages', { type: 'stream', to: 'Crowd', topic: 'hall', content: '@**all** fifteen is fine' });
    t.equal(ok.status, 200, '15 subscribers: anyone may');
    await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Crowd' }], principals: [ids[14]] });
    for (const wildcard of ['all', 'everyone', 'channel', 'stream']) {
      const refused = await hamlet.post('/messages', { type: 'stream', to: 'Crowd', topic: 'hall', content: `@**${wildcard}** sixteen` });
      t.same(refused.body, {
        result: 'error', code: 'STREAM_WILDCARD_MENTION_NOT_ALLOWED', msg: 'You do not have permission to use channel wildcard mentions in this channel.',
      }, `@**${wildcard}** with 16 subscribers`);
    }
    t.equal((await hamlet.post('/messages', { type: 'stream', to: 'Crowd', topic: 'hall', content: '@_**all** silent is fine' })).status, 200);
    t.equal((await hamlet.post('/messages', { type: 'stream', to: 'Crowd', topic: 'hall', content: '`@**all**` in code is fine' })).status, 200);
    t.equal((await iago.post('/messages', { type: 'stream', to: 'Crowd', topic: 'hall', content: '@**all** from an admin' })).status, 200, 'can_mention_many_users_group: administrators');
    await setRealm(server, { can_mention_many_users_group: org.realm.systemGroups['role:members'] });
    t.equal((await hamlet.post('/messages', { type: 'stream', to: 'Crowd', topic: 'hall', content: '@**all** allowed now' })).status, 200);
    await setRealm(server, { can_mention_many_users_group: org.realm.systemGroups['role:administrators'] });

    // Topic participants: senders and reactors, plus the sender.
    const people = crowd.map((u) => clientFor(server, u.deliveryEmail));
    let last = 0;
    for (const person of people.slice(0, 14)) last = await send(person, 'Crowd', 'party', 'here');
    const fifteen = await hamlet.post('/messages', { type: 'stream', to: 'Crowd', topic: 'party', content: '@**topic** 14 others and me' });
    t.equal(fifteen.status, 200, '15 participants with the sender: allowed');
    await people[14].post(`/messages/${last}/reactions`, { emoji_name: 'tada' });
    const sixteen = await prospero.post('/messages', { type: 'stream', to: 'Crowd', topic: 'party', content: '@**topic** again' });
    t.same(sixteen.body, {
      result: 'error', code: 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED', msg: 'You do not have permission to use topic wildcard mentions in this topic.',
    }, 'a reactor counts as a participant: 14 senders, hamlet, the reactor and prospero');
    t.equal((await hamlet.post('/messages', { type: 'stream', to: 'Crowd', topic: 'other', content: '@**topic** a quiet topic' })).status, 200, 'per topic');
    t.equal((await iago.post('/messages', { type: 'stream', to: 'Crowd', topic: 'party', content: '@**topic** admin' })).status, 200);
    t.equal((await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 'party', content: '@**all** only 7 here' })).status, 200);
  });

  t.test('POST /messages: read_by_sender, local echo, automatic topic visibility', async (t) => {
    const api = await send(hamlet, 'Denmark', 'reading', 'from a script');
    t.same(await flagsOf(hamlet, api), [], 'API clients: the sender has it unread');
    const website = await send(hamlet, 'Denmark', 'reading', 'from the web app', { client: 'website' });
    t.same(await flagsOf(hamlet, website), ['read'], 'the web app: read');
    t.equal((await message(hamlet, website)).client, 'website');
    const mobile = await send(hamlet, 'Denmark', 'reading', 'from the phone', { client: 'ZulipMobile' });
    t.same(await flagsOf(hamlet, mobile), ['read'], 'the client name is compared case-insensitively');
    const explicit = await send(hamlet, 'Denmark', 'reading', 'asked', { read_by_sender: true });
    t.same(await flagsOf(hamlet, explicit), ['read']);
    const explicitNot = await send(hamlet, 'Denmark', 'reading', 'asked not', { client: 'website', read_by_sender: false });
    t.same(await flagsOf(hamlet, explicitNot), []);
    t.same(await flagsOf(othello, explicit), [], 'only the sender');
    const dmRead = await sendDm(hamlet, [5], 'dm', { read_by_sender: true });
    t.same(await flagsOf(hamlet, dmRead), ['read']);
    t.same(await flagsOf(othello, dmRead), []);

    const echo = await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 'reading', content: 'echo', queue_id: '1234:5', local_id: '17.01' });
    t.same(Object.keys(echo.body).sort(), ['id', 'msg', 'result'], 'queue_id and local_id are accepted (they go into the event)');
    t.notOk((echo.body as any).ignored_parameters_unsupported);

    const started = await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 'new plans', content: 'starting' });
    t.equal(started.body.automatic_new_visibility_policy, VisibilityPolicy.FOLLOWED, 'starting a topic follows it');
    t.equal(server.services.subscriptions.topicPolicy(4, DENMARK, 'new plans'), VisibilityPolicy.FOLLOWED);
    const again = await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 'NEW PLANS', content: 'again' });
    t.notOk('automatic_new_visibility_policy' in again.body, 'only when it changes');
    const reply = await othello.post('/messages', { type: 'stream', to: 'Denmark', topic: 'new plans', content: 'reply' });
    t.notOk('automatic_new_visibility_policy' in reply.body, 'replying does not follow by default');
    const direct = await hamlet.post('/messages', { type: 'direct', to: [5], content: 'dm' });
    t.notOk('automatic_new_visibility_policy' in direct.body);

    const tx = new Transaction();
    server.services.subscriptions.setProperty(5, VERONA, 'is_muted', true, tx);
    await server.services.commit(tx);
    await send(cordelia, 'Verona', 'muted talk', 'first');
    const unmuted = await othello.post('/messages', { type: 'stream', to: 'Verona', topic: 'muted talk', content: 'in a muted channel' });
    t.equal(unmuted.body.automatic_new_visibility_policy, VisibilityPolicy.UNMUTED, 'sending in a muted channel unmutes the topic');
    const unmutedAgain = await othello.post('/messages', { type: 'stream', to: 'Verona', topic: 'muted talk', content: 'again' });
    t.notOk('automatic_new_visibility_policy' in unmutedAgain.body);

    const tx2 = new Transaction();
    org.users.save({ ...org.users.get(6)!, settings: { ...org.users.get(6)!.settings, automatically_follow_topics_policy: 4 } }, tx2);
    await server.services.commit(tx2);
    const never = await cordelia.post('/messages', { type: 'stream', to: 'Denmark', topic: 'cordelia alone', content: 'x' });
    t.notOk('automatic_new_visibility_policy' in never.body, 'a user who never follows');

    await send(hamlet, 'Denmark', 'calling prospero', 'hey @**Prospero from The Tempest**');
    t.equal(server.services.subscriptions.topicPolicy(7, DENMARK, 'calling prospero'), VisibilityPolicy.FOLLOWED, 'mentioned people follow the topic');
  });

  // A channel of ten messages for the range and narrow tests: m[0..9], topics a/b alternating.
  const m: number[] = [];
  let fetchChannel = 0;

  t.test('GET /messages: anchors and ranges', async (t) => {
    await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Fetch' }], principals: [4, 5] });
    fetchChannel = org.channels.byName('Fetch')!.id;
    for (let i = 0; i < 10; i++) m.push(await send(i % 3 === 0 ? othello : hamlet, 'Fetch', i % 2 ? 'Beta' : 'alpha', `message ${i} ${i === 4 ? 'The Quick brown fox' : 'plain'}`));
    const narrow = [['stream', 'Fetch']];
    const get = (params: Record<string, unknown>) => hamlet.get('/messages', { narrow, ...params });

    const newest = await get({ anchor: 'newest', num_before: 3 });
    t.equal(newest.status, 200);
    t.same(Object.keys(newest.body).sort(), ['anchor', 'found_anchor', 'found_newest', 'found_oldest', 'history_limited', 'messages', 'msg', 'result']);
    t.same(newest.body.messages.map((x: any) => x.id), m.slice(7));
    t.match(newest.body, { found_anchor: false, found_oldest: false, found_newest: true, history_limited: false, anchor: NEWEST });
    const all = await get({ anchor: 'newest', num_before: 20 });
    t.same(all.body.messages.map((x: any) => x.id), m);
    t.match(all.body, { found_oldest: true, found_newest: true });
    const oldest = await get({ anchor: 'oldest', num_after: 3 });
    t.same(oldest.body.messages.map((x: any) => x.id), m.slice(0, 3));
    t.match(oldest.body, { found_anchor: false, found_oldest: true, found_newest: false, anchor: 0 });
    const oldestOnly = await get({ anchor: 'oldest' });
    t.same(oldestOnly.body.messages, []);
    t.equal(oldestOnly.body.found_oldest, true, 'anchored at the oldest end even with nothing asked');
    const middle = await get({ anchor: String(m[5]), num_before: 2, num_after: 2 });
    t.same(middle.body.messages.map((x: any) => x.id), m.slice(3, 8));
    t.match(middle.body, { found_anchor: true, found_oldest: false, found_newest: false, anchor: m[5] });
    const exact = await get({ anchor: m[5], num_before: 0, num_after: 0 });
    t.same(exact.body.messages.map((x: any) => x.id), [m[5]], 'the anchor alone');
    const edges = await get({ anchor: m[1], num_before: 5, num_after: 20 });
    t.same(edges.body.messages.map((x: any) => x.id), m);
    t.match(edges.body, { found_anchor: true, found_oldest: true, found_newest: true });
    const excluded = await get({ anchor: m[5], num_before: 2, include_anchor: false });
    t.same(excluded.body.messages.map((x: any) => x.id), [m[3], m[4]]);
    t.equal(excluded.body.found_anchor, false);
    const excludedAfter = await get({ anchor: m[5], num_after: 2, include_anchor: false });
    t.same(excludedAfter.body.messages.map((x: any) => x.id), [m[6], m[7]]);
    const notInNarrow = await hamlet.get('/messages', { narrow: [['stream', 'Fetch'], ['topic', 'alpha']], anchor: m[5], num_before: 1, num_after: 1 });
    t.same(notInNarrow.body.messages.map((x: any) => x.id), [m[4], m[6]], 'an anchor outside the narrow is not returned');
    t.equal(notInNarrow.body.found_anchor, false);
    const huge = await get({ anchor: '99999999999999999999', num_before: 1 });
    t.same([huge.body.anchor, huge.body.messages.map((x: any) => x.id)], [NEWEST, [m[9]]], 'ids above the largest are clamped');
    const negative = await get({ anchor: '-5', num_after: 1 });
    t.same([negative.body.anchor, negative.body.messages.map((x: any) => x.id)], [0, [m[0]]]);

    // first_unread: othello reads m0..m3 (hamlet's are unread for him; his own are unread as sent by a script).
    await othello.post('/messages/flags', { messages: m.slice(0, 4), op: 'add', flag: 'read' });
    const firstUnread = await othello.get('/messages', { narrow, anchor: 'first_unread', num_before: 1, num_after: 1 });
    t.same(firstUnread.body.messages.map((x: any) => x.id), [m[3], m[4], m[5]]);
    t.match(firstUnread.body, { anchor: m[4], found_anchor: true });
    const legacy = await othello.get('/messages', { narrow, anchor: 'oldest', use_first_unread_anchor: true, num_before: 1, num_after: 1 });
    t.same(legacy.body.messages.map((x: any) => x.id), [m[3], m[4], m[5]], 'use_first_unread_anchor overrides anchor');
    t.equal(legacy.body.anchor, m[4]);
    const legacyNoAnchor = await othello.get('/messages', { narrow, use_first_unread_anchor: true, num_before: 1 });
    t.equal(legacyNoAnchor.body.anchor, m[4], 'and anchor may then be left out');
    await othello.post('/mark_stream_as_read', { stream_id: fetchChannel });
    const nothingUnread = await othello.get('/messages', { narrow, use_first_unread_anchor: true, num_before: 2, num_after: 2 });
    t.match(nothingUnread.body, { anchor: 10000000000000000, found_anchor: false, found_newest: true }, 'nothing unread: the anchor is 10000000000000000');
    t.same(nothingUnread.body.messages.map((x: any) => x.id), [m[8], m[9]]);
    const firstUnreadNone = await othello.get('/messages', { narrow, anchor: 'first_unread', num_before: 1 });
    t.equal(firstUnreadNone.body.anchor, NEWEST);

    t.same(error(await hamlet.get('/messages', { narrow, num_before: 1 })), [400, 'BAD_REQUEST', "Missing 'anchor' argument."]);
    t.same(error(await hamlet.get('/messages', { anchor: 'latest', num_before: 1 })), [400, 'BAD_REQUEST', 'Invalid anchor']);
    t.same(error(await hamlet.get('/messages', { anchor: 'newest', num_before: 4000, num_after: 1001 })), [400, 'BAD_REQUEST', 'Too many messages requested (maximum 5000).']);
    t.equal((await hamlet.get('/messages', { anchor: 'newest', num_before: 4000, num_after: 1000 })).status, 200, '5000 is allowed');
    t.same(error(await hamlet.get('/messages', { anchor: m[5], num_before: 1, num_after: 1, include_anchor: false })), [400, 'BAD_REQUEST', 'The anchor can only be excluded at an end of the range']);
    t.equal((await hamlet.get('/messages', { anchor: 'newest', num_before: -1 })).status, 400);
  });

  t.test('GET /messages: narrows', async (t) => {
    const ids = (narrow: unknown, client: Api = hamlet) => fetchIds(client, { anchor: 'newest', num_before: 100, narrow });
    const channelWide = await ids([['stream', 'Fetch']]);
    t.same(channelWide, m, 'the legacy pair form');
    t.same(await ids([{ operator: 'channel', operand: 'Fetch' }]), m, 'the object form');
    t.same(await ids([{ operator: 'stream', operand: fetchChannel }]), m, 'operands by id');
    t.same(await ids([{ operator: 'channel', operand: 'fetch', negated: false }]), m, 'names in any case');
    const topicA = m.filter((_, i) => i % 2 === 0);
    const topicB = m.filter((_, i) => i % 2 === 1);
    t.same(await ids([['stream', 'Fetch'], ['topic', 'ALPHA']]), topicA, 'topics in any case');
    t.same(await ids([['channel', 'Fetch'], ['subject', 'beta']]), topicB);
    t.same(await ids([{ operator: 'channel', operand: 'Fetch' }, { operator: 'topic', operand: 'alpha', negated: true }]), topicB, 'negated');
    t.same(await ids([['stream', 'Fetch'], ['sender', 'othello@example.com']]), [m[0], m[3], m[6], m[9]]);
    t.same(await ids([{ operator: 'channel', operand: fetchChannel }, { operator: 'sender', operand: 5 }]), [m[0], m[3], m[6], m[9]], 'sender by id');
    t.same(await ids([{ operator: 'channel', operand: fetchChannel }, { operator: 'sender', operand: 5, negated: true }, ['topic', 'beta']]), [m[1], m[5], m[7]]);
    t.same(await ids([['stream', 'Fetch'], ['search', 'QUICK fox']]), [m[4]], 'search: words, any case');
    t.same(await ids([['stream', 'Fetch'], ['search', 'qui']]), [m[4]], 'word prefixes');
    t.same(await ids([['stream', 'Fetch'], ['search', 'quick cat']]), [], 'every word must match');
    t.same(await ids([['stream', 'Fetch'], ['search', '"brown fox"']]), [m[4]], 'quoted phrases');
    t.same(await ids([['stream', 'Fetch'], ['search', '"fox brown"']]), []);
    t.same(await ids([['search', 'quick']], othello), [m[4]], 'search without a channel');
    const searched = await hamlet.get('/messages', { anchor: 'newest', num_before: 5, narrow: [['stream', 'Fetch'], ['search', 'quick']] });
    t.equal(searched.body.messages[0].match_content, '<p>message 4 The <span class="highlight">Quick</span> brown fox</p>');
    t.equal(searched.body.messages[0].match_subject, 'alpha');
    t.notOk('match_content' in (await message(hamlet, m[4])), 'only with a search');
    t.same(await ids([['stream', 'Fetch'], ['search', 'BETA']]), topicB, 'search looks at the topic too');
    t.same(await ids([{ operator: 'id', operand: m[3] }]), [m[3]]);
    t.same(await ids([{ operator: 'id', operand: String(m[3]) }, ['stream', 'Fetch']]), [m[3]]);
    t.same(await ids([{ operator: 'id', operand: m[3] }, ['stream', 'Denmark']]), []);

    // Direct-message narrows, seen by prospero (a fresh inbox).
    const withIago = await sendDm(prospero, [2], 'to iago');
    const fromIago = await sendDm(iago, [7], 'to prospero');
    const group = await sendDm(prospero, [2, 5], 'to iago and othello');
    const withOthello = await sendDm(othello, [7], 'othello to prospero');
    const self = await sendDm(prospero, [7], 'myself');
    const p = (narrow: unknown) => ids(narrow, prospero);
    t.same(await p([{ operator: 'dm', operand: [2] }]), [withIago, fromIago], 'dm: one conversation');
    t.same(await p([{ operator: 'dm', operand: [2, 7] }]), [withIago, fromIago], 'the viewer may be in the list');
    t.same(await p([['pm-with', 'iago@example.com']]), [withIago, fromIago], 'pm-with and emails');
    t.same(await p([['dm', 'iago@example.com,othello@example.com']]), [group]);
    t.same(await p([{ operator: 'dm', operand: [7] }]), [self], 'self-DMs');
    t.same(await p([{ operator: 'dm', operand: [6] }]), [], 'a conversation that does not exist');
    t.same(await p([{ operator: 'dm-including', operand: 5 }]), [group, withOthello], 'dm-including: 1:1 and groups');
    t.same(await p([['dm-including', 'iago@example.com']]), [withIago, fromIago, group]);
    const since = (list: number[]) => list.filter((id) => id >= withIago);
    t.same(since(await p([['is', 'dm']])), [withIago, fromIago, group, withOthello, self]);
    t.same(since(await p([['is', 'private']])), [withIago, fromIago, group, withOthello, self], 'is:private is is:dm');
    t.same(await p([{ operator: 'is', operand: 'dm', negated: true }, ['sender', 'iago@example.com']]), [], 'negated');
    t.same(await ids([{ operator: 'dm', operand: [7] }], othello), [withOthello]);

    // is: starred, mentioned, unread, resolved
    await prospero.post('/messages/flags', { messages: [withIago, m[2]], op: 'add', flag: 'starred' });
    t.same(await p([['is', 'starred']]), [m[2], withIago], 'starred, even a message prospero never received');
    const mentioning = await send(hamlet, 'Denmark', 'narrows', 'hey @**Prospero from The Tempest**');
    const wildcard = await send(hamlet, 'Denmark', 'narrows', 'hey @**all**');
    t.same((await p([['is', 'mentioned']])).filter((id) => id > withIago), [mentioning, wildcard], 'personal and wildcard mentions');
    await prospero.post('/mark_all_as_read');
    const unreadOne = await sendDm(iago, [7], 'unread');
    t.same(await p([['is', 'unread']]), [unreadOne]);
    const resolved = await send(hamlet, 'Fetch', '✔ done', 'finished');
    t.same(await ids([['stream', 'Fetch'], ['is', 'resolved']]), [resolved]);
    t.same(await ids([['is', 'resolved']]), [resolved]);
    t.same((await ids([{ operator: 'channel', operand: 'Fetch' }, { operator: 'is', operand: 'resolved', negated: true }])), m);

    // channels:public, and history: public channels one is not subscribed to.
    const hidden = await send(iago, 'core team', 'secret', 'hidden');
    const scottish = await send(othello, 'Scotland', 'narrows', 'in Scotland');
    const publicIds = await p([['channels', 'public']]);
    t.ok(publicIds.includes(scottish), 'channels:public shows public history');
    t.notOk(publicIds.includes(hidden));
    t.notOk(publicIds.includes(withIago), 'no direct messages');
    t.notOk((await p([])).includes(scottish), 'the default narrow shows only what one received');
    t.same(await p([['stream', 'Scotland'], ['topic', 'narrows']]), [scottish], 'a public channel narrow shows its history');
    t.same((await prospero.get('/messages', { anchor: 'newest', num_before: 1, narrow: [['stream', 'Scotland']] })).body.messages[0].flags, ['read', 'historical']);
    t.same(await p([['stream', 'core team']]), [], 'a private channel one is not in: nothing, and no error');
    t.same(await p([['stream', 'Scotland'], ['is', 'unread']]), [], 'an is: term turns history off');
    const forPolonius = await send(hamlet, 'Verona', 'narrows', 'polonius is here');
    const guestPublic = await ids([['channels', 'public']], polonius);
    t.ok(guestPublic.includes(forPolonius), 'guests: channels:public gives what they received');
    t.notOk(guestPublic.includes(scottish), 'but no public history');
    t.notOk((await ids([['stream', 'Scotland']], polonius)).length, 'not even for one channel');

    // Bad narrows.
    const bad = async (narrow: unknown, desc: string) => {
      const response = await hamlet.get('/messages', { anchor: 'newest', num_before: 1, narrow });
      t.same(response.body, { result: 'error', code: 'BAD_NARROW', msg: `Invalid narrow operator: ${desc}`, desc }, desc);
      t.equal(response.status, 400);
    };
    await bad([['foo', 'bar']], 'unknown operator foo');
    await bad([['stream', 'Atlantis']], 'unknown channel Atlantis');
    await bad([{ operator: 'channel', operand: 999 }], 'unknown channel 999');
    await bad([['sender', 'ghost@example.com']], 'unknown user ghost@example.com');
    await bad([{ operator: 'sender', operand: 999 }], 'unknown user 999');
    await bad([{ operator: 'dm', operand: [2, 999] }], 'unknown user in [2,999]');
    await bad([['dm-including', 'ghost@example.com']], 'unknown user ghost@example.com');
    await bad([['is', 'shiny']], "unknown 'is' operand shiny");
    await bad([['channels', 'private']], 'unknown channels operand private');
    await bad([['has', 'cats']], "unknown 'has' operand cats");
    await bad([['id', 'abc']], 'Invalid message ID');
    await bad([['stream', 'Denmark'], ['is', 'dm']], 'No message can be both a channel message and direct message');
    await bad([['topic', 'x'], { operator: 'dm', operand: [2] }], 'No message can be both a channel message and direct message');
    const shape = async (narrow: unknown, msg: string) => t.same(error(await hamlet.get('/messages', { anchor: 'newest', narrow })), [400, 'BAD_REQUEST', msg], msg);
    await shape([['stream']], 'Invalid narrow[0]: Value error, element is not a string pair');
    await shape([['stream', 3]], 'Invalid narrow[0]: Value error, element is not a string pair');
    await shape([5], 'Invalid narrow[0]: Value error, dict or list required');
    await shape([{ operator: 'stream' }], 'Invalid narrow[0]: Value error, operand is missing');
    await shape([['stream', 'Fetch'], { operand: 'x' }], 'Invalid narrow[1]: Value error, operator is missing');
  });

  t.test('GET /messages and /messages/{id}: message objects', async (t) => {
    const id = await send(hamlet, 'Fetch', 'objects', '/me waves **boldly**', { client: 'ZulipPython' });
    const response = await othello.get(`/messages/${id}`);
    t.equal(response.status, 200);
    t.same(Object.keys(response.body).sort(), ['message', 'msg', 'raw_content', 'result']);
    t.equal(response.body.raw_content, '/me waves **boldly**');
    const object = response.body.message;
    t.same(Object.keys(object).sort(), [...MESSAGE_FIELDS, 'stream_id'].sort());
    t.same(object, {
      id, sender_id: 4, content: '<p>/me waves <strong>boldly</strong></p>', recipient_id: org.channels.get(fetchChannel)!.recipientId,
      timestamp: seconds(), client: 'ZulipPython', subject: 'objects', topic_links: [], is_me_message: true, reactions: [],
      submessages: [], sender_email: 'hamlet@example.com', sender_full_name: 'King Hamlet', avatar_url: null,
      sender_realm_str: org.realm.stringId, display_recipient: 'Fetch', type: 'stream', content_type: 'text/html', flags: [],
      stream_id: fetchChannel,
    });
    const listed = await othello.get('/messages', { anchor: id, narrow: [['stream', 'Fetch']] });
    t.same(listed.body.messages, [object], 'the same object in a range');
    const raw = await message(othello, id, { apply_markdown: false });
    t.same([raw.content, raw.content_type, raw.is_me_message], ['/me waves **boldly**', 'text/x-markdown', true]);
    const gravatar = await message(othello, id, { client_gravatar: false });
    t.match(gravatar.avatar_url, /^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/);
    const rangeRaw = await othello.get('/messages', { anchor: id, narrow: [['stream', 'Fetch']], apply_markdown: false, client_gravatar: false });
    t.same([rangeRaw.body.messages[0].content, typeof rangeRaw.body.messages[0].avatar_url], ['/me waves **boldly**', 'string']);
    const emptyTopic = await send(hamlet, 'Fetch', '', 'x');
    const shown = await othello.get('/messages', { anchor: emptyTopic, narrow: [['stream', 'Fetch']] });
    t.equal(shown.body.messages[0].subject, 'general chat');
    const rawTopic = await othello.get('/messages', { anchor: emptyTopic, narrow: [['stream', 'Fetch']], allow_empty_topic_name: true });
    t.equal(rawTopic.body.messages[0].subject, '');
    t.same(error(await othello.get('/messages/999999')), invalidMessage);
  });

  t.test('PATCH /messages/{id}: content', async (t) => {
    const sentAt = seconds();
    const id = await send(hamlet, 'Denmark', 'edits', 'first draft');
    advance(60);
    const edited = await hamlet.patch(`/messages/${id}`, { content: 'second draft, @**Othello, the Moor of Venice**' });
    t.equal(edited.status, 200);
    t.same(edited.body, { result: 'success', msg: '', detached_uploads: [] });
    const after = await othello.get(`/messages/${id}`);
    t.equal(after.body.raw_content, 'second draft, @**Othello, the Moor of Venice**');
    t.equal(after.body.message.content, '<p>second draft, <span class="user-mention" data-user-id="5">@Othello, the Moor of Venice</span></p>');
    t.equal(after.body.message.last_edit_timestamp, seconds());
    t.equal(after.body.message.timestamp, sentAt, 'the send time stays');
    t.notOk('last_moved_timestamp' in after.body.message, 'a content edit is not a move');
    t.same(after.body.message.flags, ['mentioned'], 'mentions added by an edit set the flag');
    await hamlet.patch(`/messages/${id}`, { content: 'third draft' });
    t.same(await flagsOf(othello, id), [], 'and removed ones clear it');
    await hamlet.patch(`/messages/${id}`, { content: '   ' });
    t.equal((await hamlet.get(`/messages/${id}`)).body.raw_content, '(deleted)', 'blank content becomes (deleted)');

    t.same(error(await othello.patch(`/messages/${id}`, { content: 'not mine' })), [400, 'BAD_REQUEST', "You don't have permission to edit this message"]);
    t.same(error(await iago.patch(`/messages/${id}`, { content: 'admin' })), [400, 'BAD_REQUEST', "You don't have permission to edit this message"], 'not even administrators edit content');
    t.same(error(await hamlet.patch(`/messages/${id}`, {})), [400, 'BAD_REQUEST', 'Nothing to change']);
    t.same(error(await hamlet.patch(`/messages/${id}`, { topic: 'edits' })), [400, 'BAD_REQUEST', 'Nothing to change'], 'the same topic is no change');
    t.same(error(await hamlet.patch(`/messages/${id}`, { content: 'x\x00' })), [400, 'BAD_REQUEST', 'Message must not contain null bytes']);
    const sha = await hamlet.patch(`/messages/${id}`, { content: 'x', prev_content_sha256: '0'.repeat(64) });
    t.same(sha.body, { result: 'error', code: 'EXPECTATION_MISMATCH', msg: "'prev_content_sha256' value does not match the expected value.", field_name: 'prev_content_sha256' });
    const { createHash } = await import('node:crypto');
    const good = createHash('sha256').update('(deleted)').digest('hex');
    t.equal((await hamlet.patch(`/messages/${id}`, { content: 'checked', prev_content_sha256: good })).status, 200);
    t.same(error(await hamlet.patch('/messages/999999', { content: 'x' })), invalidMessage);

    // The organization's edit time limit (600 s by default, plus 20 s of grace).
    const timed = await send(hamlet, 'Denmark', 'edits', 'timed');
    advance(620);
    t.equal((await hamlet.patch(`/messages/${timed}`, { content: 'just in time' })).status, 200, '620 s after sending');
    advance(1);
    t.same(error(await hamlet.patch(`/messages/${timed}`, { content: 'too late' })), [400, 'BAD_REQUEST', 'The time limit for editing this message has passed']);
    await setRealm(server, { message_content_edit_limit_seconds: null });
    t.equal((await hamlet.patch(`/messages/${timed}`, { content: 'no limit' })).status, 200, 'null: no limit');
    await setRealm(server, { message_content_edit_limit_seconds: 600, allow_message_editing: false });
    const fresh = await send(hamlet, 'Denmark', 'edits', 'fresh');
    t.same(error(await hamlet.patch(`/messages/${fresh}`, { content: 'x' })), [400, 'BAD_REQUEST', 'Your organization has turned off message editing']);
    await setRealm(server, { allow_message_editing: true });
  });

  t.test('PATCH /messages/{id}: topics and propagate_mode', async (t) => {
    const quiet = { send_notification_to_new_thread: false };
    const p: number[] = [];
    for (let i = 0; i < 4; i++) p.push(await send(i % 2 ? othello : hamlet, 'Denmark', 'plans', `plan ${i}`));
    const topicOf = async (id: number) => (await message(hamlet, id)).subject;
    const inTopic = (topic: string) => fetchIds(hamlet, { anchor: 'newest', num_before: 20, narrow: [['stream', 'Denmark'], ['topic', topic]] });

    const one = await cordelia.patch(`/messages/${p[1]}`, { topic: 'plan one', ...quiet });
    t.equal(one.status, 200, "anyone may change the topic of someone else's message");
    t.same(await inTopic('plan one'), [p[1]], 'change_one (the default) moves one message');
    t.same(await inTopic('plans'), [p[0], p[2], p[3]]);
    const moved = await message(hamlet, p[1]);
    t.equal(moved.last_moved_timestamp, seconds());
    t.notOk('last_edit_timestamp' in moved, 'a move is not a content edit');

    t.equal((await hamlet.patch(`/messages/${p[2]}`, { topic: 'later plans', propagate_mode: 'change_later', ...quiet })).status, 200);
    t.same(await inTopic('later plans'), [p[2], p[3]], 'change_later: this message and the later ones');
    t.same(await inTopic('plans'), [p[0]]);
    await send(hamlet, 'Denmark', 'later plans', 'another', { read_by_sender: true });
    const newest = (await inTopic('later plans')).at(-1)!;
    t.equal((await hamlet.patch(`/messages/${p[3]}`, { topic: 'All Plans', propagate_mode: 'change_all', ...quiet })).status, 200);
    t.same(await inTopic('all plans'), [p[2], p[3], newest], 'change_all: the whole topic');
    t.same(await inTopic('later plans'), []);
    const topics = (await hamlet.get(`/users/me/${DENMARK}/topics`)).body.topics.map((x: any) => x.name);
    t.ok(topics.includes('All Plans') && !topics.includes('later plans'), 'the topic list follows');
    t.same(await flagsOf(othello, newest), [], 'flags are kept');

    t.same(error(await hamlet.patch(`/messages/${p[0]}`, { topic: 'x', propagate_mode: 'change_some' })), [400, 'BAD_REQUEST', 'Invalid propagate_mode']);
    t.same(error(await hamlet.patch(`/messages/${p[0]}`, { content: 'x', propagate_mode: 'change_all' })), [400, 'BAD_REQUEST', 'Invalid propagate_mode without topic edit']);
    t.same(error(await hamlet.patch(`/messages/${p[0]}`, { topic: 'a\u0007' })), [400, 'BAD_REQUEST', 'Invalid character in topic, at position 2!']);
    t.same(error(await hamlet.patch(`/messages/${p[0]}`, { topic: '✔ general chat' })), [400, 'BAD_REQUEST', 'General chat cannot be marked as resolved']);
    t.equal((await hamlet.patch(`/messages/${p[0]}`, { subject: 'legacy subject', ...quiet })).status, 200, 'subject works too');
    t.equal(await topicOf(p[0]), 'legacy subject');

    const dm = await sendDm(hamlet, [5], 'dm');
    t.same(error(await hamlet.patch(`/messages/${dm}`, { topic: 'x' })), [400, 'BAD_REQUEST', 'Direct messages cannot have topics.']);
    t.same(error(await hamlet.patch(`/messages/${dm}`, { stream_id: DENMARK })), [400, 'BAD_REQUEST', 'Direct messages cannot be moved to channels.']);
    t.equal((await hamlet.patch(`/messages/${dm}`, { content: 'dm edited' })).status, 200, 'their content can be edited');

    // Organization policies: who may move between topics, and until when.
    await setRealm(server, { can_move_messages_between_topics_group: org.realm.systemGroups['role:administrators'] });
    t.same(error(await hamlet.patch(`/messages/${p[0]}`, { topic: 'x' })), [400, 'BAD_REQUEST', "You don't have permission to edit this message"]);
    t.equal((await iago.patch(`/messages/${p[0]}`, { topic: 'admin moved', ...quiet })).status, 200);
    await setRealm(server, { can_move_messages_between_topics_group: org.realm.systemGroups['role:everyone'] });
    const old = await send(hamlet, 'Denmark', 'old news', 'old');
    advance(7 * 24 * 3600 + 20);
    t.equal((await othello.patch(`/messages/${old}`, { topic: 'older news', ...quiet })).status, 200, '7 days and 20 s after sending');
    advance(1);
    t.same(error(await othello.patch(`/messages/${old}`, { topic: 'oldest news' })), [400, 'BAD_REQUEST', "The time limit for editing this message's topic has passed."]);
    t.equal((await shiva.patch(`/messages/${old}`, { topic: 'oldest news', ...quiet })).status, 200, 'moderators have no time limit');

    // Resolving is a topic edit, with a notice from the notification bot.
    const issue = await send(othello, 'Denmark', 'bug', 'it broke');
    t.equal((await cordelia.patch(`/messages/${issue}`, { topic: '✔ bug', propagate_mode: 'change_all' })).status, 200);
    const resolvedTopic = await hamlet.get('/messages', { anchor: 'newest', num_before: 5, narrow: [['stream', 'Denmark'], ['topic', '✔ bug']], apply_markdown: false });
    t.same(resolvedTopic.body.messages.map((x: any) => [x.sender_id, x.content]), [
      [5, 'it broke'],
      [BOT, "@_**Cordelia, Lear's daughter|6** has marked this topic as resolved."],
    ]);
    t.notOk('last_moved_timestamp' in (await message(hamlet, issue)), 'resolving is not moving');
    t.same(resolvedTopic.body.messages[1].flags, [], 'the notice is unread for others');
    t.same(await flagsOf(cordelia, resolvedTopic.body.messages[1].id), ['read'], 'and read for the one who resolved it');
    advance(61); // past the grace period in which unresolving would delete the notice instead
    t.equal((await othello.patch(`/messages/${issue}`, { topic: 'bug', propagate_mode: 'change_all' })).status, 200);
    const reopened = await hamlet.get('/messages', { anchor: 'newest', num_before: 1, narrow: [['stream', 'Denmark'], ['topic', 'bug']], apply_markdown: false });
    t.equal(reopened.body.messages[0].content, '@_**Othello, the Moor of Venice|5** has marked this topic as unresolved.');
  });

  t.test('PATCH /messages/{id}: moving between channels', async (t) => {
    await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Harbor' }], principals: [4, 6] });
    const a = await send(hamlet, 'Harbor', 'cargo', 'crate 1');
    const b = await send(hamlet, 'Harbor', 'cargo', 'crate 2');
    const moved = await hamlet.patch(`/messages/${a}`, { stream_id: DENMARK, propagate_mode: 'change_all', send_notification_to_new_thread: false });
    t.equal(moved.status, 200);
    for (const id of [a, b]) t.match(await message(iago, id), { stream_id: DENMARK, display_recipient: 'Denmark', subject: 'cargo' });
    t.same(await flagsOf(iago, a), ['read'], 'subscribers of the new channel get the messages, read');
    t.same(await flagsOf(cordelia, a), [], 'the old recipients keep theirs');
    t.same(await fetchIds(hamlet, { anchor: 'newest', num_before: 10, narrow: [['stream', 'Harbor']] }), []);
    t.same(await fetchIds(hamlet, { anchor: 'newest', num_before: 10, narrow: [['stream', 'Denmark'], ['topic', 'cargo']] }), [a, b]);
    t.equal((await message(hamlet, a)).last_moved_timestamp, seconds());

    const c = await send(hamlet, 'Harbor', 'cargo', 'crate 3');
    t.equal((await hamlet.patch(`/messages/${c}`, { stream_id: DENMARK, topic: 'unloaded' })).status, 200, 'channel and topic at once');
    const notices = async (channel: string, topic: string) => {
      const found = await hamlet.get('/messages', { anchor: 'newest', num_before: 20, narrow: [['stream', channel], ['topic', topic]], apply_markdown: false });
      return found.body.messages.filter((x: any) => x.sender_id === BOT);
    };
    const here = await notices('Denmark', 'unloaded');
    t.same(here.map((x: any) => x.content), ['This topic was moved here from #**Harbor>cargo** by @_**King Hamlet|4**.'], 'the last message of a topic moved to a new one: the whole topic moved');
    t.same(here[0].flags, ['read'], 'read for the one who moved it');
    t.same(await flagsOf(iago, here[0].id), [], 'unread for the others');
    t.same(await notices('Harbor', 'cargo'), [], 'no notice in the old place unless asked');

    const old = { send_notification_to_old_thread: true };
    const contents = async (channel: string, topic: string) => (await notices(channel, topic)).map((x: any) => x.content);
    const f = [await send(hamlet, 'Harbor', 'crates', 'f1'), await send(hamlet, 'Harbor', 'crates', 'f2')];
    await hamlet.patch(`/messages/${f[0]}`, { stream_id: DENMARK, ...old });
    const link = `${server.url}/#narrow/channel/3-Denmark/topic/crates/near/${f[0]}`;
    t.same(await contents('Denmark', 'crates'), [`[A message](${link}) was moved here from #**Harbor>crates** by @_**King Hamlet|4**.`], 'one message of several, linked');
    t.same(await contents('Harbor', 'crates'), ['A message was moved from this topic to #**Denmark>crates** by @_**King Hamlet|4**.'], 'send_notification_to_old_thread');
    const h = [await send(hamlet, 'Harbor', 'boxes', 'h1'), await send(hamlet, 'Harbor', 'boxes', 'h2'), await send(hamlet, 'Harbor', 'boxes', 'h3')];
    await hamlet.patch(`/messages/${h[1]}`, { stream_id: DENMARK, propagate_mode: 'change_later', ...old });
    t.same(await fetchIds(hamlet, { anchor: 'newest', num_before: 5, narrow: [['stream', 'Denmark'], ['topic', 'boxes'], { operator: 'sender', operand: BOT, negated: true }] }), [h[1], h[2]]);
    t.same(await contents('Denmark', 'boxes'), ['2 messages were moved here from #**Harbor>boxes** by @_**King Hamlet|4**.'], 'part of a topic');
    t.same(await contents('Harbor', 'boxes'), ['2 messages were moved from this topic to #**Denmark>boxes** by @_**King Hamlet|4**.']);
    const g = [await send(hamlet, 'Harbor', 'barrels', 'g1'), await send(hamlet, 'Harbor', 'barrels', 'g2')];
    await hamlet.patch(`/messages/${g[0]}`, { stream_id: DENMARK, topic: 'crates', propagate_mode: 'change_all', ...old });
    t.same((await contents('Denmark', 'crates')).slice(1), ['2 messages were moved here from #**Harbor>barrels** by @_**King Hamlet|4**.'], 'a whole topic joining one that has messages');
    t.same(await contents('Harbor', 'barrels'), ['This topic was moved to #**Denmark>crates** by @_**King Hamlet|4**.']);

    const d = await send(hamlet, 'Harbor', 'cargo', 'crate 4');
    t.same(error(await hamlet.patch(`/messages/${d}`, { stream_id: DENMARK, content: 'x' })), [400, 'BAD_REQUEST', 'Cannot change message content while changing channel']);
    t.same(error(await hamlet.patch(`/messages/${d}`, { stream_id: CORE_TEAM })), [400, 'BAD_REQUEST', 'Invalid channel ID']);
    t.same(error(await hamlet.patch(`/messages/${d}`, { stream_id: 999 })), [400, 'BAD_REQUEST', 'Invalid channel ID']);
    const guestMessage = await send(polonius, 'Verona', 'guest', 'mine');
    t.same(error(await polonius.patch(`/messages/${guestMessage}`, { stream_id: DENMARK })), [400, 'BAD_REQUEST', "You don't have permission to move this message"], 'guests may not move between channels');
    await setRealm(server, { can_move_messages_between_channels_group: org.realm.systemGroups['role:administrators'] });
    t.same(error(await hamlet.patch(`/messages/${d}`, { stream_id: DENMARK })), [400, 'BAD_REQUEST', "You don't have permission to move this message"]);
    t.equal((await iago.patch(`/messages/${d}`, { stream_id: DENMARK, send_notification_to_new_thread: false })).status, 200, 'administrators may');
    await setRealm(server, { can_move_messages_between_channels_group: org.realm.systemGroups['role:members'] });
    const e = await send(cordelia, 'Harbor', 'cargo', 'crate 5');
    advance(7 * 24 * 3600 + 21);
    t.same(error(await cordelia.patch(`/messages/${e}`, { stream_id: DENMARK })), [400, 'BAD_REQUEST', "The time limit for editing this message's channel has passed"]);
    t.equal((await shiva.patch(`/messages/${e}`, { stream_id: VERONA, send_notification_to_new_thread: false })).status, 200, 'moderators have no time limit');
    t.equal((await message(shiva, e)).stream_id, VERONA);
  });

  t.test('GET /messages/{id}/history', async (t) => {
    const sentAt = seconds();
    const id = await send(hamlet, 'Denmark', 'story', 'Hello world');
    const original = { topic: 'story', content: 'Hello world', rendered_content: '<p>Hello world</p>', timestamp: sentAt, user_id: 4 };
    const first = await othello.get(`/messages/${id}/history`);
    t.equal(first.status, 200);
    t.same(first.body, { result: 'success', msg: '', message_history: [original] }, 'a message never edited: only the original, with five fields');

    advance(30);
    const editedAt = seconds();
    await hamlet.patch(`/messages/${id}`, { content: 'Hello brave world' });
    advance(30);
    const movedAt = seconds();
    await othello.patch(`/messages/${id}`, { topic: 'saga', send_notification_to_new_thread: false });
    advance(30);
    const bothAt = seconds();
    await hamlet.patch(`/messages/${id}`, { content: 'Hello world', topic: '', send_notification_to_new_thread: false });
    const history = (await othello.get(`/messages/${id}/history`)).body.message_history;
    t.equal(history.length, 4);
    t.same(history[0], original, 'oldest first');
    t.same(history[1], {
      topic: 'story', content: 'Hello brave world', rendered_content: '<p>Hello brave world</p>', timestamp: editedAt, user_id: 4,
      prev_content: 'Hello world', prev_rendered_content: '<p>Hello world</p>',
      content_html_diff: '<div><p>Hello <span class="highlight_text_inserted">brave</span> world</p></div>',
    }, 'a content edit: prev_content and the diff, no prev_topic');
    t.same(history[2], {
      topic: 'saga', prev_topic: 'story', content: 'Hello brave world', rendered_content: '<p>Hello brave world</p>', timestamp: movedAt, user_id: 5,
    }, 'a topic edit by someone else: prev_topic only');
    t.same(history[3], {
      topic: 'general chat', prev_topic: 'saga', content: 'Hello world', rendered_content: '<p>Hello world</p>', timestamp: bothAt, user_id: 4,
      prev_content: 'Hello brave world', prev_rendered_content: '<p>Hello brave world</p>',
      content_html_diff: '<div><p>Hello <span class="highlight_text_deleted">brave</span> world</p></div>',
    }, 'both at once; the empty topic by its display name');
    const raw = (await othello.get(`/messages/${id}/history`, { allow_empty_topic_name: true })).body.message_history;
    t.same([raw[3].topic, raw[3].prev_topic, raw[2].topic], ['', 'saga', 'saga'], 'allow_empty_topic_name');

    const objectHistory = (await message(othello, id)).edit_history;
    t.same(objectHistory.map((e: any) => Object.keys(e).sort()), [
      ['prev_content', 'prev_rendered_content', 'prev_topic', 'timestamp', 'topic', 'user_id'],
      ['prev_topic', 'timestamp', 'topic', 'user_id'],
      ['prev_content', 'prev_rendered_content', 'timestamp', 'user_id'],
    ], 'message objects carry the stored history, newest first');

    const traveller = await send(hamlet, 'Denmark', 'travel', 'going');
    await hamlet.patch(`/messages/${traveller}`, { stream_id: VERONA, send_notification_to_new_thread: false });
    const travelled = (await hamlet.get(`/messages/${traveller}/history`)).body.message_history;
    t.same(travelled[1], { topic: 'travel', content: 'going', rendered_content: '<p>going</p>', timestamp: seconds(), user_id: 4, prev_stream: DENMARK, stream: VERONA }, 'a channel move: stream and prev_stream');

    t.same(error(await polonius.get(`/messages/${id}/history`)), invalidMessage);
    t.same(error(await othello.get('/messages/999999/history')), invalidMessage);
    await setRealm(server, { allow_edit_history: false });
    t.same(error(await othello.get(`/messages/${id}/history`)), [400, 'BAD_REQUEST', 'Message edit history is disabled in this organization']);
    const hidden = await message(othello, id);
    t.notOk('edit_history' in hidden, 'nor is it in message objects');
    t.equal(hidden.last_edit_timestamp, bothAt);
    await setRealm(server, { allow_edit_history: true });
  });

  t.test('DELETE /messages/{id}', async (t) => {
    const id = await send(hamlet, 'Denmark', 'doomed', 'delete me');
    const kept = await send(hamlet, 'Denmark', 'doomed', 'keep me');
    t.same(error(await othello.delete(`/messages/${id}`)), [400, 'BAD_REQUEST', "You don't have permission to delete this message"]);
    const deleted = await hamlet.delete(`/messages/${id}`);
    t.same([deleted.status, deleted.body], [200, { result: 'success', msg: '' }]);
    t.same(error(await hamlet.get(`/messages/${id}`)), invalidMessage);
    t.same(error(await hamlet.delete(`/messages/${id}`)), invalidMessage);
    t.same(await fetchIds(othello, { anchor: 'newest', num_before: 5, narrow: [['stream', 'Denmark'], ['topic', 'doomed']] }), [kept]);
    t.equal(flagsInStore(5, id), undefined, 'the per-user records go too');

    const other = await send(othello, 'Denmark', 'doomed', 'othello says');
    t.equal((await iago.delete(`/messages/${other}`)).status, 200, 'administrators delete anyone\'s');
    const late = await send(hamlet, 'Denmark', 'doomed', 'late');
    advance(600);
    const lateToo = await send(hamlet, 'Denmark', 'doomed', 'late too');
    advance(1);
    t.same(error(await hamlet.delete(`/messages/${late}`)), [400, 'BAD_REQUEST', 'The time limit for deleting this message has passed'], '601 s: too late (no grace)');
    t.equal((await hamlet.delete(`/messages/${lateToo}`)).status, 200, '1 s: fine');
    t.equal((await desdemona.delete(`/messages/${late}`)).status, 200, 'no limit for administrators');
    await setRealm(server, { can_delete_own_message_group: org.realm.systemGroups['role:moderators'] });
    const own = await send(hamlet, 'Denmark', 'doomed', 'own');
    t.same(error(await hamlet.delete(`/messages/${own}`)), [400, 'BAD_REQUEST', "You don't have permission to delete this message"], 'can_delete_own_message_group');
    await setRealm(server, { can_delete_own_message_group: org.realm.systemGroups['role:everyone'] });
    const dm = await sendDm(othello, [4], 'private');
    t.same(error(await cordelia.delete(`/messages/${dm}`)), invalidMessage);
    t.equal((await othello.delete(`/messages/${dm}`)).status, 200);
    t.same(error(await hamlet.delete('/messages/999999')), invalidMessage);
  });

  t.test('POST and DELETE /messages/{id}/reactions', async (t) => {
    const id = await send(hamlet, 'Denmark', 'reactions', 'react to me');
    const reactions = async () => (await message(hamlet, id)).reactions;
    const added = await othello.post(`/messages/${id}/reactions`, { emoji_name: 'tada' });
    t.same([added.status, added.body], [200, { result: 'success', msg: '' }]);
    t.same(await reactions(), [{ emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji', user_id: 5 }], 'a name alone resolves the code');
    const twice = await othello.post(`/messages/${id}/reactions`, { emoji_name: 'tada' });
    t.same(twice.body, { result: 'error', code: 'REACTION_ALREADY_EXISTS', msg: 'Reaction already exists.' });
    t.equal(twice.status, 400);
    t.same(error(await othello.post(`/messages/${id}/reactions`, { emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji' })), [400, 'REACTION_ALREADY_EXISTS', 'Reaction already exists.']);
    const vote = await cordelia.post(`/messages/${id}/reactions`, { emoji_name: 'party_popper_vote', emoji_code: '1f389', reaction_type: 'unicode_emoji' });
    t.equal(vote.status, 200, 'a vote on an existing reaction by its code');
    t.same((await reactions()).at(-1), { emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji', user_id: 6 }, 'keeps the existing name');
    t.equal((await hamlet.post(`/messages/${id}/reactions`, { emoji_name: 'heart', emoji_code: '2764', reaction_type: 'unicode_emoji' })).status, 200);
    t.equal((await hamlet.post(`/messages/${id}/reactions`, { emoji_name: 'zulip' })).status, 200);
    t.equal((await othello.post(`/messages/${id}/reactions`, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' })).status, 200, 'the service_extra_emoji namespace');
    t.same((await reactions()).slice(2), [
      { emoji_name: 'heart', emoji_code: '2764', reaction_type: 'unicode_emoji', user_id: 4 },
      { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji', user_id: 4 },
      { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji', user_id: 5 },
    ], 'in the order they were added');

    t.same(error(await hamlet.post(`/messages/${id}/reactions`, { emoji_name: 'tada', emoji_code: 'not-a-code', reaction_type: 'unicode_emoji' })), [400, 'BAD_REQUEST', 'Invalid emoji code.']);
    t.same(error(await hamlet.post(`/messages/${id}/reactions`, { emoji_name: 'smile', emoji_code: '1f600', reaction_type: 'unicode_emoji' })), [400, 'BAD_REQUEST', 'Invalid emoji name.'], 'a new reaction needs the name of its code');
    t.equal((await prospero.post(`/messages/${id}/reactions`, { emoji_name: 'smile', emoji_code: '2764', reaction_type: 'unicode_emoji' })).status, 200, 'a vote takes the code, whatever the name');
    t.same((await reactions()).at(-1), { emoji_name: 'heart', emoji_code: '2764', reaction_type: 'unicode_emoji', user_id: 7 });
    t.equal((await prospero.delete(`/messages/${id}/reactions`, { emoji_code: '2764' })).status, 200);
    t.same(error(await hamlet.post(`/messages/${id}/reactions`, { emoji_name: 'no_such_emoji' })), [400, 'BAD_REQUEST', "Emoji 'no_such_emoji' does not exist"]);
    t.same(error(await hamlet.post(`/messages/${id}/reactions`, { emoji_name: 'parrot', emoji_code: '1', reaction_type: 'realm_emoji' })), [400, 'BAD_REQUEST', 'Invalid custom emoji.'], 'realm_emoji: no such custom emoji');
    t.same(error(await hamlet.post(`/messages/${id}/reactions`, { emoji_name: 'zulip', emoji_code: 'zulip2', reaction_type: 'zulip_extra_emoji' })), [400, 'BAD_REQUEST', 'Invalid emoji code.']);
    t.same(error(await hamlet.post(`/messages/${id}/reactions`, { emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'sticker' })), [400, 'BAD_REQUEST', 'Invalid emoji type.']);
    t.same(error(await hamlet.post(`/messages/${id}/reactions`, {})), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'emoji_name' argument"]);
    t.same(error(await hamlet.post('/messages/999999/reactions', { emoji_name: 'tada' })), invalidMessage);

    const removed = await othello.delete(`/messages/${id}/reactions`, { emoji_name: 'tada' });
    t.same([removed.status, removed.body], [200, { result: 'success', msg: '' }]);
    t.same((await reactions()).filter((r: any) => r.emoji_code === '1f389').map((r: any) => r.user_id), [6], "only othello's vote is gone");
    const gone = await othello.delete(`/messages/${id}/reactions`, { emoji_name: 'tada' });
    t.same(gone.body, { result: 'error', code: 'REACTION_DOES_NOT_EXIST', msg: "Reaction doesn't exist." });
    t.same(error(await cordelia.delete(`/messages/${id}/reactions`, { emoji_code: '1f389' })), [200, undefined, ''], 'by code');
    t.same(error(await hamlet.delete(`/messages/${id}/reactions`, { emoji_name: 'zulip' })), [400, 'REACTION_DOES_NOT_EXIST', "Reaction doesn't exist."], 'the type defaults to unicode_emoji');
    t.equal((await hamlet.delete(`/messages/${id}/reactions`, { emoji_name: 'zulip', reaction_type: 'zulip_extra_emoji' })).status, 200);
    t.same(error(await hamlet.delete(`/messages/${id}/reactions`, {})), [400, 'BAD_REQUEST', 'At least one of the following arguments must be present: emoji_name, emoji_code']);
    t.same(error(await hamlet.delete(`/messages/${id}/reactions`, { emoji_name: 'smile' })), [400, 'REACTION_DOES_NOT_EXIST', "Reaction doesn't exist."]);
    t.same((await reactions()).map((r: any) => [r.emoji_name, r.user_id]), [['heart', 4], ['zulip', 5]]);

    const scottish = await send(othello, 'Scotland', 'reactions', 'far away');
    t.equal((await hamlet.post(`/messages/${scottish}/reactions`, { emoji_name: 'wave' })).status, 200, 'reacting in a public channel one is not in');
    t.equal(flagsInStore(4, scottish), Flag.read | Flag.historical, 'creates a historical record (read | historical)');
    t.same(await flagsOf(hamlet, scottish), ['read', 'historical']);
    t.same(error(await polonius.post(`/messages/${scottish}/reactions`, { emoji_name: 'wave' })), invalidMessage, 'not for guests');
  });

  t.test('POST /messages/flags', async (t) => {
    const a = await send(hamlet, 'Denmark', 'flags', 'a');
    const b = await send(hamlet, 'Denmark', 'flags', 'b');
    const starred = await othello.post('/messages/flags', { messages: [a, b], op: 'add', flag: 'starred' });
    t.same(starred.body, { result: 'success', msg: '', messages: [a, b], ignored_because_not_subscribed_channels: [] });
    t.same(await flagsOf(othello, a), ['starred']);
    t.same(await flagsOf(cordelia, a), [], 'flags are personal');
    await othello.post('/messages/flags', { messages: [a], op: 'remove', flag: 'starred' });
    t.same(await flagsOf(othello, a), []);
    t.same(await flagsOf(othello, b), ['starred']);
    await othello.post('/messages/flags', { messages: [a, b], op: 'add', flag: 'read' });
    t.same(await flagsOf(othello, b), ['read', 'starred']);
    await othello.post('/messages/flags', { messages: [b], op: 'remove', flag: 'read' });
    t.same(await flagsOf(othello, b), ['starred']);
    await othello.post('/messages/flags', { messages: [b], op: 'add', flag: 'collapsed' });
    t.same(await flagsOf(othello, b), ['starred', 'collapsed']);
    const echo = await othello.post('/messages/flags', { messages: [b, b, 999999], op: 'add', flag: 'read' });
    t.same(echo.body.messages, [b, b, 999999], 'the list is echoed; marking read is a no-op for unknown ids');

    const invalid = async (flag: string, msg: string) => t.same(error(await othello.post('/messages/flags', { messages: [a], op: 'add', flag })), [400, 'BAD_REQUEST', msg], msg);
    await invalid('shiny', "Invalid flag: 'shiny'");
    await invalid('wildcard_mentioned', "Invalid flag: 'wildcard_mentioned'");
    await invalid('is_private', "Invalid flag: 'is_private'");
    for (const flag of ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'group_mentioned', 'has_alert_word', 'historical', 'force_expand', 'force_collapse']) {
      await invalid(flag, `Flag not editable: '${flag}'`);
    }
    t.same(error(await othello.post('/messages/flags', { messages: [a], op: 'toggle', flag: 'read' })), [400, 'BAD_REQUEST', "Invalid message flag operation: 'toggle'"]);
    t.same(error(await othello.post('/messages/flags', { messages: [a], flag: 'read' })), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'op' argument"]);

    const secret = await send(iago, 'core team', 'flags', 'secret');
    t.same(error(await othello.post('/messages/flags', { messages: [secret], op: 'add', flag: 'starred' })), invalidMessage);
    t.same(error(await othello.post('/messages/flags', { messages: [999999], op: 'add', flag: 'starred' })), invalidMessage);
    t.equal(flagsInStore(5, secret), undefined);
    const scottish = await send(othello, 'Scotland', 'flags', 'far away');
    t.equal((await hamlet.post('/messages/flags', { messages: [scottish], op: 'add', flag: 'starred' })).status, 200);
    t.same(await flagsOf(hamlet, scottish), ['read', 'starred', 'historical'], 'starring public history creates a historical record');

    // Marking unread skips channels one is not subscribed to.
    const c = await send(othello, 'Scotland', 'flags', 'for cordelia');
    await cordelia.post('/messages/flags', { messages: [c], op: 'add', flag: 'read' });
    await cordelia.delete('/users/me/subscriptions', { subscriptions: ['Scotland'] });
    const skipped = await cordelia.post('/messages/flags', { messages: [c, a], op: 'remove', flag: 'read' });
    t.same(skipped.body, { result: 'success', msg: '', messages: [c, a], ignored_because_not_subscribed_channels: [SCOTLAND] });
    t.equal(flagsInStore(6, c), 1, 'still read');
    await cordelia.post('/users/me/subscriptions', { subscriptions: [{ name: 'Scotland' }] });
    t.same((await cordelia.post('/messages/flags', { messages: [c], op: 'remove', flag: 'read' })).body.ignored_because_not_subscribed_channels, []);
    t.same(await flagsOf(cordelia, c), []);
  });

  t.test('POST /messages/flags/narrow', async (t) => {
    await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Ranges' }], principals: [4, 5] });
    const rangeChannel = org.channels.byName('Ranges')!.id;
    const n: number[] = [];
    for (let i = 0; i < 6; i++) n.push(await send(hamlet, 'Ranges', 'r', `range ${i}`));
    const narrow = [{ operator: 'channel', operand: rangeChannel }];
    const call = (params: Record<string, unknown>) => othello.post('/messages/flags/narrow', { narrow, include_anchor: true, op: 'add', flag: 'read', ...params });

    const first = await call({ anchor: 'oldest', num_before: 0, num_after: 2 });
    t.equal(first.status, 200);
    t.same(first.body, {
      result: 'success', msg: '', processed_count: 2, updated_count: 2, first_processed_id: n[0], last_processed_id: n[1],
      found_oldest: true, found_newest: false,
    }, 'no ignored_because_not_subscribed_channels unless removing read');
    const again = await call({ anchor: 'oldest', num_before: 0, num_after: 2 });
    t.match(again.body, { processed_count: 2, updated_count: 0 }, 'already read');
    const middle = await call({ anchor: String(n[3]), include_anchor: false, num_before: 0, num_after: 10 });
    t.match(middle.body, { processed_count: 2, updated_count: 2, first_processed_id: n[4], last_processed_id: n[5], found_oldest: false, found_newest: true });
    const newest = await call({ anchor: 'newest', num_before: 10, num_after: 0 });
    t.match(newest.body, { processed_count: 6, updated_count: 2, first_processed_id: n[0], last_processed_id: n[5], found_oldest: true, found_newest: true });
    t.same(await fetchIds(othello, { anchor: 'newest', num_before: 10, narrow: [...narrow, { operator: 'is', operand: 'unread' }] }), []);

    const star = await call({ anchor: n[2], num_before: 1, num_after: 1, flag: 'starred' });
    t.match(star.body, { processed_count: 3, updated_count: 3, first_processed_id: n[1], last_processed_id: n[3] });
    t.same(await flagsOf(othello, n[2]), ['read', 'starred']);
    const unstar = await call({ anchor: 'newest', num_before: 10, num_after: 0, op: 'remove', flag: 'starred', narrow: [...narrow, ['is', 'starred']] });
    t.match(unstar.body, { processed_count: 3, updated_count: 3 });
    t.notOk('ignored_because_not_subscribed_channels' in unstar.body);

    const unread = await call({ anchor: 'newest', num_before: 2, num_after: 0, op: 'remove' });
    t.same(unread.body, {
      result: 'success', msg: '', processed_count: 2, updated_count: 2, first_processed_id: n[4], last_processed_id: n[5],
      found_oldest: false, found_newest: true, ignored_because_not_subscribed_channels: [],
    });
    const empty = await call({ anchor: 'newest', num_before: 10, num_after: 0, narrow: [...narrow, ['topic', 'nothing here']] });
    t.same(empty.body, {
      result: 'success', msg: '', processed_count: 0, updated_count: 0, first_processed_id: null, last_processed_id: null,
      found_oldest: true, found_newest: true,
    }, 'an empty range');

    await othello.delete('/users/me/subscriptions', { subscriptions: ['Ranges'] });
    const skipped = await call({ anchor: 'newest', num_before: 10, num_after: 0, op: 'remove' });
    t.match(skipped.body, { processed_count: 6, updated_count: 0, ignored_because_not_subscribed_channels: [rangeChannel] }, 'unsubscribed channels are skipped when marking unread');
    t.equal(flagsInStore(5, n[0]), 1);
    const markRead = await call({ anchor: 'newest', num_before: 10, num_after: 0 });
    t.notOk('ignored_because_not_subscribed_channels' in markRead.body);

    const nullNarrow = await othello.post('/messages/flags/narrow', { narrow: null, anchor: 'newest', num_before: 1, num_after: 0, op: 'add', flag: 'read' });
    t.equal(nullNarrow.status, 200, 'narrow may be null');
    t.same(error(await call({ anchor: n[2], num_before: 1, num_after: 1, include_anchor: false })), [400, 'BAD_REQUEST', 'The anchor can only be excluded at an end of the range']);
    t.same(error(await call({ anchor: 'newest', num_before: 1, num_after: 0, flag: 'mentioned' })), [400, 'BAD_REQUEST', "Flag not editable: 'mentioned'"]);
    t.same(error(await call({ anchor: 'newest', num_before: 1, num_after: 0, flag: 'shiny' })), [400, 'BAD_REQUEST', "Invalid flag: 'shiny'"]);
    t.same(error(await call({ anchor: 'newest', num_before: 1, num_after: 0, op: 'flip' })), [400, 'BAD_REQUEST', "Invalid message flag operation: 'flip'"]);
    t.same(error(await call({ anchor: 'sometime', num_before: 1, num_after: 0 })), [400, 'BAD_REQUEST', 'Invalid anchor']);
    t.same(error(await call({ anchor: 'newest', num_before: 1, num_after: 0, narrow: [['stream', 'Atlantis']] })), [400, 'BAD_NARROW', 'Invalid narrow operator: unknown channel Atlantis']);
    t.same(error(await othello.post('/messages/flags/narrow', { narrow, num_before: 1, num_after: 0, op: 'add', flag: 'read' })), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'anchor' argument"]);
    t.same(error(await othello.post('/messages/flags/narrow', { narrow, anchor: 'newest', num_after: 0, op: 'add', flag: 'read' })), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'num_before' argument"]);
  });

  t.test('POST /mark_all_as_read, /mark_stream_as_read, /mark_topic_as_read', async (t) => {
    const unreadIds = () => fetchIds(cordelia, { anchor: 'newest', num_before: 1000, narrow: [['is', 'unread']] });
    const d1 = await send(hamlet, 'Denmark', 'marking', 'd1');
    const d2 = await send(hamlet, 'Denmark', 'other marking', 'd2');
    const v1 = await send(hamlet, 'Verona', 'marking', 'v1');
    const dm = await sendDm(hamlet, [6], 'dm');
    t.ok((await unreadIds()).length >= 4);

    t.same((await cordelia.post('/mark_topic_as_read', { stream_id: DENMARK, topic_name: 'MARKING' })).body, { result: 'success', msg: '' });
    t.same(await flagsOf(cordelia, d1), ['read'], 'topics match in any case');
    t.same(await flagsOf(cordelia, d2), []);
    t.same(error(await cordelia.post('/mark_topic_as_read', { stream_id: DENMARK, topic_name: 'nothing like it' })), [400, 'BAD_REQUEST', "No such topic 'nothing like it'"]);
    t.same(error(await cordelia.post('/mark_topic_as_read', { stream_id: 999, topic_name: 'x' })), [400, 'BAD_REQUEST', 'Invalid channel ID']);
    t.same(error(await cordelia.post('/mark_topic_as_read', { stream_id: DENMARK })), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'topic_name' argument"]);

    t.same((await cordelia.post('/mark_stream_as_read', { stream_id: DENMARK })).body, { result: 'success', msg: '' });
    t.same(await flagsOf(cordelia, d2), ['read']);
    t.same(await flagsOf(cordelia, v1), [], 'other channels stay unread');
    t.same(await flagsOf(cordelia, dm), []);
    t.same(error(await cordelia.post('/mark_stream_as_read', { stream_id: CORE_TEAM })), [400, 'BAD_REQUEST', 'Invalid channel ID']);
    t.same(error(await cordelia.post('/mark_stream_as_read', { stream_id: 999 })), [400, 'BAD_REQUEST', 'Invalid channel ID']);
    t.same(error(await cordelia.post('/mark_stream_as_read', {})), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'stream_id' argument"]);

    const all = await cordelia.post('/mark_all_as_read');
    t.same(all.body, { result: 'success', msg: '', complete: true });
    t.same(await unreadIds(), []);
    t.same(await flagsOf(cordelia, dm), ['read']);
    t.same(await flagsOf(othello, d1), [], 'only her own');
  });

  t.test('POST /messages/{id}/report', async (t) => {
    const sentAt = seconds();
    const id = await send(hamlet, 'Denmark', 'offers', 'Cheap ```swords``` here\n```\nbuy\n```');
    const reported = await othello.post(`/messages/${id}/report`, { report_type: 'spam', description: 'Selling things' });
    t.same([reported.status, reported.body], [200, { result: 'success', msg: '' }]);
    const time = new Date(sentAt * 1000).toISOString().replace('.000Z', '+00:00');
    const report = (await iago.get('/messages', { anchor: 'newest', num_before: 1, narrow: [{ operator: 'channel', operand: MODERATION }], apply_markdown: false })).body.messages[0];
    t.match(report, { sender_id: BOT, subject: 'King Hamlet moderation', stream_id: MODERATION, client: 'Internal' });
    t.equal(report.content, [
      `@_**Othello, the Moor of Venice|5** reported a message sent by @_**King Hamlet|4** at <time:${time}>.`,
      '```quote',
      '**Spam**. Selling things',
      '```',
      '',
      `\`\`\`\` spoiler Original message at #**Denmark>offers@${id}**`,
      'Cheap ```swords``` here',
      '```',
      'buy',
      '```',
      '````',
    ].join('\n'), 'who reported whom, the reason, the description and the reported message in a spoiler');
    t.same(report.flags, [], 'unread for the moderators');
    const rendered = (await message(iago, report.id)).content;
    t.match(rendered, /<blockquote>/);
    t.match(rendered, /spoiler-block/);

    const own = await iago.post(`/messages/${id}/report`, { report_type: 'other', description: 'Another reason' });
    t.equal(own.status, 200);
    const second = (await iago.get('/messages', { anchor: 'newest', num_before: 1, narrow: [['stream', 'moderation'], ['topic', 'King Hamlet moderation']], apply_markdown: false })).body.messages[0];
    t.match(second.content, /^@_\*\*Iago\|2\*\* reported a message sent by @_\*\*King Hamlet\|4\*\*.*\n```quote\n\*\*Other reason\*\*\. Another reason\n```/);
    t.same(second.flags, ['read'], 'read for the reporter');
    for (const [type, label] of [['harassment', 'Harassment'], ['inappropriate', 'Inappropriate content'], ['norms', 'Violates community norms']]) {
      await cordelia.post(`/messages/${id}/report`, { report_type: type });
      const latest = (await iago.get('/messages', { anchor: 'newest', num_before: 1, narrow: [['stream', 'moderation']], apply_markdown: false })).body.messages[0];
      t.match(latest.content, new RegExp(`\\n\\*\\*${label}\\*\\*\\. \\n`), label);
    }
    const dm = await sendDm(othello, [6], 'a private insult');
    t.equal((await cordelia.post(`/messages/${dm}/report`, { report_type: 'harassment' })).status, 200);
    const dmReport = (await iago.get('/messages', { anchor: 'newest', num_before: 1, narrow: [['stream', 'moderation']], apply_markdown: false })).body.messages[0];
    t.equal(dmReport.subject, 'Othello, the Moor of Venice moderation', 'a topic per reported user');
    t.match(dmReport.content, /^@_\*\*Cordelia, Lear's daughter\|6\*\* reported a direct message sent by @_\*\*Othello, the Moor of Venice\|5\*\* at /);
    t.match(dmReport.content, /``` spoiler \[Original message\]\(http:\/\/127\.0\.0\.1:\d+\/#narrow\/dm\/6\/near\/\d+\)\na private insult\n```$/);

    t.same(error(await othello.post(`/messages/${id}/report`, { report_type: 'other' })), [400, 'BAD_REQUEST', 'An explanation is required.']);
    t.same(error(await othello.post(`/messages/${id}/report`, { report_type: 'other', description: '' })), [400, 'BAD_REQUEST', 'An explanation is required.']);
    t.same(error(await othello.post(`/messages/${id}/report`, { report_type: 'spam', description: 'x'.repeat(1001) })), [400, 'BAD_REQUEST', 'description is too long (limit: 1000 characters)']);
    t.equal((await othello.post(`/messages/${id}/report`, { report_type: 'other', description: 'y'.repeat(1000) })).status, 200, '1000 characters are fine');
    t.same(error(await othello.post(`/messages/${id}/report`, { report_type: 'boring' })), [400, 'BAD_REQUEST', 'Invalid report_type']);
    t.same(error(await othello.post(`/messages/${id}/report`, {})), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'report_type' argument"]);
    const secret = await send(iago, 'core team', 'x', 'secret');
    t.same(error(await othello.post(`/messages/${secret}/report`, { report_type: 'spam' })), invalidMessage);
    await setRealm(server, { moderation_request_channel_id: -1 });
    t.same(error(await othello.post(`/messages/${id}/report`, { report_type: 'spam' })), [400, 'BAD_REQUEST', 'Message reporting is not enabled in this organization.']);
    await setRealm(server, { moderation_request_channel_id: MODERATION });
  });

  t.test('access: only messages one received or that sit in public channels one may see', async (t) => {
    const secret = await send(iago, 'core team', 'plans', 'secret plans');
    const dm = await sendDm(iago, [1], 'between admins');
    const denmark = await send(iago, 'Denmark', 'access', 'public');
    const verona = await send(iago, 'Verona', 'access', 'public too');
    const scotland = await send(othello, 'Scotland', 'access', 'public, hamlet not subscribed');
    const refused = async (client: Api, id: number, who: string) => {
      t.same(error(await client.get(`/messages/${id}`)), invalidMessage, `${who}: GET`);
      t.same(error(await client.patch(`/messages/${id}`, { topic: 'stolen' })), invalidMessage, `${who}: PATCH`);
      t.same(error(await client.delete(`/messages/${id}`)), invalidMessage, `${who}: DELETE`);
      t.same(error(await client.get(`/messages/${id}/history`)), invalidMessage, `${who}: history`);
      t.same(error(await client.post(`/messages/${id}/reactions`, { emoji_name: 'tada' })), invalidMessage, `${who}: add reaction`);
      t.same(error(await client.delete(`/messages/${id}/reactions`, { emoji_name: 'tada' })), invalidMessage, `${who}: remove reaction`);
      t.same(error(await client.post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' })), invalidMessage, `${who}: star`);
      t.same(error(await client.post(`/messages/${id}/report`, { report_type: 'spam' })), invalidMessage, `${who}: report`);
      t.same(await fetchIds(client, { anchor: 'newest', num_before: 100, narrow: [{ operator: 'id', operand: id }] }), [], `${who}: not in any range`);
      t.notOk((await fetchIds(client, { anchor: 'newest', num_before: 100 })).includes(id));
    };
    await refused(hamlet, secret, 'a private channel one is not in');
    await refused(shiva, secret, 'not even a moderator');
    await refused(othello, dm, 'a direct message to others');
    await refused(polonius, denmark, 'a guest outside a public channel');
    t.equal((await polonius.get(`/messages/${verona}`)).status, 200, 'a guest in his channel');
    t.equal((await hamlet.get(`/messages/${scotland}`)).status, 200, 'a public channel one is not in');
    t.equal((await hamlet.get(`/messages/${denmark}`)).status, 200);
    t.equal((await desdemona.get(`/messages/${secret}`)).status, 200);

    // Private channels: shared history lets later subscribers read back; protected history does not.
    await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Shared' }], invite_only: true, history_public_to_subscribers: true });
    await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Sealed' }], invite_only: true });
    const sharedOld = await send(hamlet, 'Shared', 'h', 'before othello');
    const sealedOld = await send(hamlet, 'Sealed', 'h', 'before othello');
    await refused(othello, sharedOld, 'a private channel with shared history one is not in');
    await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Shared' }, { name: 'Sealed' }], principals: [5] });
    const sealedNew = await send(hamlet, 'Sealed', 'h', 'after othello');
    t.same(await flagsOf(othello, sharedOld), ['read', 'historical'], 'shared history: earlier messages once subscribed');
    t.same(await fetchIds(othello, { anchor: 'newest', num_before: 10, narrow: [['stream', 'Shared']] }), [sharedOld]);
    await refused(othello, sealedOld, 'protected history: messages from before one joined');
    t.same(await fetchIds(othello, { anchor: 'newest', num_before: 10, narrow: [['stream', 'Sealed']] }), [sealedNew]);

    await desdemona.delete('/users/me/subscriptions', { subscriptions: ['core team'] });
    t.same(error(await desdemona.get(`/messages/${secret}`)), invalidMessage, 'leaving a private channel loses its messages, even with a record');
    t.notOk((await fetchIds(desdemona, { anchor: 'newest', num_before: 100 })).includes(secret));
    t.equal((await iago.post('/users/me/subscriptions', { subscriptions: [{ name: 'core team' }], principals: [1] })).status, 200);
    t.equal((await desdemona.get(`/messages/${secret}`)).status, 200, 'and rejoining gets them back');
  });
});

test('restart keeps channels, subscriptions, messages, edits, reactions and flags', async (t) => {
  const server = await startTestServer();
  const hamlet = clientFor(server, 'hamlet@example.com');
  const othello = clientFor(server, 'othello@example.com');
  await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Keep' }], principals: [4, 5], invite_only: true });
  const id = await send(hamlet, 'Keep', 'before', 'first words');
  await hamlet.patch(`/messages/${id}`, { content: 'edited words', topic: 'after', send_notification_to_new_thread: false });
  await othello.post(`/messages/${id}/reactions`, { emoji_name: 'tada' });
  await othello.post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' });
  const dm = await sendDm(othello, [4], 'private words');
  const before = {
    message: (await othello.get(`/messages/${id}`)).body,
    history: (await othello.get(`/messages/${id}/history`)).body,
    subscriptions: (await othello.get('/users/me/subscriptions', { include_subscribers: true })).body,
    streams: (await othello.get('/streams')).body,
    dm: (await hamlet.get(`/messages/${dm}`)).body,
    topics: (await othello.get(`/users/me/${server.services.org.channels.byName('Keep')!.id}/topics`)).body,
  };
  const restarted = await server.restart();
  t.teardown(() => restarted.destroy());
  const hamlet2 = clientFor(restarted, 'hamlet@example.com');
  const othello2 = clientFor(restarted, 'othello@example.com');
  const keep = restarted.services.org.channels.byName('Keep')!;
  t.same((await othello2.get(`/messages/${id}`)).body, before.message);
  t.match(before.message.message, { content: '<p>edited words</p>', subject: 'after', flags: ['starred'], reactions: [{ emoji_name: 'tada', user_id: 5 }] });
  t.same((await othello2.get(`/messages/${id}/history`)).body, before.history);
  t.same((await othello2.get('/users/me/subscriptions', { include_subscribers: true })).body, before.subscriptions);
  t.same((await othello2.get('/streams')).body, before.streams);
  t.same((await hamlet2.get(`/messages/${dm}`)).body, before.dm);
  t.same((await othello2.get(`/users/me/${keep.id}/topics`)).body, before.topics);
  t.same(await fetchIds(othello2, { anchor: 'newest', num_before: 10, narrow: [['is', 'starred']] }), [id]);
  t.same(await fetchIds(othello2, { anchor: 'newest', num_before: 10, narrow: [['stream', 'Keep'], ['topic', 'after']] }), [id]);
  const next = await send(hamlet2, 'Keep', 'after', 'later words');
  t.ok(next > dm, 'ids continue after a restart');
});

test('the published zulip-js client sends, fetches with a narrow, reacts and flags', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.destroy());
  const othelloUser = server.services.org.users.byEmail('othello@example.com')!;
  const client = await zulip({ username: 'othello@example.com', apiKey: othelloUser.apiKey, realm: server.url });
  const sent = await client.messages.send({ type: 'stream', to: 'Denmark', topic: 'from zulip-js', content: 'Hello from **zulip-js**' });
  t.equal(sent.result, 'success');
  t.type(sent.id, 'number');
  const dm = await client.messages.send({ type: 'private', to: 'hamlet@example.com', content: 'psst' });
  t.equal(dm.result, 'success');
  const fetched = await client.messages.retrieve({ anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'stream', operand: 'Denmark' }, { operator: 'topic', operand: 'from zulip-js' }] });
  t.equal(fetched.result, 'success');
  t.same(fetched.messages.map((x: any) => [x.id, x.content, x.sender_full_name]), [[sent.id, '<p>Hello from <strong>zulip-js</strong></p>', 'Othello, the Moor of Venice']]);
  const reacted = await client.reactions.add({ message_id: sent.id, emoji_name: 'octopus' });
  t.equal(reacted.result, 'success');
  const flagged = await client.messages.flags.add({ flag: 'starred', messages: [sent.id] });
  t.same([flagged.result, flagged.messages], ['success', [sent.id]]);
  const one = await client.messages.getById({ message_id: sent.id });
  t.same(one.message.reactions, [{ emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: othelloUser.id }]);
  t.same(one.message.flags, ['starred']);
  const dms = await client.messages.retrieve({ anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'dm', operand: 'hamlet@example.com' }] });
  t.same(dms.messages.map((x: any) => x.id), [dm.id]);
  const bad = await client.messages.retrieve({ anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'stream', operand: 'Atlantis' }] });
  t.same([bad.result, bad.code], ['error', 'BAD_NARROW']);
});

test('fetching the newest 100 messages of a topic among 100,000 reads only what it returns', async (t) => {
  // No periodic sweep during the measurement: the counters are the whole store's.
  const server = await startTestServer({ PARLEY_SWEEP_SECONDS: '3600' });
  t.teardown(() => server.destroy());
  const { services } = server;
  const hamlet = clientFor(server, 'hamlet@example.com');
  await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Big' }] });
  const big = services.org.channels.byName('Big')!;
  const senders = [services.org.users.get(4)!, services.org.users.get(5)!];
  const rendered = services.render('x');
  const TOTAL = 100_000;
  const BATCH = 2000;
  const measured: number[] = [];
  const started = Date.now();
  for (let start = 0; start < TOTAL; start += BATCH) {
    const tx = new Transaction();
    for (let i = start; i < start + BATCH; i++) {
      // ~150 messages in the measured topic, spread over the whole history; the rest in 50 others.
      const topic = i % 667 === 0 ? 'measured' : `other ${i % 50}`;
      const written = writeMessage(services, tx, {
        sender: senders[i % 2], client: 'test', readBySender: false, content: 'x', rendered,
        destination: { type: 'stream', channel: services.org.channels.get(big.id)!, topic },
      });
      if (topic === 'measured') measured.push(written.record.id);
    }
    await services.commit(tx);
  }
  t.comment(`seeded ${TOTAL} messages in ${Date.now() - started} ms`);
  t.equal(measured.length, 150);

  const reads = services.db.reads;
  reads.gets = 0;
  reads.scanned = 0;
  const response = await hamlet.get('/messages', {
    anchor: 'newest', num_before: 100, num_after: 0,
    narrow: [{ operator: 'channel', operand: big.id }, { operator: 'topic', operand: 'measured' }],
  });
  const { gets, scanned } = reads;
  t.equal(response.status, 200);
  const returned = response.body.messages.length;
  t.equal(returned, 100);
  t.same(response.body.messages.map((x: any) => x.id), measured.slice(-100), 'the newest 100 of the topic');
  t.match(response.body, { found_oldest: false, found_newest: true, found_anchor: false });
  t.comment(`store reads: ${gets} gets, ${scanned} index entries scanned`);
  t.ok(scanned >= returned && scanned <= returned + 1, `index entries scanned (${scanned}) are those returned (+1 at most)`);
  // Each returned message costs its per-user flags and, unless cached, its record.
  t.ok(gets >= returned && gets <= 2 * returned, `gets (${gets}) are at most two per returned message`);
  reads.gets = 0;
  reads.scanned = 0;
  const again = await hamlet.get('/messages', {
    anchor: 'newest', num_before: 100, num_after: 0,
    narrow: [{ operator: 'channel', operand: big.id }, { operator: 'topic', operand: 'measured' }],
  });
  t.same(again.body.messages, response.body.messages);
  t.equal(reads.gets, returned, 'with the records cached, exactly one get per message: its flags');
  t.equal(reads.scanned, returned);

  // The same narrow, one message further back: the cost grows with what is returned, not with the channel.
  reads.gets = 0;
  reads.scanned = 0;
  const older = await hamlet.get('/messages', {
    anchor: String(measured[measured.length - 101]), num_before: 10, num_after: 0, include_anchor: true,
    narrow: [{ operator: 'channel', operand: big.id }, { operator: 'topic', operand: 'measured' }],
  });
  t.equal(older.body.messages.length, 11);
  t.ok(reads.scanned <= 12, `a smaller page scans less (${reads.scanned})`);

  // Flags over a narrow clamp their window to 5000 messages.
  const clamped = await hamlet.post('/messages/flags/narrow', {
    anchor: 'newest', num_before: 6000, num_after: 0, narrow: [{ operator: 'channel', operand: big.id }], op: 'add', flag: 'read',
  });
  t.match(clamped.body, { result: 'success', processed_count: 5000, updated_count: 5000, found_oldest: false, found_newest: true }, 'num_before is lowered to 5000');
  const middle = measured[75];
  const both = await hamlet.post('/messages/flags/narrow', {
    anchor: String(middle), num_before: 4000, num_after: 4000, narrow: [{ operator: 'channel', operand: big.id }], op: 'add', flag: 'starred',
  });
  t.match(both.body, { processed_count: 5001, updated_count: 5001, found_oldest: false, found_newest: false }, '2500 before, the anchor, 2500 after');
  t.equal(both.body.first_processed_id, middle - 2500);
  t.equal(both.body.last_processed_id, middle + 2500);
});

test('reactions with the names Zulip clients send', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.destroy());
  const hamlet = clientFor(server, 'hamlet@example.com');
  const sent = await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 'names', content: 'react to me' });
  const id = sent.body.id as number;
  // zulip-terminal's thumbs-up key sends Zulip's alias with the code.
  const triple = await hamlet.post(`/messages/${id}/reactions`, { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' });
  t.equal(triple.status, 200, JSON.stringify(triple.body));
  const othello = clientFor(server, 'othello@example.com');
  t.equal((await othello.post(`/messages/${id}/reactions`, { emoji_name: 'thumbs_up' })).status, 200, 'a CLDR name alone resolves');
  t.equal((await othello.post(`/messages/${id}/reactions`, { emoji_name: 'cat' })).status, 200);
  const reactions = (await hamlet.get(`/messages/${id}`)).body.message.reactions as { emoji_code: string; emoji_name: string }[];
  t.same(reactions.map((r) => r.emoji_code).sort(), ['1f408', '1f44d', '1f44d'], "Zulip's cat is the whole cat, 1f408");
  const wrong = await hamlet.post(`/messages/${id}/reactions`, { emoji_name: 'cat', emoji_code: '1f600', reaction_type: 'unicode_emoji' });
  t.same([wrong.status, wrong.body.msg], [400, 'Invalid emoji name.'], 'a known name must match its code');
});
