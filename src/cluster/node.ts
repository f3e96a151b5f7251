/**
 * One Parley node of a cluster (docs/cluster.md): the organizations it serves (each under a lease
 * in the JetStream KV bucket, renewed), the streams it appends their writes to (with the expected
 * last sequence: a node that lost its lease cannot append), the organizations it follows, and
 * takeover when a lease expires: catch up to the tail, take the lease, fence with a marker, load.
 * Organizations drift to their preferred live node (placement.ts, balancer.ts): free leases are
 * taken by it first, and an owner hands one over gracefully when another node is preferred.
 */
import { JetStreamApiError, JetStreamError } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import type { Logger } from 'pino';
import type { Organizations } from '../organizations.js';
import type { Counters } from '../store/counters.js';
import type { Database } from '../store/database.js';
import { Organization } from '../store/organization.js';
import {
  appliedOp,
  appliedSequence,
  messageCounterKey,
  newestMessageId,
  opsToApply,
  createdSubdomain,
  realmCounterKey,
  packBatch,
  servedElsewhere,
  unpackBatch,
  type ReplicatedBatch,
  type Replicator,
} from '../store/replicated-log.js';
import type { ClusterConfig } from './cluster-config.js';
import { Balancer } from './balancer.js';
import { catchUp, Follower } from './follower.js';
import { Membership } from './membership.js';
import { placementOf } from './placement.js';
import { register, RegistryWatch } from './registry.js';
import type { Snapshots } from './snapshots.js';
import { appendExpecting, ensureStream, leaseKeyOf, retry, subjectOf, type JetStreamParts, type LeaseValue } from './streams.js';

/** JetStream's error code for an append whose expected last sequence is not the stream's. */
const WRONG_LAST_SEQUENCE = 10071;

/** An organization this node serves. */
interface Held {
  subdomain: string;
  /** The lease's KV revision: a renewal names it, so a lease taken by another node cannot be renewed. */
  revision: number;
  /** The stream's last sequence as this node appended it: the next append expects it. */
  lastSequence: number;
  /** When the last successful renewal was sent (this node's clock): past a lease, it stops serving. */
  renewedAt: number;
}

export interface NodeParts {
  config: ClusterConfig;
  jet: JetStreamParts;
  db: Database;
  counters: Counters;
  organizations: Organizations;
  logger: Logger;
  snapshots: Snapshots;
  /** The heartbeats' bucket (membership.ts). */
  nodes: KV;
}

export class ClusterNode implements Replicator {
  private readonly held = new Map<number, Held>();
  private readonly followers = new Map<number, Follower>();
  private readonly taking = new Set<number>();
  /** Organizations being made here that the cluster does not list yet (adopt, list). */
  private readonly unlisted = new Set<number>();
  /** Every organization of the cluster, by id (its subdomain). */
  private readonly realms = new Map<number, string>();
  private timer: NodeJS.Timeout | undefined;
  private stopping = false;
  private checking: Promise<void> | undefined;
  /** Organizations being handed over (their last writes still appended here). */
  private readonly leaving = new Set<number>();
  private readonly balancer: Balancer;
  private readonly membership: Membership;
  private readonly listing: RegistryWatch;
  /** Set once every organization followed was applied to its stream's tail (then it stays: a heartbeat says so). */
  private caughtUp = false;
  /** Organizations appended to in the turn being written (given up if its LevelDB write fails). */
  private readonly appended = new Set<number>();

  constructor(private readonly parts: NodeParts) {
    const { config, nodes, logger } = parts;
    this.balancer = new Balancer(config.node, config.leaseMs);
    this.membership = new Membership(nodes, config.node, config.leaseMs, () => ({ caughtUp: this.isCaughtUp() }), logger);
    this.listing = new RegistryWatch(parts.jet.registry, (error) => logger.warn({ err: error }, 'cluster: watching the list of organizations stopped; it starts again'));
  }

  /** Lists the organizations, makes their streams, starts following them all and the lease checks (which take free ones). */
  async start(): Promise<void> {
    const { db, jet, organizations } = this.parts;
    for (const { id, subdomain } of await Organization.list(db)) {
      await retry(() => register(jet.registry, id, subdomain));
      this.realms.set(id, subdomain);
      await ensureStream(jet.jsm, id);
    }
    // Tried again, as the other start-up calls: a nats-server just lost leaves streams electing leaders for seconds.
    await retry(() => this.learn());
    db.replicateWith(this, this.parts.config.node);
    organizations.gate = (subdomain) => (this.servesSubdomain(subdomain) ? undefined : servedElsewhere(`this node, ${this.parts.config.node}, does not serve it`));
    for (const realm of this.realms.keys()) this.follow(realm);
    this.membership.start();
    await this.check();
    this.timer = setInterval(() => void this.checkOnce(), Math.max(100, Math.floor(this.parts.config.leaseMs / 3)));
  }

