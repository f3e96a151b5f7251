/**
 * The one-time move of a data directory written with a row per recipient of every message to
 * read marks (see "Cut-over from per-recipient rows" in docs/architecture.md): messages sent
 * before keep their rows; every existing subscription receives from the next message id on.
 * It writes one snapshot per user and nothing per message, so it takes time in users.
 */
import type { Services } from '../services.js';
import { Transaction } from '../store/transaction.js';

export async function cutOverToReadMarks(services: Services): Promise<void> {
  if (services.readMarks.cutOver !== undefined) return;
  const from = services.counters.upcomingServerId('message');
  const tx = new Transaction();
  const users = services.subscriptions.cutOver(from, tx);
  services.readMarks.setCutOver(from, tx);
  await services.commit(tx);
  if (users > 0) {
    services.logger.info({ users, explicitBelow: from }, 'read state: moved to read marks; messages before this id keep their per-user rows');
  }
}
