/**
 * The organization's mark in the server's wake index (store/wake-index.ts): cleared when the
 * organization has no timed work left, in one synchronous write, so that work added meanwhile
 * (whose batch marks it again, later) is never left unmarked.
 */
import { hasTimedWork } from '../queries/timed-work.js';
import type { Services } from '../services.js';
import { WakeIndex } from '../store/wake-index.js';

export function clearWakeMarkIfIdle(services: Services): Promise<boolean> {
  return services.write((tx) => {
    if (hasTimedWork(services)) return false;
    WakeIndex.clear(services.org.id, tx);
    return true;
  });
}
