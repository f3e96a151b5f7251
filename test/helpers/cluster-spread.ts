/**
 * Load across the cluster's hand-overs (organizations spread over the nodes): a sender and an
 * event queue per organization, through one node's forwarder, while organizations move. Then
 * every answered send must be there exactly once with its id, no id used twice in an
 * organization, every answered message's event delivered to its organization's queue.
 */
import type { LocalCluster, ParleyNode, SeedOrganization } from './cluster.js';
import { sleep } from './cluster.js';
import { messagesOf } from './cluster-load.js';
import { Poller } from './cluster-mixed.js';

export interface SpreadResult {
  acked: number;
  lost: number;
  duplicated: number;
  reusedIds: number;
  eventsMissing: number;
  queuesLost: number;
}

/** Sends to every organization of `orgs` through `via` until `stop` is called; `stop` checks and returns what it found. */
export async function loadAcross(via: ParleyNode, orgs: readonly SeedOrganization[], tag: string): Promise<{ stop(): Promise<SpreadResult> }> {
  let stopping = false;
  const acked = orgs.map(() => new Map<string, number>());
  const pollers = await Promise.all(orgs.map((org) => Poller.register(via.client(org))));
  const loops = orgs.map(async (org, o) => {
    const client = via.client(org);
    for (let n = 0; !stopping; n++) {
      const content = `${tag}-${o}-${n}`;
      const answer = await client.post('/messages', { type: 'stream', to: 'general', topic: 'failover', content }).catch(() => undefined);
      if (answer?.status === 200) acked[o]!.set(content, answer.body.id as number);
      // A pace that keeps the loaded machine answering (the point is the hand-overs, not the rate).
      await sleep(100);
    }
  });
  return {
    async stop() {
      stopping = true;
      await Promise.all(loops);
      const result: SpreadResult = { acked: 0, lost: 0, duplicated: 0, reusedIds: 0, eventsMissing: 0, queuesLost: 0 };
      for (const [o, org] of orgs.entries()) {
        const sent = acked[o]!;
        result.acked += sent.size;
        const poller = pollers[o]!;
        const missing = await poller.finish(sent.values());
        if (poller.lost) result.queuesLost++;
        else result.eventsMissing += missing.length;
        const stored = await messagesOf(via, org);
        for (const [content, id] of sent) {
          const copies = stored.get(content) ?? [];
          if (!copies.some((copy) => copy.id === id)) result.lost++;
          if (copies.length > 1) result.duplicated++;
        }
        const ids = [...stored.values()].flat().map((copy) => copy.id);
        result.reusedIds += ids.length - new Set(ids).size;
      }
      return result;
    },
  };
}

/** How many organizations each node holds (by node index), from `owners` (organization → node). */
export function shares(owners: ReadonlyMap<number, number>, cluster: LocalCluster): number[] {
  const counts = cluster.nodes.map(() => 0);
  for (const node of owners.values()) counts[node]!++;
  return counts;
}