  /** Whether this node serves the organization at `subdomain` now (one being made here has no subdomain yet). */
  private servesSubdomain(subdomain: string): boolean {
    for (const [realm, held] of this.held) if (held.subdomain === subdomain && !this.unlisted.has(realm) && !this.leaving.has(realm)) return true;
    return false;
  }

  // ---- Replicator: the group commit's side ----

  admit(realm: number | undefined): Error | undefined {
    // An organization the cluster does not list yet is being created here: its first append claims it.
    if (realm === undefined || this.held.has(realm) || !this.realms.has(realm)) return undefined;
    return servedElsewhere(`this node, ${this.parts.config.node}, does not serve it`);
  }

  async append(batches: ReadonlyMap<number, ReplicatedBatch>): Promise<Map<number, number | Error>> {
    const outcomes = new Map<number, number | Error>();
    this.appended.clear();
    await Promise.all(
      [...batches].map(async ([realm, batch]) => {
        try {
          if (!this.realms.has(realm) && !this.held.has(realm)) await this.adopt(realm);
          if (this.unlisted.has(realm)) await this.list(realm, batch);
        } catch (error) {
          this.parts.logger.error({ err: error, realm }, 'cluster: a new organization could not be claimed');
          this.giveUp(realm, 'not claimed');
          return outcomes.set(realm, servedElsewhere(`it could not be claimed in the cluster: ${(error as Error).message}`));
        }
        const held = this.held.get(realm);
        if (!held) return outcomes.set(realm, servedElsewhere('its lease was lost'));
        try {
          const seq = await appendExpecting(this.parts.jet.js, realm, packBatch(batch), held.lastSequence, `${this.parts.config.node}-${realm}-${held.lastSequence}`, this.parts.config.appendTimeoutMs);
          held.lastSequence = seq;
          this.appended.add(realm);
          this.parts.snapshots.appended(realm, held.subdomain, seq, held.revision);
          outcomes.set(realm, seq);
        } catch (error) {
          // A wrong last sequence: another node appended (it took the lease). No answer until the
          // deadline: unknown, so this node stops serving and learns the outcome as a follower.
          const fenced = error instanceof JetStreamApiError && error.code === WRONG_LAST_SEQUENCE;
          this.giveUp(realm, `append refused: ${(error as Error).message}`);
          outcomes.set(realm, servedElsewhere(fenced ? 'its log was appended to by another node' : (error as Error).message, fenced));
        }
      }),
    );
    return outcomes;
  }

  writeFailed(): void {
    for (const realm of this.appended) this.giveUp(realm, 'the store failed to write what the stream holds');
    this.appended.clear();
  }

  /**
   * A new organization being made on this node (the cluster does not list it): its lease is taken
   * first (no other node can take it while it has no stream) and its stream made; its first
   * append then expects an empty stream. It is listed once a batch holds its index entry.
   */
  private async adopt(realm: number): Promise<void> {
    const { jet } = this.parts;
    const sent = performance.now();
    const revision = await jet.leases.create(leaseKeyOf(realm), JSON.stringify(this.leaseValue()));
    this.held.set(realm, { subdomain: '', revision, lastSequence: 0, renewedAt: sent });
    this.unlisted.add(realm);
    await ensureStream(jet.jsm, realm);
  }

  /** Claims a new organization's id and subdomain in the registry when its batch creates them (refused if another node made either). */
  private async list(realm: number, batch: ReplicatedBatch): Promise<void> {
    const subdomain = createdSubdomain(batch, realm);
    if (subdomain === undefined) return;
    await register(this.parts.jet.registry, realm, subdomain);
    this.unlisted.delete(realm);
    this.realms.set(realm, subdomain);
    const held = this.held.get(realm);
    if (held) held.subdomain = subdomain;
  }

  /** Organizations made on other nodes: listed, followed from their first entry, and their ids never handed out here. */
  private async learn(): Promise<void> {
    for (const [realm, subdomain] of await this.listing.unknown((id) => this.realms.has(id))) {
      this.parts.counters.raise(realmCounterKey(), realm);
      this.realms.set(realm, subdomain);
      this.follow(realm);
    }
  }

  // ---- Following ----

