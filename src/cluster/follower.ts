/**
 * A node following an organization it does not serve: an ordered consumer of its stream from the
 * sequence after the last one its store holds, each entry applied in order (store/replicated-log.ts
 * makes applying idempotent by sequence). Stopped before a takeover, which then reads the tail.
 */
import { DeliverPolicy, type ConsumerMessages, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { Logger } from 'pino';
import { lastSequence, streamOf } from './streams.js';

/** Applies one stream entry (sequence and bytes) to the node's store. */
export type Apply = (realm: number, sequence: number, data: Uint8Array) => Promise<void>;

export class Follower {
  private stopped = false;
  private messages: ConsumerMessages | undefined;
  private readonly loop: Promise<void>;
  /** Set when the loop ended without being stopped (a lost consumer): the node starts a new one. */
  ended = false;
  /** Set once every entry the stream held when following started was applied (a node is "caught up" when all its followers are). */
  caughtUp = false;

  /** `from`: the sequence to start at, found when the loop starts (it may first restore a snapshot). */
  constructor(js: JetStreamClient, private readonly realm: number, from: () => Promise<number>, apply: Apply, logger: Logger) {
    this.loop = this.run(js, from, apply).catch((error: unknown) => {
      if (!this.stopped) logger.warn({ err: error, realm }, 'following an organization stopped; it resumes at the next lease check');
    }).finally(() => (this.ended = !this.stopped));
  }

  private async run(js: JetStreamClient, from: () => Promise<number>, apply: Apply): Promise<void> {
    const start = await from();
    if (this.stopped) return;
    const consumer = await js.consumers.get(streamOf(this.realm), { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: start });
    if (this.stopped) return;
    // The stream's last entry now: once it is applied, this follower is caught up.
    const last = (await (await js.streams.get(streamOf(this.realm))).info()).state.last_seq;
    if (start > last) this.caughtUp = true;
    this.messages = await consumer.consume();
    if (this.stopped) this.messages.stop();
    for await (const message of this.messages) {
      if (this.stopped) break;
      await apply(this.realm, message.seq, message.data);
      if (message.seq >= last || message.info.pending === 0) this.caughtUp = true;
    }
  }

  /** Stops consuming; resolves once no entry is being applied. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.messages?.stop();
    await this.loop;
  }
}

/** Reads and applies the stream's entries after `applied` up to its last one (a takeover's tail). */
export async function catchUp(jsm: JetStreamManager, realm: number, applied: () => number, apply: Apply): Promise<number> {
  const last = await lastSequence(jsm, realm);
  for (let sequence = applied() + 1; sequence <= last; sequence++) {
    const message = await jsm.streams.getMessage(streamOf(realm), { seq: sequence });
    if (message) await apply(realm, sequence, message.data);
  }
  return last;
}
