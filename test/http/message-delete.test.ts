/**
 * Black-box tests of DELETE /messages/{id}, on a fresh demo organization with a fake clock.
 */
import { test } from 'tap';
import { setRealm } from '../helpers/world.js';
import { messageWorld, send, sendDm, fetchIds, error, invalidMessage } from '../helpers/messages.js';

test('DELETE /messages/{id}', async (t) => {
  t.test('DELETE /messages/{id}', async (t) => {
    const { server, org, desdemona, iago, hamlet, othello, cordelia, advance, flagsInStore } = await messageWorld(t);
    const systemGroups = org.realm.systemGroups;
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
});
