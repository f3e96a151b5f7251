/**
 * The `mixed` benchmark's machinery at a tiny scale (bench/lib/mixed-run.ts): a seeded
 * organization on a real Parley process, simulated people in a load-generator process acting
 * every half second for a few seconds; every post's deliveries counted against the queues that
 * should get it. Checks that the counts are consistent, not how fast anything is.
 */
import { test } from 'tap';
import { runMixed } from '../../bench/lib/mixed-run.js';
import { mixedResult } from '../../bench/scenarios/mixed.js';
import { channelSizes } from '../../bench/lib/org-shape.js';
import { pickAction, MIX } from '../../bench/lib/crowd-actions.js';

test('the action mix is drawn in its proportions', async (t) => {
  const counts = new Map<string, number>();
  const draws = 100_000;
  for (let i = 0; i < draws; i++) {
    const action = pickAction((i + 0.5) / draws);
    counts.set(action, (counts.get(action) ?? 0) + 1);
  }
  const total = Object.values(MIX).reduce((a, b) => a + b, 0);
  for (const [action, weight] of Object.entries(MIX)) {
    t.ok(Math.abs((counts.get(action) ?? 0) / draws - weight / total) < 0.001, `${action}: ${weight} of ${total}`);
  }
});

test('channel sizes span 10 to 5,000 members at 20,000 people and shrink with the organization', async (t) => {
  const sizes = channelSizes(20_000);
  t.equal(Math.min(...sizes), 10);
  t.equal(Math.max(...sizes), 5000);
  const small = channelSizes(30);
  t.ok(small.every((s) => s <= 30), 'never more members than people');
});

test('twenty simulated people: every post delivered to every queue that should get it', async (t) => {
  const lines: string[] = [];
  const outcome = await runMixed({ users: 30, messages: 2000, steps: [20], warmSeconds: 1, measureSeconds: 4, processes: 1, meanGapMs: 400, log: (line) => lines.push(line) });
  t.equal(outcome.steps.length, 1, 'one step ran');
  const step = outcome.steps[0]!;
  t.equal(step.people, 20);
  t.equal(step.registered, 20, 'a queue for each person');
  t.same(step.errors, {}, `no errors (${step.errorSamples.join(' | ')})`);
  t.ok(step.posts > 0, `posts were made (${step.posts})`);
  t.ok(step.deliveriesExpected >= step.posts, 'each post is expected on at least the sender\'s queue');
  t.equal(step.deliveriesReceived, step.deliveriesExpected, 'deliveries received == expected');
  t.equal(step.missing + step.extra, 0, 'no post short of or over its deliveries');
  const measured = Object.values(step.actions).reduce((sum, f) => sum + f.count, 0);
  t.ok(measured > 50, `requests were timed (${measured})`);
  t.ok(step.actions['switch channel'] && step.actions['switch channel'].count > 0, 'the commonest action ran');
  const result = mixedResult(outcome, 'test');
  const headline = result.figures.find((f) => f.name === 'largest healthy number of people');
  t.equal(headline?.value, step.healthy ? 20 : 0, 'the headline figure follows the step\'s health');
});
