/**
 * One organization's store as a snapshot (cluster mode, docs/cluster.md): every key under its id
 * and its entries in the server index, read from one LevelDB snapshot, as length-prefixed frames
 * (4 bytes, then a msgpack list of [key, value bytes]). The applied stream sequence is one of the
 * keys, so a snapshot says which entry of the stream it holds everything up to. Restoring one
 * replaces what the store held of the organization; the applied sequence is written last, so a
 * restore cut short leaves the organization to be restored again.
 */
import { Packr } from 'msgpackr';
import { encode, decode } from './codec.js';
import type { Database } from './database.js';
import { indexKeysOf, organizationRange } from './organization-scope.js';
import { appliedKey, appliedSequence, type EncodedOp } from './replicated-log.js';

type Entry = [string, Uint8Array];
const packr = new Packr({ useRecords: false, moreTypes: false });
const PAGE = 512;

function frame(entries: Entry[]): Uint8Array {
  const body = packr.pack(entries);
  const out = Buffer.allocUnsafe(4 + body.length);
  out.writeUInt32BE(body.length, 0);
  body.copy(out, 4);
  return out;
}

/**
 * The snapshot's frames; `sequence()` is the stream sequence it covers once the frames are all
 * read (0 when the store held none of the stream).
 */
export function snapshotOf(db: Database, realm: number, subdomain: string): { frames: AsyncGenerator<Uint8Array>; sequence(): number } {
  let sequence = 0;
  const applied = appliedKey(realm);
  async function* frames(): AsyncGenerator<Uint8Array> {
    const reader = db.snapshot(organizationRange(realm));
    try {
      for (;;) {
        const page = await reader.next(PAGE);
        if (page.length === 0) break;
        const entries = page.map(([key, value]): Entry => [key.toString(), value]);
        for (const [key, value] of entries) if (key === applied) sequence = decode<number>(value);
        yield frame(entries);
      }
    } finally {
      await reader.close();
    }
    // The server index's entries (read after: a change since is in the stream's tail, applied again).
    const index = indexKeysOf(realm, subdomain).flatMap((key): Entry[] => {
      const value = db.get(key);
      return value === undefined ? [] : [[key, encode(value)]];
    });
    yield frame(index);
  }
  return { frames: frames(), sequence: () => sequence };
}

/** Splits a byte stream back into the snapshot's pages of entries. */
async function* pagesOf(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Entry[]> {
  let pending = Buffer.alloc(0);
  for await (const chunk of chunks) {
    pending = pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([pending, chunk]);
    while (pending.length >= 4 && pending.length >= 4 + pending.readUInt32BE(0)) {
      const length = pending.readUInt32BE(0);
      yield packr.unpack(pending.subarray(4, 4 + length)) as Entry[];
      pending = pending.subarray(4 + length);
    }
  }
  if (pending.length > 0) throw new Error('the snapshot ends inside a frame');
}

/**
 * Replaces the store's copy of an organization with a snapshot (on a node that does not serve
 * it); resolves with the stream sequence the store now holds.
 */
export async function restoreSnapshot(db: Database, realm: number, chunks: AsyncIterable<Uint8Array>): Promise<number> {
  const applied = appliedKey(realm);
  // What the store held of the organization goes first, its applied sequence with it.
  let doomed: EncodedOp[] = [];
  for await (const key of db.scanKeys(organizationRange(realm))) {
    doomed.push({ type: 'del', key });
    if (doomed.length >= PAGE) {
      await db.applyReplicated(doomed);
      doomed = [];
    }
  }
  if (doomed.length > 0) await db.applyReplicated(doomed);
  let held: Uint8Array | undefined;
  for await (const entries of pagesOf(chunks)) {
    const ops: EncodedOp[] = [];
    for (const [key, value] of entries) {
      if (key === applied) held = value;
      else ops.push({ type: 'put', key, value: Buffer.from(value.buffer, value.byteOffset, value.byteLength) });
    }
    if (ops.length > 0) await db.applyReplicated(ops);
  }
  if (held) await db.applyReplicated([{ type: 'put', key: applied, value: Buffer.from(held) }]);
  return appliedSequence((key) => db.get(key), realm);
}
