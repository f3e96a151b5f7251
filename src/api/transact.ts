/** The common shape of a write handler: one transaction, committed, then an empty success. */
import type { Services } from '../services.js';
import { Transaction } from '../store/transaction.js';

export async function transact(services: Services, write: (tx: Transaction) => void): Promise<Record<string, never>> {
  const tx = new Transaction();
  write(tx);
  await services.commit(tx);
  return {};
}
