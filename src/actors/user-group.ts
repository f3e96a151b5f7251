/**
 * A user group's actor: its life as the spec's state table, `active` ⇄ `deactivated`. The
 * group's data (name, members, settings) is the record in the GroupDirectory; this machine decides
 * the transitions and the record's `deactivated` mirrors its state, written in the same batch
 * (docs/architecture.md, "User groups"). Every change of the group passes through it as `EDIT`,
 * which both states accept: settings and membership stay editable while deactivated.
 */
import { setup } from 'xstate';
import type { GroupDirectory } from '../store/groups.js';
import type { ActorKind, ActorRegistry } from './registry.js';

export type UserGroupEvent = { type: 'DEACTIVATE' } | { type: 'REACTIVATE' } | { type: 'EDIT' };

export const userGroupMachine = setup({
  types: {
    context: {} as { groupId: number },
    input: {} as { groupId: number },
    events: {} as UserGroupEvent,
  },
}).createMachine({
  id: 'userGroup',
  context: ({ input }) => ({ groupId: input.groupId }),
  initial: 'active',
  states: {
    active: {
      on: { DEACTIVATE: 'deactivated', EDIT: {} },
    },
    deactivated: {
      // `PATCH deactivated=true` has no effect: the action sends nothing for it.
      on: { REACTIVATE: 'active', EDIT: {} },
    },
  },
});

export type UserGroupState = 'active' | 'deactivated';

export const userGroupKind: ActorKind<typeof userGroupMachine> = {
  name: 'user_group',
  machine: userGroupMachine,
  input: (id) => ({ groupId: Number(id) }),
};

/**
 * At start-up, after the registry restored the snapshots: a group whose record says otherwise
 * than its actor's state takes the actor's. The two are written in one batch, so this only
 * mends data written by hand or by an older version; `mended` is told of each.
 */
export function reconcileGroupStates(actors: ActorRegistry, groups: GroupDirectory, mended: (groupId: number) => void): void {
  for (const id of actors.ids(userGroupKind.name)) {
    const group = groups.get(Number(id));
    const snapshot = actors.peek(userGroupKind, id);
    if (!group || !snapshot) continue;
    const deactivated = snapshot.value === 'deactivated';
    if (group.deactivated !== deactivated) {
      groups.remember({ ...group, deactivated });
      mended(group.id);
    }
  }
}
