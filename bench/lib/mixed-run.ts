/**
 * The machinery of the `mixed` scenario: an organization of realistic shape on a Parley process
 * pinned to the server's core, simulated people in load-generator processes on the other, and
 * steps of more and more people until the server is no longer healthy: p99 of an action over
 * 100 ms, any error, or any message not delivered to a queue that should have it.
 */
import { readFileSync, rmSync } from 'node:fs';
import { busySeconds, coreTimes, processCpuSeconds, type CoreTimes } from './cpu.js';
import { measuredCores } from './pinning.js';
import { CrowdDriver, type CrowdStep } from './crowd-driver.js';
import type { CrowdPerson } from './crowd.js';
import { organization, type SeededOrg } from './org-shape.js';
import { monotonicMicros, newestProfile, summarizeProfile, type ProfileSummary } from './profile.js';
import { rssOf, startParley } from './processes.js';
import { CLIENT_SATURATED, OTHER_LOAD, percentile, round } from './scenario.js';

export interface MixedOptions {
  users: number;
  messages: number;
  steps: number[];
  warmSeconds: number;
  measureSeconds: number;
  /** Load-generator processes (default: one per 5,000 people of the largest step). */
  processes?: number;
  /** Mean gap between a person's actions (10 s; shorter only to exercise the machinery in a test). */
  meanGapMs?: number;
  profileDir?: string;
  log(line: string): void;
}

export interface ActionFigures {
  count: number;
  p50: number;
  p99: number;
}

export interface MixedStep {
  people: number;
  healthy: boolean;
  /** Why not healthy (empty when healthy). */
  why: string[];
  actions: Record<string, ActionFigures>;
  actionsPerSecond: number;
  posts: number;
  deliveriesExpected: number;
  deliveriesReceived: number;
  missing: number;
  extra: number;
  deliveriesPerSecond: number;
  errors: Record<string, number>;
  errorSamples: string[];
  skipped: Record<string, number>;
  /** Shares of one core in the measured window. */
  serverCpu: number;
  clientCpu: number;
  /** Everything else on the two measured cores (other processes): above 0.15 the figures are noisy. */
  otherCpu: number;
  rssMiB: number;
  registered: number;
  registerP50Ms: number;
  registerP99Ms: number;
  /** The measured window on the clock of CPU profiles (µs). */
  window: [number, number];
}

export interface MixedOutcome {
  org: Pick<SeededOrg, 'parameters' | 'seedSeconds'> & { channels: number; memberships: number; smallest: number; largest: number };
  steps: MixedStep[];
  processes: number;
  /** Why the steps stopped below the plan's largest, when they did for a reason other than health. */
  limits: string[];
  /** The load generator used more than 90% of its core in the last step run. */
  generatorLimited: boolean;
  profile?: ProfileSummary;
}

export const HEALTHY_P99_MS = 100;
const POOL_PER_PROCESS = 256;

/** The soft limit of open files of this process (the server inherits it). */
function openFileLimit(): number {
  const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
  const soft = Number(line?.split(/\s{2,}/)[1]);
  return Number.isFinite(soft) ? soft : Infinity;
}

function figuresOf(values: number[]): ActionFigures {
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, p50: round(percentile(sorted, 50), 2), p99: round(percentile(sorted, 99), 2) };
}

function stepReport(people: number, crowd: CrowdStep, prepared: { registerMs: number[]; errors: number; errorSamples: string[] }, serverCpu: number, busy: number, rss: number, actingSeconds: number, window: [number, number]): MixedStep {
  const clientCpu = crowd.clientCpuSeconds / Math.max(crowd.measuredSeconds, 0.001);
  const actions: Record<string, ActionFigures> = {};
  for (const [kind, values] of Object.entries(crowd.latencies)) actions[kind] = figuresOf(values!);
  const errors: Record<string, number> = { ...crowd.errors };
  if (prepared.errors) errors.register = (errors.register ?? 0) + prepared.errors;
  const why: string[] = [];
  for (const [kind, figures] of Object.entries(actions)) if (figures.p99 > HEALTHY_P99_MS) why.push(`${kind} p99 ${figures.p99} ms`);
  const errorCount = Object.values(errors).reduce((a, b) => a + b, 0);
  if (errorCount) why.push(`${errorCount} errors`);
  if (crowd.missing) why.push(`${crowd.missing} deliveries missing`);
  if (crowd.extra) why.push(`${crowd.extra} deliveries more than expected`);
  const register = figuresOf(prepared.registerMs);
  const counted = Object.values(actions).reduce((sum, f) => sum + f.count, 0);
  return {
    people,
    healthy: why.length === 0,
    why,
    actions,
    actionsPerSecond: round(counted / Math.max(crowd.measuredSeconds, 0.001), 1),
    posts: crowd.posts,
    deliveriesExpected: crowd.deliveriesExpected,
    deliveriesReceived: crowd.deliveriesReceived,
    missing: crowd.missing,
    extra: crowd.extra,
    deliveriesPerSecond: round(crowd.deliveriesReceived / actingSeconds, 1),
    errors,
    errorSamples: [...prepared.errorSamples, ...crowd.errorSamples].slice(0, 10),
    skipped: crowd.skipped as Record<string, number>,
    serverCpu: round(serverCpu, 2),
    clientCpu: round(clientCpu, 2),
    otherCpu: round(Math.max(0, busy - serverCpu - clientCpu), 2),
    rssMiB: round(rss / 1048576, 1),
    registered: register.count,
    registerP50Ms: register.p50,
    registerP99Ms: register.p99,
    window,
  };
}

