/**
 * Load and checks for the cluster's failover: senders post messages (each with its own content)
 * to an organization through a node that does not serve it, a reactor and a flagger change
 * answered ones, an event queue is polled; the owner is killed (kill -9), and the load goes on
 * until enough sends are answered after the kill. Then every answered message must be there
 * exactly once, with the id it was answered with, no id twice, every answered reaction and star
 * there, and every answered message's event delivered to the queue.
 */
import type { LocalCluster, ParleyNode, SeedOrganization } from './cluster.js';
import { sleep } from './cluster.js';
import { changeLoop, Poller } from './cluster-mixed.js';

export interface CycleResult {
  acked: number;
  lost: number;
  duplicated: number;
  reusedIds: number;
  /** From the kill to the first send answered after it. */
  failoverMs: number;
  killed: number;
  newOwner: number;
  /** Answered reactions and stars not found, and answered messages whose event never came. */
  changesLost: number;
  changes: number;
  eventsMissing: number;
  queueLost: boolean;
}

/** A stored message as the checks need it. */
interface Stored {
  id: number;
  reactions: string[];
  flags: string[];
}

/** Posts messages through `via` until `stop()` is true; the answered ones by content (their ids). */
async function sendLoop(via: ParleyNode, org: SeedOrganization, tag: string, acked: Map<string, number>, ackTimes: [number, number][], stop: () => boolean): Promise<void> {
  const client = via.client(org);
  for (let n = 0; !stop(); n++) {
    const content = `${tag}-${n}`;
    const sentAt = performance.now();
    const answer = await client.post('/messages', { type: 'stream', to: 'general', topic: 'failover', content }).catch(() => undefined);
    if (answer?.status === 200) {
      acked.set(content, answer.body.id as number);
      ackTimes.push([sentAt, performance.now()]);
    } else {
      await sleep(50);
    }
  }
}

/** Every message of the failover topic, read through `via` (content → ids). */
export async function messagesOf(via: ParleyNode, org: SeedOrganization): Promise<Map<string, Stored[]>> {
  const narrow = [{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'failover' }];
  const found = new Map<string, Stored[]>();
  let anchor: string | number = 'oldest';
  for (;;) {
    const page = await via.client(org).get('/messages', { anchor, num_before: 0, num_after: 1000, narrow, apply_markdown: false, include_anchor: anchor === 'oldest' });
    if (page.status !== 200) throw new Error(`reading messages: ${page.status} ${JSON.stringify(page.body)}`);
    for (const message of page.body.messages as { id: number; content: string; flags: string[]; reactions: { emoji_name: string }[] }[]) {
      const stored = { id: message.id, flags: message.flags, reactions: message.reactions.map((reaction) => reaction.emoji_name) };
      found.set(message.content, [...(found.get(message.content) ?? []), stored]);
    }
    if (page.body.found_newest || page.body.messages.length === 0) return found;
    anchor = page.body.messages.at(-1).id;
  }
}

/**
 * One failover cycle on `org`: senders through a node that does not serve it, the owner killed
 * after `before` answered sends, then `after` more answered sends; the killed node restarted and
 * caught up. Returns what was checked.
 */
export async function failoverCycle(
  cluster: LocalCluster,
  org: SeedOrganization,
  tag: string,
  before = 20,
  after = 20,
  senders = 3,
  /** Sends answered in earlier cycles, checked again (a node restarted after a kill serves them when it takes over). */
  history = new Map<string, number>(),
  /** Whether the killed node is started again before the cycle returns. */
  restart = true,
): Promise<CycleResult> {
  // Organizations spread over the nodes by hand-overs (a node restarted in the last cycle gets its
  // share back): the cycle starts once they have settled, so that the owner read here stays it.
  await cluster.waitSettled();
  const owner = (await cluster.ownerOf(org))!;
  const via = cluster.nodes.find((_, i) => i !== owner)!;
  const acked = new Map<string, number>();
  const ackTimes: [number, number][] = [];
  let killedAt = Infinity;
  let afterKill = 0;
  const stop = () => afterKill >= after;
  const poller = await Poller.register(via.client(org));
  const loops = Array.from({ length: senders }, (_, s) => sendLoop(via, org, `${tag}-s${s}`, acked, ackTimes, stop));
  const reacted = new Set<number>();
  const starred = new Set<number>();
  loops.push(changeLoop(via.client(org), acked, reacted, 'reaction', stop), changeLoop(via.client(org), acked, starred, 'star', stop));
  const watcher = (async () => {
    while (acked.size < before) await sleep(20);
    cluster.nodes[owner]!.child.signal('SIGKILL');
    killedAt = performance.now();
    const atKill = acked.size;
    while (!stop()) {
      afterKill = acked.size - atKill;
      await sleep(20);
    }
  })();
  await Promise.all([...loops, watcher]);
  const newOwner = await cluster.waitOwnerOtherThan(org, owner);
  // The first send made after the kill and answered (sends in flight at the kill do not count).
  const firstAfter = Math.min(...ackTimes.filter(([sent]) => sent > killedAt).map(([, answered]) => answered));
  const eventsMissing = (await poller.finish(acked.values())).length;
  const stored = await messagesOf(via, org);
  let lost = 0;
  let duplicated = 0;
  const byId = new Map<number, Stored>();
  for (const [content, id] of acked) history.set(content, id);
  for (const [content, id] of history) {
    const copies = stored.get(content) ?? [];
    if (!copies.some((copy) => copy.id === id)) lost++;
    if (copies.length > 1) duplicated++;
    for (const copy of copies) byId.set(copy.id, copy);
  }
  let changesLost = 0;
  for (const id of reacted) if (!byId.get(id)?.reactions.includes('octopus')) changesLost++;
  for (const id of starred) if (!byId.get(id)?.flags.includes('starred')) changesLost++;
  const allIds = [...stored.values()].flat().map((copy) => copy.id);
  const reusedIds = allIds.length - new Set(allIds).size;
  // The killed node comes back on its data directory and follows again.
  await cluster.nodes[owner]!.child.exited();
  if (restart) await cluster.startNode(owner, false);
  return {
    acked: acked.size,
    lost,
    duplicated,
    reusedIds,
    failoverMs: Math.round(firstAfter - killedAt),
    killed: owner,
    newOwner,
    changes: reacted.size + starred.size,
    changesLost,
    eventsMissing: poller.lost ? 0 : eventsMissing,
    queueLost: poller.lost,
  };
}
