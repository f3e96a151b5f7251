/**
 * The rest of the cluster's failover load beside the sends (cluster-load.ts): a reactor and a
 * flagger working on answered messages, and an event queue polled through the failover.
 */
import type { Api } from './client.js';
import { sleep } from './cluster.js';

/** Adds a reaction (or a star) to answered messages, newest first; the ids whose change was answered. */
export async function changeLoop(client: Api, acked: Map<string, number>, done: Set<number>, kind: 'reaction' | 'star', stop: () => boolean): Promise<void> {
  while (!stop()) {
    const id = [...acked.values()].reverse().find((candidate) => !done.has(candidate));
    if (id === undefined) {
      await sleep(20);
      continue;
    }
    const answer =
      kind === 'reaction'
        ? await client.post(`/messages/${id}/reactions`, { emoji_name: 'octopus' }).catch(() => undefined)
        : await client.post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' }).catch(() => undefined);
    if (answer?.status === 200) done.add(id);
    else await sleep(50);
  }
}

/** An event queue registered before the load and polled through it (long polls forwarded to the owner). */
export class Poller {
  readonly messageIds = new Set<number>();
  /** Set when the queue was not there after the failover (BAD_EVENT_QUEUE_ID). */
  lost = false;
  private lastEventId = -1;
  private stopped = false;
  private loop: Promise<void> | undefined;

  private constructor(
    private readonly client: Api,
    private readonly queueId: string,
  ) {}

  static async register(client: Api): Promise<Poller> {
    const answer = await client.post('/register', { event_types: ['message'] });
    if (answer.status !== 200) throw new Error(`register: ${answer.status} ${JSON.stringify(answer.body)}`);
    const poller = new Poller(client, answer.body.queue_id as string);
    poller.lastEventId = answer.body.last_event_id as number;
    poller.loop = poller.run();
    return poller;
  }

  private async run(): Promise<void> {
    while (!this.stopped && !this.lost) {
      const answer = await this.client.get('/events', { queue_id: this.queueId, last_event_id: this.lastEventId, dont_block: this.stopped }).catch(() => undefined);
      if (answer?.status === 200) {
        for (const event of answer.body.events as { id: number; type: string; message?: { id: number } }[]) {
          if (event.type === 'message' && event.message) this.messageIds.add(event.message.id);
          this.lastEventId = Math.max(this.lastEventId, event.id);
        }
      } else if (answer?.body?.code === 'BAD_EVENT_QUEUE_ID') {
        this.lost = true;
      } else {
        await sleep(100);
      }
    }
  }

  /** Polls until every id in `wanted` arrived (or `timeoutMs` passed), then stops; the ids that never came. */
  async finish(wanted: Iterable<number>, timeoutMs = 20_000): Promise<number[]> {
    const deadline = Date.now() + timeoutMs;
    const ids = [...wanted];
    while (!this.lost && ids.some((id) => !this.messageIds.has(id)) && Date.now() < deadline) await sleep(100);
    this.stopped = true;
    // The last long poll ends at its heartbeat at the latest; it is not waited for.
    void this.loop;
    return ids.filter((id) => !this.messageIds.has(id));
  }
}
