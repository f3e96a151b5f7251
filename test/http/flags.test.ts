/**
 * Black-box tests of message flags: POST /messages/flags, POST /messages/flags/narrow, and
 * /mark_all_as_read, /mark_stream_as_read, /mark_topic_as_read. Every subtest has its own demo organization.
 */
import { test } from 'tap';
import { DENMARK, SCOTLAND, CORE_TEAM, messageWorld, send, sendDm, flagsOf, fetchIds, error, invalidMessage } from '../helpers/messages.js';

test('message flags', async (t) => {
  t.test('POST /messages/flags', async (t) => {
    const { iago, hamlet, othello, cordelia, flagsInStore } = await messageWorld(t);
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
    const { org, hamlet, othello, flagsInStore } = await messageWorld(t);
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
    const { hamlet, othello, cordelia } = await messageWorld(t);
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
});
