/**
 * Where each organization should be served (docs/cluster.md, "Spreading organizations"): a pure
 * function of the organizations' ids and the live nodes' names, so that every node computes the
 * same answer from the same view without coordination. Rendezvous (highest-random-weight) hashing
 * ranks the nodes for each organization; the load is then bounded, so that every node serves
 * ⌊organizations / nodes⌋ or one more: each organization, in id order, goes to the highest-ranked
 * node that still has room. A node joining or leaving moves few organizations: most keep their
 * top-ranked node.
 */
import { createHash } from 'node:crypto';

/** The weight of `node` for organization `realm` (stable across processes and machines). */
export function weightOf(realm: number, node: string): number {
  return createHash('sha256').update(`${realm}\n${node}`).digest().readUInt32BE(0);
}

/** The nodes in the order organization `realm` prefers them (highest weight first; ties by name). */
export function rankedNodes(realm: number, nodes: readonly string[]): string[] {
  const weighted = nodes.map((node) => ({ node, weight: weightOf(realm, node) }));
  weighted.sort((a, b) => b.weight - a.weight || (a.node < b.node ? -1 : a.node > b.node ? 1 : 0));
  return weighted.map(({ node }) => node);
}

/**
 * The preferred node of every organization among `nodes`: each node gets ⌊R/N⌋ or ⌈R/N⌉ of the
 * R organizations (exactly R mod N of them get the larger share). Empty when there is no node.
 */
export function placementOf(realms: Iterable<number>, nodes: readonly string[]): Map<number, string> {
  const placed = new Map<number, string>();
  const unique = [...new Set(nodes)];
  const sorted = [...new Set(realms)].sort((a, b) => a - b);
  if (unique.length === 0) return placed;
  const base = Math.floor(sorted.length / unique.length);
  let larger = sorted.length % unique.length;
  const load = new Map(unique.map((node) => [node, 0]));
  for (const realm of sorted) {
    const node = rankedNodes(realm, unique).find((candidate) => {
      const has = load.get(candidate)!;
      return has < base || (has === base && larger > 0);
    })!;
    const has = load.get(node)!;
    if (has === base) larger--;
    load.set(node, has + 1);
    placed.set(realm, node);
  }
  return placed;
}