  private follow(realm: number): void {
    if (this.stopping || this.held.has(realm) || this.taking.has(realm)) return;
    const current = this.followers.get(realm);
    if (current && !current.ended) return;
    // A store behind the stream's first entry (trimmed below a snapshot) restores the snapshot first.
    const from = async () => {
      await this.parts.snapshots.restoreIfBehind(realm);
      return appliedSequence((key) => this.parts.db.get(key), realm) + 1;
    };
    this.followers.set(realm, new Follower(this.parts.jet.js, realm, from, (r, seq, data) => this.apply(r, seq, data), this.parts.logger));
  }

  /** Applies one stream entry to the store, unless it holds it already. */
  private async apply(realm: number, sequence: number, data: Uint8Array): Promise<void> {
    const { db, counters } = this.parts;
    // Entries follow each other without gaps: one missing was trimmed (the snapshot holds it).
    const applied = appliedSequence((key) => db.get(key), realm);
    if (sequence > applied + 1) throw new Error(`entry ${sequence} follows ${applied}: the stream was trimmed past this store; the snapshot is restored first`);
    const ops = opsToApply(realm, sequence, unpackBatch(data), (key) => db.get(key), (key, value) => counters.raise(key, value));
    if (ops) await db.applyReplicated(ops);
  }

  // ---- Leases ----

  /** A check, unless the previous one still runs (two renewals naming one revision would refuse each other). */
  private async checkOnce(): Promise<void> {
    if (this.checking) return;
    this.checking = this.check().finally(() => (this.checking = undefined));
    await this.checking;
  }

  /** Whether every organization this node does not serve is applied to the tail its stream had (sticky once true). */
  private isCaughtUp(): boolean {
    if (this.caughtUp) return true;
    for (const realm of this.realms.keys()) if (!this.held.has(realm) && !this.followers.get(realm)?.caughtUp) return false;
    this.caughtUp = true;
    void this.membership.beat();
    return true;
  }

  /** Renews the leases held; takes free ones; restarts followers that ended. */
  private async check(): Promise<void> {
    if (this.stopping) return;
    await this.learn().catch((error: unknown) => this.parts.logger.warn({ err: error }, 'cluster: the list of organizations could not be read'));
    const { leases } = this.parts.jet;
    for (const [realm, held] of this.held) {
      if (performance.now() - held.renewedAt > this.parts.config.leaseMs) {
        this.giveUp(realm, 'its lease was not renewed in time');
        continue;
      }
      const sent = performance.now();
      try {
        held.revision = await leases.update(leaseKeyOf(realm), JSON.stringify(this.leaseValue()), held.revision);
        held.renewedAt = sent;
      } catch (error) {
        if (this.held.get(realm) === held) this.giveUp(realm, `lease renewal refused: ${(error as Error).message}`);
      }
    }
    const placement = placementOf(this.realms.keys(), this.membership.ready());
    for (const realm of this.realms.keys()) {
      if (this.held.has(realm) || this.taking.has(realm)) continue;
      this.follow(realm);
      const entry = await leases.get(leaseKeyOf(realm)).catch(() => null);
      if (entry !== null && entry.operation === 'PUT') this.balancer.held(realm);
      else if (this.balancer.mayTake(realm, placement.get(realm))) void this.takeOver(realm);
    }
    const move = this.balancer.nextMove([...this.held.keys()].filter((realm) => !this.unlisted.has(realm)), placement);
    if (move) void this.handOverOne(move.realm, move.to).finally(() => this.balancer.moved());
  }

  /**
   * Hands one organization over to its preferred node, gracefully (as a SIGTERM does): no new
   * request is served, the work and requests under way end (their writes appended), then the
   * lease goes, so that the preferred node takes it at its next check. Then it is followed again.
   */
  private async handOverOne(realm: number, to: string): Promise<void> {
    const held = this.held.get(realm);
    if (!held) return;
    const started = performance.now();
    this.leaving.add(realm);
    try {
      await this.parts.organizations.handOff(held.subdomain, servedElsewhere(`it is being handed over to ${to}`));
    } catch (error) {
      this.parts.logger.error({ err: error, realm }, 'cluster: the hand-over did not end cleanly');
    } finally {
      this.leaving.delete(realm);
    }
    if (this.held.get(realm) !== held) return; // given up meanwhile
    this.held.delete(realm);
    // A renewal under way may change the revision: the deletion names the last one.
    await this.checking;
    await this.parts.jet.leases.delete(leaseKeyOf(realm), { previousSeq: held.revision }).catch(() => undefined);
    this.parts.logger.warn({ realm, subdomain: held.subdomain, to, ms: Math.round(performance.now() - started) }, 'cluster: organization handed over');
    this.follow(realm);
  }

