/**
 * Black-box tests of administering users: POST /users and PATCH /users/{id}, seen through their realm_user events.
 */
import { test } from 'tap';
import { world } from '../helpers/world.js';
import { HAMLET, register, take } from '../helpers/events.js';

test('user administration', async (t) => {
  t.test('realm_user add (POST /users) and update (PATCH /users/{id})', async (t) => {
    const { org, iago, othello } = await world(t);
    const queue = await register(othello, { event_types: ['realm_user'] });
    const created = await iago.post('/users', { email: 'ophelia@example.com', password: 'nunnery-123', full_name: 'Ophelia' });
    t.equal(created.status, 200);
    const userId = created.body.user_id;
    const [add] = await take(queue);
    t.equal(add.type, 'realm_user');
    t.equal(add.op, 'add');
    for (const key of ['email', 'delivery_email', 'user_id', 'avatar_version', 'is_admin', 'is_owner', 'is_guest', 'role', 'is_bot', 'full_name', 'timezone', 'is_active', 'date_joined', 'avatar_url', 'profile_data']) {
      t.ok(key in add.person, `person has ${key}`);
    }
    t.match(add.person, { user_id: userId, full_name: 'Ophelia', role: 400, is_active: true, is_bot: false });
    t.equal((await iago.patch(`/users/${HAMLET}`, { full_name: 'Prince Hamlet' })).status, 200);
    t.equal((await iago.patch(`/users/${HAMLET}`, { role: 300 })).status, 200);
    t.equal((await iago.patch(`/users/${HAMLET}`, { role: 300 })).status, 200);
    t.same((await take(queue)).map(({ id: _, ...rest }) => rest), [
      { type: 'realm_user', op: 'update', person: { user_id: HAMLET, full_name: 'Prince Hamlet' } },
      { type: 'realm_user', op: 'update', person: { user_id: HAMLET, role: 300 } },
    ], 'one event per change, none when nothing changes');
    await iago.patch(`/users/${HAMLET}`, { full_name: 'King Hamlet', role: 400 });
    t.equal(org.users.get(HAMLET)!.fullName, 'King Hamlet');
  });
});
