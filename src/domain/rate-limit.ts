import { ApiError } from './errors.js';

/**
 * Sliding-window rate limits as Zulip applies them: at most `max` requests in any window of
 * `windowSeconds`. Each key keeps the times of its last `max` requests in a ring, so a check
 * is O(1) and a key costs one small typed array.
 */

export interface RateRule {
  max: number;
  windowSeconds: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** UNIX seconds when the oldest counted request leaves the window. */
  resetAt: number;
  /** Seconds to wait before the next request can succeed (0 when allowed). */
  retryAfter: number;
}

/** Zulip's 429: `retry-after` in the body and the header, in (fractional) seconds. */
export function rateLimitHit(retryAfter: number): ApiError {
  const seconds = Math.max(retryAfter, 0.001);
  return new ApiError('RATE_LIMIT_HIT', 'API usage exceeded rate limit', 429, { 'retry-after': seconds }, { 'Retry-After': String(seconds) });
}

interface Ring {
  times: Float64Array;
  next: number;
  count: number;
}

export class RateLimiter {
  private readonly rings = new Map<string, Ring>();

  constructor(
    readonly rule: RateRule,
    private readonly now: () => number = () => Date.now() / 1000,
  ) {}

  /** Counts a request for `key` unless it is over the limit. */
  hit(key: string): RateDecision {
    return this.check(key, true);
  }

  /** Reports the state for `key` without counting anything. */
  peek(key: string): RateDecision {
    return this.check(key, false);
  }

  private check(key: string, count: boolean): RateDecision {
    const { max, windowSeconds } = this.rule;
    const now = this.now();
    let ring = this.rings.get(key);
    if (!ring) {
      if (!count) return { allowed: true, limit: max, remaining: max, resetAt: now, retryAfter: 0 };
      ring = { times: new Float64Array(max), next: 0, count: 0 };
      this.rings.set(key, ring);
    }
    const windowStart = now - windowSeconds;
    // The oldest of the last `max` requests decides: inside the window means the key is full.
    const oldestIndex = ring.count < max ? 0 : ring.next;
    const oldest = ring.times[oldestIndex];
    const full = ring.count >= max && oldest > windowStart;
    if (full) {
      const retryAfter = oldest + windowSeconds - now;
      return { allowed: false, limit: max, remaining: 0, resetAt: oldest + windowSeconds, retryAfter };
    }
    if (count) {
      ring.times[ring.next] = now;
      ring.next = (ring.next + 1) % max;
      if (ring.count < max) ring.count++;
    }
    let inWindow = 0;
    for (let i = 0; i < ring.count; i++) if (ring.times[i] > windowStart) inWindow++;
    const earliest = ring.count < max ? ring.times[0] : ring.times[ring.next];
    return { allowed: true, limit: max, remaining: max - inWindow, resetAt: (inWindow ? earliest : now) + windowSeconds, retryAfter: 0 };
  }

  /** Forgets keys whose requests have all left the window (called from a periodic sweep). */
  sweep(): void {
    const windowStart = this.now() - this.rule.windowSeconds;
    for (const [key, ring] of this.rings) {
      const newest = ring.times[(ring.next + this.rule.max - 1) % this.rule.max];
      if (newest <= windowStart) this.rings.delete(key);
    }
  }

  reset(key: string): void {
    this.rings.delete(key);
  }
}
