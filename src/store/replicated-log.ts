/**
 * The store's side of cluster mode (docs/cluster.md): which organization a key belongs to, a
 * group commit split into one batch per organization for its stream, the encoding of those
 * batches, and a follower applying them to its own LevelDB idempotently by stream sequence. The
 * embedded server never builds any of this: `Database` only asks `if (this.replicator)`.
 */
import { Packr } from 'msgpackr';
import { ApiError } from '../domain/errors.js';
import { decode, encode } from './codec.js';
import { prefixEnd, realmKeys, serverKeys, type Range } from './keys.js';

/** An op as the group commit holds it: the value already encoded (the stream carries those bytes). */
export type EncodedOp = { type: 'put'; key: string; value: Buffer } | { type: 'del'; key: string };

/** What a node appends to an organization's stream: its operations, or a takeover marker. */
export interface ReplicatedBatch {
  /** The node that appended it (fencing is checked by sequence; this is for people and tests). */
  node: string;
  /** [0, key, value] a put, [1, key] a delete. */
  ops: ([0, string, Uint8Array] | [1, string])[];
  /** Set on the marker a new owner appends before it serves (it fences out the previous owner). */
  takeover?: true;
}

/** The cluster's part in a group commit (implemented by the cluster node, src/cluster/). */
export interface Replicator {
  /**
   * At commit: the organization the batch writes to, or the refusal when this node does not own
   * it (so that no write of an organization served elsewhere even reaches the group commit).
   */
  admit(realm: number | undefined): Error | undefined;
  /**
   * Appends each organization's batch to its stream, with the expected last sequence; resolves
   * with each organization's new sequence, or its refusal (lost lease, timeout).
   */
  append(batches: ReadonlyMap<number, ReplicatedBatch>): Promise<Map<number, number | Error>>;
  /**
   * The LevelDB write after the last append failed (the store's own fault): the streams hold
   * batches this node's memory and disk do not, so it must stop serving those organizations
   * and take them back from their streams as a follower.
   */
  writeFailed(): void;
}

const SHARED = 'shared';
const LOCAL = 'local';
/** Where an op goes: an organization's stream, every stream of the turn (shared server state), or nowhere. */
type Destination = number | typeof SHARED | typeof LOCAL;

const packr = new Packr({ useRecords: false, moreTypes: false });
const SERVER_PREFIX = 'server!';
const PER_REALM_SERVER_PREFIXES = [serverKeys.realmIndexPrefix, serverKeys.wakePrefix];
const COUNTER_PREFIX = serverKeys.counter('');

/** The organization a key belongs to (its prefix, or its entry in the server index). */
function destinationOf(key: string): Destination {
  if (!key.startsWith(SERVER_PREFIX)) {
    const bang = key.indexOf('!');
    const realm = Number(key.slice(0, bang));
    return bang > 0 && Number.isInteger(realm) ? realm : LOCAL;
  }
  if (key === serverKeys.probe) return LOCAL;
  for (const prefix of PER_REALM_SERVER_PREFIXES) if (key.startsWith(prefix)) return Number(key.slice(prefix.length));
  // Server-wide counters and the subdomain index: shared server state, sent with every stream.
  return SHARED;
}

/** The organization a committed batch writes to (its first organization key), if any. */
export function realmOfBatch(ops: readonly { key: string }[]): number | undefined {
  for (const op of ops) {
    const destination = destinationOf(op.key);
    if (typeof destination === 'number') return destination;
  }
  return undefined;
}

/** The key where a follower (or owner) records the last stream sequence its store holds. */
export function appliedKey(realm: number): string {
  return `${realmKeys(realm).prefix}cluster!applied`;
}

/** The stream sequence the store holds for an organization (0: none yet, the snapshot it started from). */
export function appliedSequence(read: (key: string) => unknown, realm: number): number {
  return (read(appliedKey(realm)) as number | undefined) ?? 0;
}

/** One turn's ops split by organization: shared server ops go with every organization's batch. */
export function splitByRealm(node: string, ops: readonly EncodedOp[]): Map<number, ReplicatedBatch> {
  const batches = new Map<number, ReplicatedBatch>();
  const shared: ReplicatedBatch['ops'] = [];
  for (const op of ops) {
    const destination = destinationOf(op.key);
    if (destination === LOCAL) continue;
    const entry: ReplicatedBatch['ops'][number] = op.type === 'put' ? [0, op.key, op.value] : [1, op.key];
    if (destination === SHARED) {
      shared.push(entry);
      continue;
    }
    let batch = batches.get(destination);
    if (!batch) batches.set(destination, (batch = { node, ops: [] }));
    batch.ops.push(entry);
  }
  for (const batch of batches.values()) batch.ops.push(...shared);
  return batches;
}

/** Whether an op of the turn belongs to one of `realms` (refused organizations: their ops are not written). */
export function belongsTo(key: string, realms: ReadonlySet<number>): boolean {
  const destination = destinationOf(key);
  return typeof destination === 'number' && realms.has(destination);
}

export function packBatch(batch: ReplicatedBatch): Uint8Array {
  return packr.pack(batch);
}

export function unpackBatch(bytes: Uint8Array): ReplicatedBatch {
  return packr.unpack(bytes) as ReplicatedBatch;
}

