/**
 * A read-back of a running server's state cheap enough to take after every request: the
 * in-memory organization and actors as canonical JSON per entity, plus a mirror of the store
 * kept current from the batches it commits (verified against a full scan on demand), so that
 * a test can say exactly what a refused request changed.
 */
import { createHash } from 'node:crypto';
import type { Services } from '../../src/services.js';
import type { BatchOp } from '../../src/store/database.js';

export interface StateChange {
  /** `memory` for in-memory state, `store` for a key of the database. */
  where: 'memory' | 'store';
  /** The entity (`channel:7`, `user:4`) or the store key. */
  what: string;
  kind: 'added' | 'removed' | 'changed';
  /** For changed records: the top-level fields that differ. */
  fields?: string[];
}

/**
 * Keys whose changes are allowed anywhere: counters (a refused request may skip ids), the
 * event log and queue descriptors (acknowledgements, polls, sweeps), and the search index's marks of
 * edited messages (deleted once the index has them), and the notification outbox (decided after a
 * request's write is durable, in a batch of its own; emptied as notifications go), with the server's
 * mark of organizations that have such timed work (store/wake-index.ts). Presence is not stored.
 */
export function isBookkeepingKey(key: string): boolean {
  return /^(server|\d+)!(counter|ev|queue|sdirty|npush|nmail|nactive|wake)!/.test(key);
}

/** JSON with object keys sorted, so that equal records give equal text whatever their key order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array)) {
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(v as object).sort()) sorted[k] = (v as Record<string, unknown>)[k];
      return sorted;
    }
    return v;
  }) ?? 'undefined';
}

const hashOf = (text: string) => createHash('sha1').update(text).digest('base64');

/** The parts of the message store that live in memory; read through a cast because they are private. */
interface MessageStoreInternals {
  cache: { entries(): IterableIterator<[number, unknown]> };
  newestRowByUser: Map<number, number>;
  newestByChannel: Map<number, number>;
}

/** The read marks a ReadMarks store keeps in memory (by `${user}:${channel}`). */
interface ReadMarksInternals {
  marks: Map<string, number>;
  topicMarks: Map<string, number>;
}

function internals<T>(owner: unknown, fields: (keyof T)[], where: string): T {
  for (const field of fields) {
    if (!(owner as Record<string, unknown>)[field as string]) throw new Error(`state digest: ${where} has no '${String(field)}' any more; update test/helpers/state-digest.ts`);
  }
  return owner as T;
}

/** Every in-memory entity as canonical JSON, by a name that says what it is. */
export function memoryEntities(services: Services): Map<string, string> {
  const { org, actors, subscriptions, queues } = services;
  const out = new Map<string, string>();
  out.set('realm', canonical(org.realm));
  for (const user of org.users.all()) {
    out.set(`user:${user.id}`, canonical(user));
    for (const queue of queues.queuesOf(user.id)) out.set(`queue:${queue.descriptor.id}`, String(user.id));
  }
  for (const group of org.groups.all()) out.set(`group:${group.id}`, canonical(group));
  for (const channel of org.channels.all()) {
    out.set(`channel:${channel.id}`, canonical(channel));
    out.set(`subscribers:${channel.id}`, canonical([...subscriptions.subscribersOf(channel.id)].sort((a, b) => a - b)));
  }
  // Every actor of every registered kind, by its state and context: a new kind is watched by itself.
  for (const kind of actors.registeredKinds()) {
    for (const id of actors.ids(kind.name)) {
      const snapshot = actors.peek(kind, id);
      out.set(`actor:${kind.name}:${id}`, canonical({ value: snapshot?.value, context: snapshot?.context }));
    }
  }
  for (const invitation of services.invitations.all()) out.set(`invitation:${invitation.multiuse ? 'multiuse' : 'email'}:${invitation.id}`, canonical(invitation));
  const conversations = internals<{ recipients: Map<string, number> }>(org.conversations, ['recipients'], 'ConversationDirectory');
  for (const [participants, recipient] of conversations.recipients) out.set(`conversation:${participants}`, String(recipient));
  const attachments = internals<{ records: Map<number, unknown> }>(services.attachments, ['records'], 'Attachments');
  for (const [id, record] of attachments.records) out.set(`attachment:${id}`, canonical(record));
  for (const emoji of services.realmEmoji.all()) out.set(`realm_emoji:${emoji.id}`, canonical(emoji));
  return out;
}

/** What differs between two entity maps; `ignoreRemoved` names prefixes whose removal is allowed. */
export function diffEntities(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
  where: StateChange['where'],
  ignoreRemoved: readonly string[] = [],
): StateChange[] {
  const changes: StateChange[] = [];
  for (const [what, value] of after) {
    const old = before.get(what);
    if (old === undefined) changes.push({ where, what, kind: 'added' });
    else if (old !== value) changes.push({ where, what, kind: 'changed', fields: changedFields(old, value) });
  }
  for (const what of before.keys()) {
    if (after.has(what) || ignoreRemoved.some((prefix) => what.startsWith(prefix))) continue;
    changes.push({ where, what, kind: 'removed' });
  }
  return changes;
}

function changedFields(before: string, after: string): string[] | undefined {
  let a: unknown, b: unknown;
  try {
    a = JSON.parse(before);
    b = JSON.parse(after);
  } catch {
    return undefined;
  }
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) || Array.isArray(b)) return undefined;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  return [...keys].filter((k) => canonical(ra[k]) !== canonical(rb[k])).sort();
}

/**
 * Watches one server: `changes()` says what changed since the previous call (in memory, in the
 * store, and message records cached in memory that differ from the store).
 */
