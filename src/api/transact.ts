/** The common shape of a write handler: one write, then an empty success. */
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';

export async function transact(services: Services, change: (tx: Transaction) => void): Promise<Record<string, never>> {
  await services.write(change);
  return {};
}