/** The people of the organization as the load generators know them. */
function crowdPeople(org: SeededOrg): CrowdPerson[] {
  return org.people.map((p, index) => ({
    index,
    userId: p.userId,
    authorization: p.authorization,
    channels: p.channels,
    partners: p.partners,
    partnerIds: p.partners.map((i) => org.people[i]!.userId),
  }));
}

/** The plan's steps within the organization and the open-file limit (one socket per parked poll on each side). */
function plannedSteps(options: MixedOptions, processes: number, limits: string[]): number[] {
  const cap = Math.min(options.users, openFileLimit() - processes * POOL_PER_PROCESS - 1000);
  const steps = [...new Set(options.steps.map((s) => Math.min(s, cap)))].filter((s) => s > 0).sort((a, b) => a - b);
  if (options.steps.some((s) => s > cap)) {
    limits.push(`steps above ${cap} people were not run: ${cap === options.users ? 'the organization has no more people' : `the open-file limit (${openFileLimit()}) holds one socket per parked poll, plus the load generators' connections`}`);
  }
  return steps;
}

export async function runMixed(options: MixedOptions): Promise<MixedOutcome> {
  const { log } = options;
  const { dataDir, org } = await organization({ users: options.users, messages: options.messages }, log);
  const processes = options.processes ?? Math.max(1, Math.ceil(Math.max(...options.steps) / 5000));
  const limits: string[] = [];
  const steps = plannedSteps(options, processes, limits);
  const startedAt = Date.now();
  const parley = await startParley({ dataDir, sync: true, profileDir: options.profileDir });
  const pid = parley.child.pid!;
  const driver = await CrowdDriver.start(parley.port, crowdPeople(org), processes);
  const reports: MixedStep[] = [];
  let generatorLimited = false;
  try {
    for (const people of steps) {
      const prepared = await driver.prepare(people);
      const expectedByChannel: Record<number, number> = {};
      for (const channel of org.channels) expectedByChannel[channel.id] = channel.members.filter((m) => m < people).length;
      const warmMs = options.warmSeconds * 1000;
      const measureMs = options.measureSeconds * 1000;
      // The server's CPU over the measured window, read on the same timers as the load generators'.
      let cpuAtStart = 0;
      let coresAtStart: CoreTimes | undefined;
      let window: [number, number] = [0, 0];
      const startTimer = setTimeout(() => {
        cpuAtStart = processCpuSeconds(pid);
        coresAtStart = coreTimes();
        window = [monotonicMicros(), 0];
      }, warmMs);
      let serverCpu = 0;
      let busy = 0;
      const endTimer = setTimeout(() => {
        serverCpu = (processCpuSeconds(pid) - cpuAtStart) / options.measureSeconds;
        busy = coresAtStart ? busySeconds(coresAtStart, coreTimes(), measuredCores()) / options.measureSeconds : 0;
        window = [window[0], monotonicMicros()];
      }, warmMs + measureMs);
      const crowd = await driver.run({ active: people, warmMs, measureMs, expectedByChannel, meanGapMs: options.meanGapMs });
      clearTimeout(startTimer);
      clearTimeout(endTimer);
      const report = stepReport(people, crowd, prepared, serverCpu, busy, rssOf(pid), options.warmSeconds + options.measureSeconds, window);
      reports.push(report);
      const p99s = Object.entries(report.actions).map(([kind, f]) => `${kind} ${f.p99}`).join(', ');
      log(`  ${people} people: ${report.healthy ? 'healthy' : `NOT healthy (${report.why.join('; ')})`}; ${report.actionsPerSecond} actions/s, ` +
        `${report.posts} posts, deliveries ${report.deliveriesReceived}/${report.deliveriesExpected}; server CPU ${report.serverCpu}, load generator CPU ${report.clientCpu}, others ${report.otherCpu}, RSS ${report.rssMiB} MiB; p99 ms: ${p99s}`);
      if (report.errorSamples.length) log(`    errors: ${report.errorSamples.slice(0, 3).join(' | ')}`);
      if (report.otherCpu > OTHER_LOAD) limits.push(`other processes used ${Math.round(report.otherCpu * 100)}% of a core on the measured cores at ${people} people: noisy`);
      if (report.clientCpu > CLIENT_SATURATED) {
        generatorLimited = true;
        limits.push(`the load generator used ${Math.round(report.clientCpu * 100)}% of its core at ${people} people: it, not the server, was the limit`);
      }
      if (!report.healthy || generatorLimited) break;
    }
  } finally {
    await driver.close();
    await parley.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  let profile: ProfileSummary | undefined;
  if (options.profileDir) {
    const file = newestProfile(options.profileDir, startedAt);
    const knee = reports.find((r) => !r.healthy) ?? reports[reports.length - 1];
    if (file) profile = summarizeProfile(file, knee?.window);
  }
  const memberships = org.channels.reduce((sum, c) => sum + c.members.length, 0);
  const sizes = org.channels.map((c) => c.members.length);
  const shape = { parameters: org.parameters, seedSeconds: org.seedSeconds, channels: org.channels.length, memberships, smallest: Math.min(...sizes), largest: Math.max(...sizes) };
  return { org: shape, steps: reports, processes, limits, generatorLimited, profile };
}
