/**
 * Black-box tests of POST and DELETE /messages/{id}/reactions, including the emoji names Zulip clients send.
 */
import { test } from 'tap';
import { clientFor, startTestServer } from '../helpers/server.js';
import { messageWorld, send, message, flagsOf, error, invalidMessage } from '../helpers/messages.js';
import { Flag } from '../../src/domain/messages.js';

test('reactions', async (t) => {
  t.test('POST and DELETE /messages/{id}/reactions', async (t) => {
    const { hamlet, othello, cordelia, prospero, polonius, flagsInStore } = await messageWorld(t);
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
