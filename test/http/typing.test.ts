/**
 * Black-box tests of POST /typing, seen through its typing events, on a fresh demo organization.
 */
import { test } from 'tap';
import type { Params } from '../helpers/client.js';
import { world } from '../helpers/world.js';
import { Transaction } from '../../src/store/transaction.js';
import { HAMLET, OTHELLO, DENMARK, register, take } from '../helpers/events.js';

test('POST /typing', async (t) => {
  t.test('typing: direct, and channel only with stream_typing_notifications', async (t) => {
    const { server, org, hamlet, othello, cordelia } = await world(t);
    const plain = await register(othello, { event_types: ['typing'] });
    const capable = await register(othello, { event_types: ['typing'], client_capabilities: { stream_typing_notifications: true } });
    const bystander = await register(cordelia, { event_types: ['typing'] });
    t.same((await hamlet.post('/typing', { op: 'start', to: [OTHELLO] })).body, { result: 'success', msg: '' });
    t.equal((await hamlet.post('/typing', { op: 'stop', type: 'direct', to: [OTHELLO] })).status, 200);
    const hamletPerson = { user_id: HAMLET, email: 'hamlet@example.com' };
    const othelloPerson = { user_id: OTHELLO, email: 'othello@example.com' };
    const direct = (await take(plain)).map(({ id: _, ...rest }) => ({ ...rest, recipients: [...rest.recipients].sort((a: any, b: any) => a.user_id - b.user_id) }));
    t.same(direct, ['start', 'stop'].map((op) => ({ type: 'typing', op, message_type: 'direct', sender: hamletPerson, recipients: [hamletPerson, othelloPerson] })));
    t.equal((await take(capable)).length, 2);
    t.same(await take(bystander), [], 'not to others');

    t.equal((await hamlet.post('/typing', { op: 'start', type: 'channel', stream_id: DENMARK, topic: 'typing here' })).status, 200);
    t.same(await take(plain), [], 'no channel typing without the capability');
    t.same((await take(capable)).map(({ id: _, ...rest }) => rest), [
      { type: 'typing', op: 'start', message_type: 'stream', sender: hamletPerson, stream_id: DENMARK, topic: 'typing here' },
    ]);
    const missing = await hamlet.post('/typing', { op: 'start', type: 'channel', stream_id: DENMARK });
    t.same([missing.status, missing.body.msg], [400, 'Missing topic']);
    const badUser = await hamlet.post('/typing', { op: 'start', to: [9999] });
    t.same([badUser.status, badUser.body.msg], [400, 'Invalid user ID 9999']);
    const errors: [Params, string][] = [
      [{}, "Missing 'op' argument"],
      [{ op: 'begin', to: [OTHELLO] }, 'Invalid op'],
      [{ op: 'start', type: 'private', to: [OTHELLO] }, 'Invalid type'],
      [{ op: 'start' }, "Missing 'to' argument"],
      [{ op: 'start', to: [] }, "Empty 'to' list"],
      [{ op: 'start', type: 'stream', topic: 'x' }, "Missing 'stream_id' argument"],
    ];
    for (const [params, msg] of errors) {
      const response = await hamlet.post('/typing', params);
      t.same([response.status, response.body.result, response.body.msg], [400, 'error', msg], msg);
    }

    // A deactivated participant may be named; only active users are told.
    const prospero = org.users.byEmail('prospero@example.com')!;
    const tx = new Transaction();
    org.users.save({ ...prospero, isActive: false }, tx);
    await server.services.commit(tx);
    const group = await hamlet.post('/typing', { op: 'start', to: [OTHELLO, prospero.id] });
    t.equal(group.status, 200);
    const [groupEvent] = await take(plain);
    t.same(groupEvent.recipients.map((r: any) => r.user_id).sort(), [HAMLET, OTHELLO, prospero.id]);
    const restore = new Transaction();
    org.users.save({ ...org.users.get(prospero.id)!, isActive: true }, restore);
    await server.services.commit(restore);
  });
});
