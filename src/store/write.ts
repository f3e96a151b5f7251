/**
 * The one way a change reaches the store: a synchronous change function fills a transaction,
 * then it is committed; a throw or a failed commit rolls every in-memory change back.
 *
 * The change function must not await: memory changed inside it is seen by no other request
 * until the batch is queued, so a refused request can never leak state that others build on.
 */
import { Transaction } from './transaction.js';

/** A result that is not a promise: change functions run to completion in one turn. */
export type Synchronous<T> = T extends PromiseLike<unknown> ? never : T;

export type Commit = (tx: Transaction) => Promise<void>;

/** The write path as the rest of the house is handed it (`Services.write`). */
export type Write = <T>(change: (tx: Transaction) => Synchronous<T>) => Promise<T>;

export async function runWrite<T>(commit: Commit, change: (tx: Transaction) => Synchronous<T>): Promise<T> {
  const tx = new Transaction();
  let result: T;
  try {
    result = change(tx);
    if (result !== null && typeof (result as { then?: unknown })?.then === 'function') {
      throw new Error('a write must change state synchronously; read what it needs before it');
    }
  } catch (error) {
    tx.rollback();
    throw error;
  }
  await commit(tx);
  return result;
}