/** The op recording that the store now holds an organization's stream up to `sequence`. */
export function appliedOp(realm: number, sequence: number): EncodedOp {
  return { type: 'put', key: appliedKey(realm), value: encode(sequence) };
}

/**
 * The LevelDB ops that apply one stream entry on a follower: its ops, with server-wide counters
 * never moved back (`raise` tells the node's counters), and the applied sequence in the same
 * write. Undefined when the store already holds it (idempotent by sequence).
 */
export function opsToApply(
  realm: number,
  sequence: number,
  batch: ReplicatedBatch,
  read: (key: string) => unknown,
  raise: (key: string, value: number) => void,
): EncodedOp[] | undefined {
  if (sequence <= appliedSequence(read, realm)) return undefined;
  const ops: EncodedOp[] = [];
  for (const entry of batch.ops) {
    if (entry[0] === 1) {
      ops.push({ type: 'del', key: entry[1] });
      continue;
    }
    const [, key, bytes] = entry;
    const value = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (key.startsWith(COUNTER_PREFIX)) {
      const theirs = decode<number>(value);
      const ours = (read(key) as number | undefined) ?? 0;
      raise(key, theirs);
      if (theirs <= ours) continue;
    }
    ops.push({ type: 'put', key, value });
  }
  ops.push(appliedOp(realm, sequence));
  return ops;
}

/** The newest message id an organization's store holds (a new owner's message counter starts above it). */
export async function newestMessageId(scanKeys: (range: Range, options: { reverse: boolean; limit: number }) => AsyncGenerator<string>, realm: number): Promise<number> {
  const first = realmKeys(realm).message(0);
  const prefix = first.slice(0, first.lastIndexOf('!') + 1);
  for await (const key of scanKeys({ gt: prefix, lt: prefixEnd(prefix) }, { reverse: true, limit: 1 })) return Number(key.slice(prefix.length));
  return 0;
}

/**
 * A group commit in cluster mode: the turn's batches appended to their organizations' streams;
 * the ops of organizations whose append was refused (lost lease, timeout) are taken out of the
 * write (`forget` drops them from the overlay) and their refusals returned. The others get their
 * new stream sequence in the same LevelDB write (`source` marks ops that never were in the overlay).
 */
export async function replicateTurn<Op extends EncodedOp & { source: unknown }>(
  replicator: Replicator,
  node: string,
  ops: Op[],
  source: unknown,
  forget: (op: Op) => void,
): Promise<Map<number, Error> | undefined> {
  const outcomes = await replicator.append(splitByRealm(node, ops));
  const refused = new Map<number, Error>();
  for (const [realm, outcome] of outcomes) {
    if (outcome instanceof Error) refused.set(realm, outcome);
    else ops.push({ ...appliedOp(realm, outcome), source } as Op);
  }
  if (refused.size === 0) return undefined;
  const realms = new Set(refused.keys());
  let kept = 0;
  for (const op of ops) {
    if (!belongsTo(op.key, realms)) ops[kept++] = op;
    else forget(op);
  }
  ops.length = kept;
  return refused;
}

/** After a turn with refused organizations: their batches are rolled back (newest first) and refused, the others told. */
export function settleRefused(
  waiters: readonly { resolve(): void; reject(error: unknown): void; rollback: (() => void) | undefined; realm?: number | undefined }[],
  refused: ReadonlyMap<number, Error>,
): void {
  const refusalOf = (realm: number | undefined) => (realm === undefined ? undefined : refused.get(realm));
  for (let i = waiters.length - 1; i >= 0; i--) if (refusalOf(waiters[i]!.realm)) waiters[i]!.rollback?.();
  for (const waiter of waiters) {
    const refusal = refusalOf(waiter.realm);
    if (refusal) waiter.reject(refusal);
    else waiter.resolve();
  }
}

/** The header on a refusal that changed nothing because another node serves the organization: a forwarder may send the request there. */
export const RETRY_ELSEWHERE_HEADER = 'x-parley-retry-elsewhere';

/**
 * The refusal of a write to an organization this node does not (or no longer) serve. `certain`:
 * nothing was changed (not served here, or the append was fenced); otherwise the append's outcome
 * is unknown (a timeout), and the write may be there.
 */
export function servedElsewhere(reason: string, certain = true): ApiError {
  if (!certain) return new ApiError('SERVER_NOT_READY', `This organization's log did not confirm the write (${reason}): it may or may not have been saved.`, 503, {}, { 'Retry-After': '1' });
  return new ApiError('SERVER_NOT_READY', `This organization is being served by another node (${reason}). Nothing was changed; try again.`, 503, {}, { 'Retry-After': '1', [RETRY_ELSEWHERE_HEADER]: '1' });
}

/** The server-wide message counter's key (a new owner raises it above the organization's newest message). */
export function messageCounterKey(): string {
  return serverKeys.counter('message');
}

/** The server-wide organization counter's key (a node raises it above every organization the cluster lists). */
export function realmCounterKey(): string {
  return serverKeys.counter('realm');
}

/** The subdomain of an organization this batch creates (its entry in the server index), if it does. */
export function createdSubdomain(batch: ReplicatedBatch, realm: number): string | undefined {
  const key = serverKeys.realmIndex(realm);
  for (const op of batch.ops) if (op[0] === 0 && op[1] === key) return decode<{ subdomain?: string }>(op[2]).subdomain ?? '';
  return undefined;
}
