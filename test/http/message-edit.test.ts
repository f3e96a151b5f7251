/**
 * Black-box tests of PATCH /messages/{id}: content edits and their time limit, topic edits with
 * propagate_mode, and moves between channels. Every subtest has its own demo organization on its own fake clock.
 */
import { test } from 'tap';
import { setRealm } from '../helpers/world.js';
import { VERONA, DENMARK, CORE_TEAM, BOT, messageWorld, send, sendDm, message, flagsOf, fetchIds, error, invalidMessage } from '../helpers/messages.js';

test('PATCH /messages/{id}', async (t) => {
  t.test('PATCH /messages/{id}: content', async (t) => {
    const { server, iago, hamlet, othello, seconds, advance } = await messageWorld(t);
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
    const { server, org, iago, shiva, hamlet, othello, cordelia, seconds, advance } = await messageWorld(t);
    const systemGroups = org.realm.systemGroups;
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
    const { server, org, iago, shiva, hamlet, cordelia, polonius, seconds, advance } = await messageWorld(t);
    const systemGroups = org.realm.systemGroups;
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
});
