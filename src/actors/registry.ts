/**
 * Spawns XState actors lazily, one per entity, finds them by id, writes each actor's
 * persisted snapshot in the same batch as the change it made, and restores them on start.
 *
 * Actors are root actors kept in a Map (spawning thousands of children into one parent is
 * O(N) per spawn, STACK-NOTES #10). Callers validate before they send: an action that throws
 * kills an actor (STACK-NOTES #12), so the registry refuses to persist a dead one.
 */
import { createActor, type Actor, type AnyStateMachine, type EventFrom, type InputFrom, type SnapshotFrom } from 'xstate';
import type { ActorSnapshots } from '../store/actor-snapshots.js';
import type { Transaction } from '../store/transaction.js';

export interface ActorKind<M extends AnyStateMachine> {
  /** The name under which snapshots are stored (`{realm}!actor!{name}!{id}`). */
  name: string;
  machine: M;
  /** Input for an entity that has no persisted snapshot yet. */
  input: (id: string) => InputFrom<M>;
  /** Reshapes a snapshot read from the store before it is held (e.g. into a leaner form in memory). */
  restored?: (snapshot: SnapshotFrom<M>) => SnapshotFrom<M>;
}

interface Slot {
  actor?: Actor<AnyStateMachine>;
  snapshot?: unknown;
}

export class ActorRegistry {
  private readonly slots = new Map<string, Map<string, Slot>>();
  private readonly kinds = new Map<string, ActorKind<AnyStateMachine>>();

  constructor(
    private readonly snapshots: ActorSnapshots,
    private readonly onError: (kind: string, id: string, error: unknown) => void = () => {},
  ) {}

  register<M extends AnyStateMachine>(kind: ActorKind<M>): void {
    this.kinds.set(kind.name, kind as unknown as ActorKind<AnyStateMachine>);
    if (!this.slots.has(kind.name)) this.slots.set(kind.name, new Map());
  }

  /** Loads every persisted snapshot of the registered kinds; actors are spawned on first use. */
  async restore(): Promise<void> {
    for (const [name, kind] of this.kinds) {
      const slots = this.slots.get(name)!;
      for await (const [id, snapshot] of this.snapshots.all(name)) slots.set(id, { snapshot: kind.restored ? kind.restored(snapshot as never) : snapshot });
    }
  }

  /** Every registered kind (for readers of all actors' state, such as the tests' state digest). */
  registeredKinds(): ActorKind<AnyStateMachine>[] {
    return [...this.kinds.values()];
  }

  /** Ids of every entity of `kind` that has an actor or a persisted snapshot. */
  ids(kind: string): string[] {
    return [...(this.slots.get(kind)?.keys() ?? [])];
  }

  has(kind: string, id: string): boolean {
    return this.slots.get(kind)?.has(id) ?? false;
  }

  /** The entity's actor, spawned from its persisted snapshot (or fresh) on first use. */
  get<M extends AnyStateMachine>(kind: ActorKind<M>, id: string): Actor<M> {
    const slots = this.slots.get(kind.name);
    if (!slots) throw new Error(`actor kind '${kind.name}' is not registered`);
    let slot = slots.get(id);
    if (!slot) {
      slot = {};
      slots.set(id, slot);
    }
    if (!slot.actor) {
      const actor = slot.snapshot !== undefined
        ? createActor(kind.machine, { snapshot: slot.snapshot as never, input: kind.input(id) })
        : createActor(kind.machine, { input: kind.input(id) });
      actor.subscribe({ error: (error) => this.onError(kind.name, id, error) });
      actor.start();
      slot.actor = actor as unknown as Actor<AnyStateMachine>;
      slot.snapshot = undefined;
    }
    return slot.actor as unknown as Actor<M>;
  }

  /** The entity's current state without spawning an actor for it. */
  peek<M extends AnyStateMachine>(kind: ActorKind<M>, id: string): SnapshotFrom<M> | undefined {
    const slot = this.slots.get(kind.name)?.get(id);
    if (!slot) return undefined;
    if (slot.actor) return slot.actor.getSnapshot() as SnapshotFrom<M>;
    return slot.snapshot as SnapshotFrom<M> | undefined;
  }

  /**
   * Sends `event` and writes the resulting persisted snapshot into `tx`. If `tx` is rolled
   * back, the actor is respawned from the state it had before (or forgotten if it had none).
   */
  send<M extends AnyStateMachine>(kind: ActorKind<M>, id: string, event: EventFrom<M>, tx: Transaction): SnapshotFrom<M> {
    const existed = this.has(kind.name, id);
    const actor = this.get(kind, id);
    const before = existed ? actor.getPersistedSnapshot() : undefined;
    tx.onRollback(() => this.reset(kind.name, id, before));
    actor.send(event);
    const snapshot = actor.getSnapshot() as unknown as { status: string; error?: unknown };
    if (snapshot.status === 'error') throw new Error(`actor ${kind.name}/${id} failed: ${String(snapshot.error)}`);
    this.snapshots.save(kind.name, id, actor.getPersistedSnapshot(), tx);
    return snapshot as unknown as SnapshotFrom<M>;
  }

  /** Stops an actor, keeping its last state to respawn from; its data stays in the store. */
  release(kind: string, id: string): void {
    const slot = this.slots.get(kind)?.get(id);
    if (!slot?.actor) return;
    slot.snapshot = slot.actor.getPersistedSnapshot();
    slot.actor.stop();
    slot.actor = undefined;
  }

  /** Stops an actor and deletes its persisted snapshot in `tx`. */
  remove(kind: string, id: string, tx: Transaction): void {
    const slot = this.slots.get(kind)?.get(id);
    if (slot) {
      const before = slot.actor ? slot.actor.getPersistedSnapshot() : slot.snapshot;
      tx.onRollback(() => this.reset(kind, id, before));
    }
    slot?.actor?.stop();
    this.slots.get(kind)?.delete(id);
    this.snapshots.delete(kind, id, tx);
  }

  /** Puts an entity back to a persisted snapshot (respawned on next use), or forgets it. */
  private reset(kind: string, id: string, snapshot: unknown): void {
    const slots = this.slots.get(kind)!;
    slots.get(id)?.actor?.stop();
    if (snapshot === undefined) slots.delete(id);
    else slots.set(id, { snapshot });
  }

  stopAll(): void {
    for (const [kind, slots] of this.slots) for (const id of slots.keys()) this.release(kind, id);
  }
}