  private leaseValue(): LeaseValue {
    return { node: this.parts.config.node, url: this.parts.config.nodeUrl };
  }

  /**
   * Takes over a free organization: stop following, apply the stream's tail, create the lease
   * (one node wins), append a takeover marker expecting the last sequence applied (so a previous
   * owner cannot append any more), raise the counters, then load and serve it.
   */
  private async takeOver(realm: number): Promise<void> {
    if (this.stopping || this.taking.has(realm) || this.held.has(realm)) return;
    this.taking.add(realm);
    const started = performance.now();
    const { db, jet, logger } = this.parts;
    const applied = () => appliedSequence((key) => db.get(key), realm);
    const apply = (r: number, seq: number, data: Uint8Array) => this.apply(r, seq, data);
    try {
      await this.followers.get(realm)?.stop();
      this.followers.delete(realm);
      await this.parts.snapshots.restoreIfBehind(realm);
      await catchUp(jet.jsm, realm, applied, apply);
      const sent = performance.now();
      let revision: number;
      try {
        revision = await jet.leases.create(leaseKeyOf(realm), JSON.stringify(this.leaseValue()));
      } catch {
        return; // another node was quicker: keep following (finally)
      }
      const lastSequence = await this.fence(realm, applied, apply);
      await this.raiseCounters(realm);
      const subdomain = this.realms.get(realm)!;
      this.held.set(realm, { subdomain, revision, lastSequence, renewedAt: sent });
      await this.parts.organizations.load(subdomain);
      const ms = Math.round(performance.now() - started);
      logger.warn({ realm, subdomain, ms, sequence: lastSequence }, 'cluster: serving this organization');
    } catch (error) {
      logger.error({ err: error, realm }, 'cluster: takeover failed; following again');
      if (this.held.has(realm)) this.giveUp(realm, 'takeover failed');
    } finally {
      this.taking.delete(realm);
      this.follow(realm);
    }
  }

  /** Appends the takeover marker after the last entry applied; another entry meanwhile: applies it and tries again. */
  private async fence(realm: number, applied: () => number, apply: (r: number, seq: number, data: Uint8Array) => Promise<void>): Promise<number> {
    const marker: ReplicatedBatch = { node: this.parts.config.node, ops: [], takeover: true };
    for (let attempt = 0; ; attempt++) {
      try {
        const ack = await this.parts.jet.js.publish(subjectOf(realm), packBatch(marker), { expect: { lastSequence: applied() }, timeout: this.parts.config.appendTimeoutMs });
        await this.parts.db.applyReplicated([appliedOp(realm, ack.seq)]);
        return ack.seq;
      } catch (error) {
        const wrongSequence = error instanceof JetStreamApiError || error instanceof JetStreamError;
        if (!wrongSequence || attempt >= 20) throw error;
        await catchUp(this.parts.jet.jsm, realm, applied, apply);
      }
    }
  }

  /** Ids: what the store holds of the organization's counters, and the message counter above its newest message. */
  private async raiseCounters(realm: number): Promise<void> {
    const { counters, db } = this.parts;
    counters.reconcile();
    counters.raise(messageCounterKey(), await newestMessageId((range, options) => db.scanKeys(range, options), realm));
  }

  /** Stops serving an organization at once (no write is admitted), unloads it, and follows it again. */
  private giveUp(realm: number, reason: string): void {
    const held = this.held.get(realm);
    if (!held) return;
    this.held.delete(realm);
    // Let the lease go now rather than at its expiry (refused if another node holds it already).
    void this.parts.jet.leases.delete(leaseKeyOf(realm), { previousSeq: held.revision }).catch(() => undefined);
    // An organization whose making failed: nothing of it was served or listed.
    if (this.unlisted.delete(realm)) return;
    this.parts.logger.warn({ realm, subdomain: held.subdomain, reason }, 'cluster: no longer serving this organization');
    void this.parts.organizations.release(held.subdomain).finally(() => this.follow(realm));
  }

  /** Stops the lease checks and followers (the connection and the leases stay for the server's last appends). */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    await this.membership.stop();
    this.listing.stop();
    await Promise.all([...this.followers.values()].map((follower) => follower.stop()));
  }

  /** Once the server wrote its last batch: lets every lease go, so that other nodes take over at their next check rather than at expiry. */
  async handOver(): Promise<void> {
    const held = [...this.held];
    this.held.clear();
    await Promise.all(held.map(([realm, { revision }]) => this.parts.jet.leases.delete(leaseKeyOf(realm), { previousSeq: revision }).catch(() => undefined)));
  }
}
