/** Unit tests of the actor registry with a small machine of its own. */
import { test } from 'tap';
import { assign, initialTransition, setup, transition } from 'xstate';
import { subscriptionsMachine, type SubscriptionsEvent } from '../../src/actors/subscriptions.js';
import type { ActorKind } from '../../src/actors/registry.js';
import { Transaction } from '../../src/store/transaction.js';
import { registryOnDisk } from '../helpers/actor-registry.js';

const counterMachine = setup({
  types: {
    context: {} as { owner: string; count: number },
    input: {} as { owner: string },
    events: {} as { type: 'INCREMENT'; by: number } | { type: 'LOCK' } | { type: 'UNLOCK' },
  },
  actions: {
    increment: assign({ count: ({ context, event }) => context.count + (event as { by: number }).by }),
  },
}).createMachine({
  id: 'counter',
  context: ({ input }) => ({ owner: input.owner, count: 0 }),
  initial: 'open',
  states: {
    open: { on: { INCREMENT: { actions: 'increment' }, LOCK: 'locked' } },
    locked: { on: { UNLOCK: 'open' } },
  },
});

const kind: ActorKind<typeof counterMachine> = { name: 'counter', machine: counterMachine, input: (id) => ({ owner: id }) };

test('registry: spawns lazily, persists with the change, restores on start', async (t) => {
  const open = registryOnDisk(t, [kind]);

  const { db, registry } = await open();
  t.notOk(registry.has('counter', 'a'), 'nothing spawned before first use');
  t.equal(registry.peek(kind, 'a'), undefined);
  const tx = new Transaction();
  registry.send(kind, 'a', { type: 'INCREMENT', by: 2 }, tx);
  registry.send(kind, 'a', { type: 'INCREMENT', by: 3 }, tx);
  registry.send(kind, 'b', { type: 'LOCK' }, tx);
  t.equal(tx.ops.length, 3, 'each change writes the snapshot into the same batch');
  t.equal(registry.get(kind, 'a').getSnapshot().context.count, 5);
  t.same(registry.get(kind, 'a').getSnapshot().context.owner, 'a', 'input names the entity');
  await db.commit(tx.seal());
  registry.stopAll();
  await db.close();

  const again = await open();
  t.same(again.registry.ids('counter').sort(), ['a', 'b'], 'restored ids');
  t.equal(again.registry.peek(kind, 'a')?.context.count, 5, 'peek reads a restored snapshot without spawning');
  t.equal(again.registry.get(kind, 'a').getSnapshot().context.count, 5, 'state survives a restart');
  t.equal(again.registry.get(kind, 'b').getSnapshot().value, 'locked', 'so does the state value');
  const tx2 = new Transaction();
  again.registry.send(kind, 'b', { type: 'INCREMENT', by: 1 }, tx2);
  t.equal(again.registry.get(kind, 'b').getSnapshot().context.count, 0, 'the machine still decides: locked ignores INCREMENT');
  again.registry.release('counter', 'a');
  t.equal(again.registry.peek(kind, 'a')?.context.count, 5, 'a released actor keeps its state');
  again.registry.remove('counter', 'a', tx2);
  t.notOk(again.registry.has('counter', 'a'));
  await again.db.commit(tx2.seal());
  again.registry.stopAll();
  await again.db.close();

  const third = await open();
  t.same(third.registry.ids('counter'), ['b'], 'removed actors are gone from the store');
  await third.db.close();
});

test('subscriptions actor: deactivation closes every interval, reactivation reopens the subscribed ones', async (t) => {
  const [start] = initialTransition(subscriptionsMachine, { userId: 4 });
  const step = (snapshot: typeof start, event: SubscriptionsEvent) => transition(subscriptionsMachine, snapshot, event)[0];
  let s = step(start, { type: 'SUBSCRIBE', channelId: 1, color: '#fff', from: 10 });
  s = step(s, { type: 'SUBSCRIBE', channelId: 2, color: '#fff', from: 12 });
  s = step(s, { type: 'UNSUBSCRIBE', channelId: 2, until: 15 });
  s = step(s, { type: 'SUSPEND', until: 20 });
  t.same(s.context.channels['1']!.received, [10, 20], 'the open interval closes');
  t.same(s.context.channels['2']!.received, [12, 15], 'a closed one stays');
  t.ok(s.context.channels['1']!.active, 'the subscription itself stays');
  t.equal(s.context.suspended, true);
  s = step(s, { type: 'RESUME', from: 30 });
  t.same(s.context.channels['1']!.received, [10, 20, 30], 'reopened where the user returned: 20..30 is not theirs');
  t.same(s.context.channels['2']!.received, [12, 15], 'not reopened: unsubscribed');
  t.equal(s.context.suspended, false);
  s = step(step(s, { type: 'SUSPEND', until: 30 }), { type: 'RESUME', from: 30 });
  t.same(s.context.channels['1']!.received, [10, 20, 30], 'away while nothing was sent: one interval');
});
