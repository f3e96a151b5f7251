/**
 * Black-box tests of POST /messages: addressing channels and people, topics and content, Markdown,
 * mentions and their flags, wildcard limits, read_by_sender, local echo and automatic topic visibility.
 * Every subtest has its own demo organization on its own fake clock.
 */
import { test } from 'tap';
import { clientFor } from '../helpers/server.js';
import { setRealm, type World } from '../helpers/world.js';
import { VERONA, DENMARK, BOT, messageWorld, send, sendDm, message, flagsOf, fetchIds, error } from '../helpers/messages.js';
import { VisibilityPolicy } from '../../src/domain/topic-visibility.js';
import { Transaction } from '../../src/store/transaction.js';

/** Adds the user group 'actors' (id 900: othello and cordelia), for the group mention tests. */
async function addActorsGroup(w: World): Promise<void> {
  const { org, server, seconds } = w;
  const tx = new Transaction();
  org.groups.save({
    id: 900, name: 'actors', description: 'Players', isSystemGroup: false, directMembers: [5, 6], directSubgroups: [],
    deactivated: false, creatorId: 1, dateCreated: seconds(), settings: {},
  }, tx);
  await server.services.commit(tx);
}

test('POST /messages', async (t) => {
  t.test('POST /messages to a channel: addressing', async (t) => {
    const { hamlet, polonius, flagsInStore } = await messageWorld(t);
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
    const { iago, hamlet, othello, flagsInStore } = await messageWorld(t);
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
    const { server, org, iago, hamlet, othello, flagsInStore } = await messageWorld(t);
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

    // A deactivated recipient who hides their address is named by the address the API shows.
    t.equal((await clientFor(server, 'prospero@example.com').patch('/settings', { email_address_visibility: 4 })).status, 200);
    t.equal((await clientFor(server, 'iago@example.com').delete('/users/7')).status, 200);
    t.same(error(await hamlet.post('/messages', { type: 'direct', to: [7], content: 'x' })), [400, 'BAD_REQUEST', `'user7@${org.host}' is no longer using Zulip.`], 'not the real address');
  });

  t.test('POST /messages: topics and content', async (t) => {
    const { server, hamlet } = await messageWorld(t);
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
    const w = await messageWorld(t);
    const { hamlet } = w;
    await addActorsGroup(w);
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
    const w = await messageWorld(t);
    const { iago, hamlet, othello, cordelia } = w;
    await addActorsGroup(w);
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
    const { server, org, iago, hamlet, prospero, addUsers } = await messageWorld(t);
    const systemGroups = org.realm.systemGroups;
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
    const { server, org, hamlet, othello, cordelia } = await messageWorld(t);
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
});
