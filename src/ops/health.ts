/**
 * The health check behind `GET /health`: cheap enough to be polled every second by a load
 * balancer, and true only if the store still answers a read.
 */
import type { HealthAnswer } from '../http/front.js';
import type { Services } from '../services.js';

export function healthCheck(services: Services): () => HealthAnswer {
  return () => {
    const uptimeSeconds = Math.floor(services.clock.now() / 1000) - services.startedAt;
    const outage = services.db.unavailable;
    if (outage) {
      // Reads still work, but writes are refused until the store is recovered: not healthy.
      return {
        status: 503,
        body: {
          result: 'error',
          code: 'SERVER_NOT_READY',
          msg: `Store cannot write: ${outage.reason}`,
          status: 'unavailable',
          checks: { store: 'unwritable' },
          reason: outage.reason,
          unavailable_seconds: Math.round((Date.now() - outage.since) / 1000),
          recovery_attempts: outage.attempts,
        },
      };
    }
    try {
      // One point read of a record every organization has: it fails if LevelDB is closed or broken.
      if (!services.org.storedIn(services.db)) throw new Error('the organization record is missing');
    } catch (error) {
      services.logger.error({ err: error }, 'health check: store unavailable');
      return {
        status: 503,
        body: { result: 'error', code: 'BAD_REQUEST', msg: 'Store unavailable', status: 'unavailable', checks: { store: 'failed' } },
      };
    }
    return {
      status: 200,
      body: { result: 'success', msg: '', status: 'ok', checks: { store: 'ok' }, uptime_seconds: uptimeSeconds, event_queues: services.queues.size },
    };
  };
}
