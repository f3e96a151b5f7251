/**
 * When a node takes a free organization and when it hands one over (docs/cluster.md, "Spreading
 * organizations"): a free lease is taken at once by its preferred node and by the others only
 * after a grace (so a dead preferred node blocks nothing); an owner hands an organization over to
 * its preferred node only once that node has been preferred for two checks, never within two leases
 * of its own start, one at a time, with a pause after each, so that the cluster does not flap.
 */

/** An organization to hand over, and the node it goes to. */
export interface Move {
  realm: number;
  to: string;
}

export class Balancer {
  /** When this node first found each organization's lease free (cleared once it is held). */
  private readonly freeSince = new Map<number, number>();
  /** The node each held organization should move to, and since when (the same node all along). */
  private readonly wanted = new Map<number, { to: string; since: number }>();
  private moving = false;
  private lastMoveAt = -Infinity;
  readonly graceMs: number;
  readonly holdMs: number;
  readonly stableMs: number;
  readonly pauseMs: number;

  constructor(
    private readonly self: string,
    leaseMs: number,
    private readonly startedAt = performance.now(),
  ) {
    this.graceMs = (2 * leaseMs) / 3;
    this.holdMs = 2 * leaseMs;
    this.stableMs = (2 * leaseMs) / 3;
    this.pauseMs = leaseMs / 6;
  }

  /** A free lease seen now: whether this node takes it (at once when preferred or none is; else after the grace). */
  mayTake(realm: number, preferred: string | undefined, now = performance.now()): boolean {
    const since = this.freeSince.get(realm) ?? now;
    this.freeSince.set(realm, since);
    return preferred === undefined || preferred === this.self || now - since >= this.graceMs;
  }

  /** The lease is held (by anyone): its grace starts again when it is next free. */
  held(realm: number): void {
    this.freeSince.delete(realm);
  }

  /** The organization to hand over now, if any: `held` are this node's, `placement` where each should be. */
  nextMove(held: Iterable<number>, placement: ReadonlyMap<number, string>, now = performance.now()): Move | undefined {
    const holding = new Set(held);
    for (const realm of this.wanted.keys()) if (!holding.has(realm)) this.wanted.delete(realm);
    let due: Move | undefined;
    for (const realm of holding) {
      const to = placement.get(realm);
      if (to === undefined || to === this.self) {
        this.wanted.delete(realm);
        continue;
      }
      const wanted = this.wanted.get(realm);
      if (wanted?.to !== to) this.wanted.set(realm, { to, since: now });
      else if (!due && now - wanted.since >= this.stableMs) due = { realm, to };
    }
    if (!due || this.moving || now - this.startedAt < this.holdMs || now - this.lastMoveAt < this.pauseMs) return undefined;
    this.moving = true;
    return due;
  }

  /** The hand-over returned by nextMove ended (done or not). */
  moved(now = performance.now()): void {
    this.moving = false;
    this.lastMoveAt = now;
  }
}