export class StateWatch {
  /** Store key → hash of its value, for every non-bookkeeping key, kept current by commits. */
  private readonly mirror = new Map<string, string>();
  /** Store keys written since the last `changes()`, with the hash they had before (undefined: absent). */
  private touched = new Map<string, string | undefined>();
  private memory: Map<string, string>;
  private cacheSeen = new Map<number, unknown>();
  private newestSeen = new Map<string, unknown>();

  private constructor(private readonly services: Services) {
    this.memory = memoryEntities(services);
  }

  /** Starts watching: reads the whole store once, then follows every batch the server commits. */
  static async start(services: Services): Promise<StateWatch> {
    const watch = new StateWatch(services);
    await services.db.drain();
    for (const [key, hash] of await storeHashes(services)) watch.mirror.set(key, hash);
    const db = services.db;
    const commit = db.commit.bind(db);
    db.commit = (ops: readonly BatchOp[]) => {
      watch.observe(ops);
      return commit(ops);
    };
    watch.rememberCaches();
    return watch;
  }

  private observe(ops: readonly BatchOp[]): void {
    for (const op of ops) {
      if (isBookkeepingKey(op.key)) continue;
      if (!this.touched.has(op.key)) this.touched.set(op.key, this.mirror.get(op.key));
      if (op.type === 'put') this.mirror.set(op.key, hashOf(canonical(op.value)));
      else this.mirror.delete(op.key);
    }
  }

  private messageInternals(): MessageStoreInternals {
    return internals<MessageStoreInternals>(this.services.messages, ['cache', 'newestRowByUser', 'newestByChannel'], 'MessageStore');
  }

  /** Values kept in memory that reads may learn but only a write may change, by a name that says what each is. */
  private learnedValues(): Map<string, unknown> {
    const { newestRowByUser, newestByChannel } = this.messageInternals();
    const { marks, topicMarks } = internals<ReadMarksInternals>(this.services.readMarks, ['marks', 'topicMarks'], 'ReadMarks');
    const values = new Map<string, unknown>();
    for (const [userId, id] of newestRowByUser) values.set(`newest-row-of-user:${userId}`, id);
    for (const [channelId, id] of newestByChannel) values.set(`newest-message-of-channel:${channelId}`, id);
    for (const [key, mark] of marks) values.set(`read-mark:${key}`, mark);
    for (const [key, mark] of topicMarks) values.set(`topic-read-mark:${key}`, mark);
    return values;
  }

  private rememberCaches(): void {
    const { cache } = this.messageInternals();
    this.cacheSeen = new Map(cache.entries());
    this.newestSeen = this.learnedValues();
  }

  /** What changed since the last call (or since `start`). Call once the server is quiet. */
  async changes(): Promise<StateChange[]> {
    // A job a request started (an export) is that request's change, not the next one's.
    await this.services.background.idle();
    await this.services.db.drain();
    const changes: StateChange[] = [];
    for (const [key, before] of this.touched) {
      const after = this.mirror.get(key);
      if (before === after) continue;
      changes.push({ where: 'store', what: key, kind: before === undefined ? 'added' : after === undefined ? 'removed' : 'changed' });
    }
    this.touched = new Map();
    const memory = memoryEntities(this.services);
    changes.push(...diffEntities(this.memory, memory, 'memory', ['queue:']));
    this.memory = memory;

    // Caches may gain and lose entries on reads; what they may not do is hold what the store does not.
    const { cache } = this.messageInternals();
    const { db, org } = this.services;
    for (const [id, record] of cache.entries()) {
      if (this.cacheSeen.get(id) === record) continue;
      if (canonical(record) !== canonical(db.get(org.keys.message(id)))) {
        changes.push({ where: 'memory', what: `cached-message:${id}`, kind: 'changed', fields: changedFields(canonical(db.get(org.keys.message(id))), canonical(record)) });
      }
    }
    for (const [what, value] of this.learnedValues()) {
      const before = this.newestSeen.get(what);
      if (before !== undefined && before !== value) changes.push({ where: 'memory', what, kind: 'changed' });
    }
    this.rememberCaches();
    return changes;
  }

  /** Every entity and store key with its value's hash: what must be identical across a restart. */
  async durableDigest(): Promise<{ memory: Map<string, string>; store: Map<string, string> }> {
    await this.services.db.drain();
    return { memory: memoryEntities(this.services), store: new Map(this.mirror) };
  }

  /** Differences between the mirror and a full scan of the store: empty unless a write bypassed `commit`. */
  async verifyMirror(): Promise<StateChange[]> {
    await this.services.db.drain();
    return diffEntities(this.mirror, await storeHashes(this.services), 'store');
  }
}

/** Every non-bookkeeping key of the store with the hash of its value (a full scan). */
export async function storeHashes(services: Services): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const [key, value] of services.db.scan<unknown>({ gte: '', lt: '\uffff' })) {
    if (!isBookkeepingKey(key)) out.set(key, hashOf(canonical(value)));
  }
  return out;
}

/** Compares the state before a restart with the state after it (memory rebuilt from the store, and a full scan). */
export async function restartDifferences(
  before: { memory: Map<string, string>; store: Map<string, string> },
  services: Services,
): Promise<StateChange[]> {
  await services.db.drain();
  return [
    // A queue whose lifespan ran out is not restored: that is expiry, not a change.
    ...diffEntities(before.memory, memoryEntities(services), 'memory', ['queue:']),
    ...diffEntities(before.store, await storeHashes(services), 'store'),
  ];
}

/** One line per change, for failure reports. */
export function describeChanges(changes: readonly StateChange[], limit = 12): string {
  const lines = changes.slice(0, limit).map((c) => `${c.where} ${c.kind} ${c.what}${c.fields ? ` (${c.fields.join(', ')})` : ''}`);
  if (changes.length > limit) lines.push(`… and ${changes.length - limit} more`);
  return lines.join('; ');
}
