/** Where organizations are served in a cluster (src/cluster/placement.ts) and when they move (src/cluster/balancer.ts). */
import { test } from 'tap';
import { Balancer } from '../../src/cluster/balancer.js';
import { placementOf, rankedNodes } from '../../src/cluster/placement.js';

const counts = (placed: Map<number, string>) => {
  const found = new Map<string, number>();
  for (const node of placed.values()) found.set(node, (found.get(node) ?? 0) + 1);
  return found;
};
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

test('every node serves ⌊R/N⌋ or ⌈R/N⌉ organizations', async (t) => {
  for (const [orgs, nodes] of [[4, 3], [3, 3], [5, 3], [4, 2], [1, 3], [50, 7], [7, 1]] as const) {
    const names = range(nodes).map((i) => `n${i}`);
    const placed = placementOf(range(orgs), names);
    t.equal(placed.size, orgs, `${orgs} over ${nodes}: all placed`);
    const loads = names.map((name) => counts(placed).get(name) ?? 0);
    t.ok(Math.max(...loads) <= Math.ceil(orgs / nodes) && Math.min(...loads) >= Math.floor(orgs / nodes), `${orgs} over ${nodes}: loads ${loads.join(', ')}`);
  }
  t.same(placementOf([1, 2], []).size, 0, 'no node: nothing placed');
});

test('the same answer from any order of the same inputs, on any node', async (t) => {
  const a = placementOf([3, 1, 2, 4], ['p2', 'p0', 'p1']);
  const b = placementOf([4, 2, 1, 3, 3], ['p1', 'p2', 'p0', 'p1']);
  t.same([...a].sort(), [...b].sort());
  t.same(rankedNodes(7, ['x', 'y', 'z']), rankedNodes(7, ['z', 'y', 'x']), 'the ranking does not depend on the order of the names');
});

test('a node leaving or joining moves few organizations', async (t) => {
  const names = range(10).map((i) => `node-${i}`);
  const before = placementOf(range(100), names);
  const after = placementOf(range(100), names.slice(0, 9));
  // What the leaving node served must move (10); bounded loads move a few more, far from all.
  const moved = range(100).filter((realm) => before.get(realm) !== after.get(realm)).length;
  t.ok(moved >= 10 && moved <= 30, `${moved} of 100 moved when one of 10 nodes left`);
  const back = placementOf(range(100), names);
  t.same([...back], [...before], 'it comes back to the same placement when the node returns');
});

test('a free lease: taken at once by its preferred node, by another only after the grace', async (t) => {
  const balancer = new Balancer('a', 3000, 0);
  t.ok(balancer.mayTake(1, 'a', 10_000), 'the preferred node takes it at once');
  t.ok(balancer.mayTake(2, undefined, 10_000), 'and anyone when no node is preferred (none caught up)');
  t.notOk(balancer.mayTake(3, 'b', 10_000), 'not the preferred node: it waits');
  t.notOk(balancer.mayTake(3, 'b', 10_000 + balancer.graceMs - 1), 'through the grace');
  t.ok(balancer.mayTake(3, 'b', 10_000 + balancer.graceMs), 'then it takes it (the preferred node may be dead)');
  balancer.held(3);
  t.notOk(balancer.mayTake(3, 'b', 20_000), 'held meanwhile: the grace starts again');
});

test('hand-overs: not soon after start, only to a node preferred for a while, one at a time', async (t) => {
  const balancer = new Balancer('a', 3000, 0);
  const placement = new Map([[1, 'b'], [2, 'c'], [3, 'a']]);
  t.equal(balancer.nextMove([1, 2, 3], placement, 1000), undefined, 'first seen: not yet');
  t.equal(balancer.nextMove([1, 2, 3], placement, 1000 + balancer.stableMs), undefined, 'preferred long enough, but the node started less than the hold ago');
  const first = balancer.nextMove([1, 2, 3], placement, balancer.holdMs);
  t.same(first, { realm: 1, to: 'b' }, 'then one organization moves');
  t.equal(balancer.nextMove([2, 3], placement, balancer.holdMs + 100), undefined, 'none other while it moves');
  balancer.moved(balancer.holdMs + 500);
  t.equal(balancer.nextMove([2, 3], placement, balancer.holdMs + 500 + balancer.pauseMs - 1), undefined, 'nor during the pause after it');
  t.same(balancer.nextMove([2, 3], placement, balancer.holdMs + 500 + balancer.pauseMs), { realm: 2, to: 'c' }, 'then the next');
  balancer.moved(balancer.holdMs + 1000 + balancer.pauseMs);
  const flapping = new Balancer('a', 3000, 0);
  flapping.nextMove([1], new Map([[1, 'b']]), 10_000);
  flapping.nextMove([1], new Map([[1, 'c']]), 10_000 + 2000);
  t.equal(flapping.nextMove([1], new Map([[1, 'c']]), 10_000 + 2000 + flapping.stableMs - 1), undefined, 'a target that changed must stay preferred for two checks');
  t.equal(flapping.nextMove([1], new Map([[1, 'a']]), 20_000), undefined, 'and an organization on its preferred node stays');
});
