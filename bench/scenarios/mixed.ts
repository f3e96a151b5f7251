/**
 * The headline: how many people one Parley process serves well. Simulated people (each with a
 * registered queue and a parked long-poll, acting once every 10 s on average with Mattermost's
 * action mix) on an organization of 20,000 people, 2,174 channels of 10 to 5,000 members and
 * 1,000,000 stored messages; steps of 500 people up to 4,000, then 5,000, 10,000 and 20,000 people until
 * unhealthy. `--quick`: 2,000 people, 100,000 messages, short steps. BENCH_MIXED_USERS,
 * BENCH_MIXED_MESSAGES, BENCH_MIXED_STEPS (comma-separated), BENCH_MIXED_SECONDS (measured
 * seconds per step) and BENCH_MIXED_PROCESSES (load generators) override the plan.
 */
import { HEALTHY_P99_MS, runMixed, type MixedOutcome, type MixedStep } from '../lib/mixed-run.js';
import type { Figure, Scenario, ScenarioResult } from '../lib/scenario.js';
import { MIX } from '../lib/crowd-actions.js';

const FULL_PLAN = { users: 20_000, messages: 1_000_000, steps: [500, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 5000, 10_000, 20_000], warmSeconds: 10, measureSeconds: 40 };
const QUICK_PLAN = { users: 2000, messages: 100_000, steps: [200, 500, 1000, 2000], warmSeconds: 3, measureSeconds: 10 };

function plan(quick: boolean) {
  const base = quick ? QUICK_PLAN : FULL_PLAN;
  const env = process.env;
  return {
    users: Number(env.BENCH_MIXED_USERS ?? base.users),
    messages: Number(env.BENCH_MIXED_MESSAGES ?? base.messages),
    steps: env.BENCH_MIXED_STEPS ? env.BENCH_MIXED_STEPS.split(',').map(Number) : base.steps,
    warmSeconds: base.warmSeconds,
    measureSeconds: Number(env.BENCH_MIXED_SECONDS ?? base.measureSeconds),
    processes: env.BENCH_MIXED_PROCESSES ? Number(env.BENCH_MIXED_PROCESSES) : undefined,
  };
}

const ORDER = [...Object.keys(MIX), 'typing', 'presence'];

function stepFigures(step: MixedStep, label: string): Figure[] {
  const figures: Figure[] = [];
  for (const kind of ORDER) {
    const f = step.actions[kind];
    if (!f) continue;
    figures.push({ name: `${kind}: p50${label}`, value: f.p50, unit: 'ms' }, { name: `${kind}: p99${label}`, value: f.p99, unit: 'ms' });
  }
  figures.push(
    { name: `RSS${label}`, value: step.rssMiB, unit: 'MiB' },
    { name: `server CPU${label}`, value: step.serverCpu, unit: 'of a core' },
    { name: `load generator CPU${label}`, value: step.clientCpu, unit: 'of a core' },
    { name: `actions/s${label}`, value: step.actionsPerSecond, unit: 'actions/s' },
    { name: `deliveries/s${label}`, value: step.deliveriesPerSecond, unit: 'deliveries/s' },
  );
  return figures;
}

export function mixedResult(outcome: MixedOutcome, description: string): ScenarioResult & { detail: MixedOutcome } {
  const healthy = outcome.steps.filter((s) => s.healthy);
  const best = healthy[healthy.length - 1];
  const warnings = [...outcome.limits];
  const figures: Figure[] = [{ name: 'largest healthy number of people', value: best?.people ?? 0, unit: 'people', warnings: warnings.length ? warnings : undefined }];
  if (best) figures.push(...stepFigures(best, ' (at the largest healthy number)'));
  const knee = outcome.steps.find((s) => !s.healthy);
  const notes = [
    `organization: ${outcome.org.parameters.users} people, ${outcome.org.channels} channels of ${outcome.org.smallest} to ${outcome.org.largest} members (${outcome.org.memberships} subscriptions), ${outcome.org.parameters.messages} stored messages (10% direct)` +
      (outcome.org.seedSeconds ? `, seeded in ${outcome.org.seedSeconds} s` : ', from the cache'),
    `each person: a queue of every event type and a parked long-poll, an action every 10 s on average (exponential gaps) in the proportions ${Object.entries(MIX).map(([k, w]) => `${k} ${w}`).join(', ')}; presence every 60 s; typing 2 s before each post; ${outcome.processes} load-generator process(es) on the runner's core`,
    `healthy: every action's p99 ≤ ${HEALTHY_P99_MS} ms, no error, and every post delivered to every active person's queue that should get it (counted per post)`,
    ...outcome.steps.map((s) => `${s.people} people: ${s.healthy ? 'healthy' : `not healthy: ${s.why.join('; ')}`}; deliveries ${s.deliveriesReceived}/${s.deliveriesExpected}; server CPU ${s.serverCpu}, load generator CPU ${s.clientCpu}, others ${s.otherCpu}`),
    ...outcome.limits,
  ];
  if (knee) notes.push(`the knee: ${knee.people} people (${knee.why.join('; ')})`);
  if (outcome.profile) notes.push(`CPU profile ${outcome.profile.file}${outcome.profile.windowed ? ' over the knee\'s measured window' : ' over the whole run'}: ${outcome.profile.top.slice(0, 8).map((f) => `${f.name} ${Math.round(f.share * 1000) / 10}%`).join(', ')}`);
  return { scenario: 'mixed', description, figures, notes, detail: outcome };
}

export const mixed: Scenario = {
  name: 'mixed',
  description: 'how many simulated people (queue, parked poll, an action every 10 s in Mattermost\'s mix) one process serves with every p99 ≤ 100 ms, no error, every delivery made',
  async run(context) {
    const outcome = await runMixed({ ...plan(context.settings.quick), profileDir: context.profileDir, log: context.log });
    return mixedResult(outcome, this.description);
  },
};
