/** Unit tests of the user-group actor: the spec's state table, persistence, and the start-up check of the records against it. */
import { test } from 'tap';
import { reconcileGroupStates, userGroupKind } from '../../src/actors/user-group.js';
import { GroupDirectory } from '../../src/store/groups.js';
import { realmKeys } from '../../src/store/keys.js';
import { Transaction } from '../../src/store/transaction.js';
import { registryOnDisk } from '../helpers/actor-registry.js';
import { record } from '../helpers/group-fixtures.js';

test('the state table, persisted with each change', async (t) => {
  const open = registryOnDisk(t, [userGroupKind]);
  const { db, registry } = await open();
  const tx = new Transaction();
  t.equal(registry.send(userGroupKind, '10', { type: 'EDIT' }, tx).value, 'active', 'a new group is active');
  t.equal(registry.send(userGroupKind, '10', { type: 'REACTIVATE' }, tx).value, 'active', 'reactivating an active group does nothing');
  t.equal(registry.send(userGroupKind, '10', { type: 'DEACTIVATE' }, tx).value, 'deactivated');
  t.equal(registry.send(userGroupKind, '10', { type: 'EDIT' }, tx).value, 'deactivated', 'edits keep it deactivated');
  t.equal(registry.send(userGroupKind, '10', { type: 'DEACTIVATE' }, tx).value, 'deactivated', 'deactivating again changes nothing');
  t.equal(registry.send(userGroupKind, '11', { type: 'DEACTIVATE' }, tx).value, 'deactivated');
  t.equal(registry.send(userGroupKind, '11', { type: 'REACTIVATE' }, tx).value, 'active');
  await db.commit(tx.seal());
  registry.stopAll();
  await db.close();

  const again = await open();
  t.equal(again.registry.peek(userGroupKind, '10')?.value, 'deactivated', 'restored');
  t.equal(again.registry.peek(userGroupKind, '11')?.value, 'active');

  const groups = new GroupDirectory(realmKeys(1));
  groups.remember(record(10, 'ten', [], [], { deactivated: false }));
  groups.remember(record(11, 'eleven', [], [], { deactivated: false }));
  groups.remember(record(12, 'no actor', [], [], { deactivated: true }));
  const mended: number[] = [];
  reconcileGroupStates(again.registry, groups, (id) => mended.push(id));
  t.same(mended, [10], 'only the record that disagreed');
  t.equal(groups.get(10)?.deactivated, true, 'the actor wins');
  t.equal(groups.get(12)?.deactivated, true, 'a group without an actor keeps its record');
  again.registry.stopAll();
  await again.db.close();
});
