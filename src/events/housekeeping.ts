/**
 * Keeping the event system running: queues restored at start (with a `restart` event for
 * each), heartbeats for quiet long-polls, a once-a-second tick that keeps acknowledgements and
 * log pruning on disk when no write carries them, and the periodic sweep of expired queues,
 * scheduled with node-cron.
 */
import cron from 'node-cron';
import { ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from '../domain/versions.js';
import type { Logger } from 'pino';
import type { Write } from '../store/write.js';
import type { EventQueues } from './queues.js';

/** What housekeeping is given: the queues, the write path and the few settings it reads. */
export interface HousekeepingParts {
  queues: EventQueues;
  write: Write;
  logger: Logger;
  /** Unix seconds when the server started (the `restart` event's `server_generation`). */
  startedAt: number;
  heartbeatSeconds: number;
  sweepSeconds: number;
}

/** Rebuilds persisted queues, replays what they had not acknowledged, then tells them the server restarted. */
export async function restoreQueues(parts: HousekeepingParts): Promise<void> {
  const restored = await parts.queues.restore();
  if (restored.length === 0) return;
  await parts.write((tx) => {
    const users = [...new Set(restored.map((queue) => queue.userId))];
    tx.emit({
      type: 'restart',
      zulip_version: ZULIP_VERSION,
      zulip_merge_base: ZULIP_MERGE_BASE,
      zulip_feature_level: ZULIP_FEATURE_LEVEL,
      server_generation: parts.startedAt,
    }, users);
  });
  parts.logger.info({ queues: restored.length }, 'event queues restored');
}

/** A cron expression firing every `seconds` (rounded to what cron can express). */
export function everySeconds(seconds: number): string {
  if (seconds < 60) return `*/${Math.max(1, Math.round(seconds))} * * * * *`;
  return `0 */${Math.max(1, Math.round(seconds / 60))} * * * *`;
}

export function startHousekeeping(parts: HousekeepingParts): { stop(): Promise<void> } {
  const { queues, logger } = parts;
  // Heartbeats are due within a second (or a fifth of the interval, for short test intervals).
  const tick = Math.max(50, Math.min(1000, (parts.heartbeatSeconds * 1000) / 5));
  const heartbeats = setInterval(() => queues.heartbeats(), tick);
  heartbeats.unref();
  let persisting: Promise<void> | undefined;
  const bookkeeping = setInterval(() => {
    persisting ??= queues.persist().catch((error: unknown) => logger.error({ err: error }, 'event bookkeeping failed')).finally(() => (persisting = undefined));
  }, 1000);
  bookkeeping.unref();
  let sweeping: Promise<void> | undefined;
  const sweep = cron.schedule(everySeconds(parts.sweepSeconds), () => {
    if (sweeping) return;
    sweeping = queues.sweep().catch((error: unknown) => logger.error({ err: error }, 'event sweep failed')).finally(() => (sweeping = undefined));
    return sweeping;
  }, { noOverlap: true });
  return {
    async stop() {
      clearInterval(heartbeats);
      clearInterval(bookkeeping);
      await persisting;
      await sweep.stop();
      await sweep.destroy();
      await sweeping;
    },
  };
}
