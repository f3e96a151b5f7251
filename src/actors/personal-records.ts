/**
 * A user's own small records of one kind (drafts, navigation views, saved snippets, push
 * devices): one XState actor per user and kind, its persisted snapshot written with every
 * change in the same batch (registry.send), so the records survive a restart exactly as
 * written. Each record has a key (a draft's id, a view's fragment); the actor keeps them in
 * the order they were first stored (keys are prefixed so that JavaScript does not sort
 * integer-like keys first).
 *
 * Lists are small (a person's drafts, views, snippets): writing the whole snapshot per change
 * costs the size of one person's list, not of the organization.
 */
import { assign, setup } from 'xstate';
import type { Transaction } from '../store/transaction.js';
import type { ActorKind, ActorRegistry } from './registry.js';

export interface RecordsContext<T> {
  userId: number;
  /** By `#${key}`, in the order first stored. */
  records: Record<string, T>;
}

export type RecordsEvent<T> =
  /** Stores the records (new ones last, existing ones replaced in place). */
  | { type: 'PUT'; records: [key: string, record: T][] }
  /** Forgets the records with these keys (unknown keys are ignored). */
  | { type: 'DROP'; keys: string[] };

const slot = (key: string) => `#${key}`;

function recordsMachine<T>(id: string) {
  return setup({
    types: {
      context: {} as RecordsContext<T>,
      input: {} as { userId: number },
      events: {} as RecordsEvent<T>,
    },
    actions: {
      put: assign({
        records: ({ context, event }) => {
          if (event.type !== 'PUT') return context.records;
          const records = { ...context.records };
          for (const [key, record] of event.records) records[slot(key)] = record;
          return records;
        },
      }),
      drop: assign({
        records: ({ context, event }) => {
          if (event.type !== 'DROP') return context.records;
          const records = { ...context.records };
          for (const key of event.keys) delete records[slot(key)];
          return records;
        },
      }),
    },
  }).createMachine({
    id,
    context: ({ input }) => ({ userId: input.userId, records: {} }),
    initial: 'keeping',
    states: { keeping: { on: { PUT: { actions: 'put' }, DROP: { actions: 'drop' } } } },
  });
}

export type RecordsMachine<T> = ReturnType<typeof recordsMachine<T>>;

/** The actor kind of one sort of personal record, stored under `name`. */
export function recordsKind<T>(name: string): ActorKind<RecordsMachine<T>> {
  return { name, machine: recordsMachine<T>(name), input: (id) => ({ userId: Number(id) }) };
}

/** Reads and changes one user's records of a kind through their actor. */
export class PersonalRecords<T> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly kind: ActorKind<RecordsMachine<T>>,
  ) {}

  private context(userId: number): RecordsContext<T> | undefined {
    return this.actors.peek(this.kind, String(userId))?.context as RecordsContext<T> | undefined;
  }

  /** The user's records in the order they were first stored (without spawning an actor). */
  list(userId: number): T[] {
    return Object.values(this.context(userId)?.records ?? {});
  }

  get(userId: number, key: string | number): T | undefined {
    return this.context(userId)?.records[slot(String(key))];
  }

  /** Users with records of this kind (or an actor that once had some). */
  userIds(): number[] {
    return this.actors.ids(this.kind.name).map(Number);
  }

  put(userId: number, records: [key: string | number, record: T][], tx: Transaction): void {
    if (records.length === 0) return;
    this.actors.send(this.kind, String(userId), { type: 'PUT', records: records.map(([key, record]): [string, T] => [String(key), record]) }, tx);
  }

  drop(userId: number, recordKeys: (string | number)[], tx: Transaction): void {
    if (recordKeys.length === 0) return;
    this.actors.send(this.kind, String(userId), { type: 'DROP', keys: recordKeys.map(String) }, tx);
  }
}
