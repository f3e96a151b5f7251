/**
 * `npm run bench [-- <scenario>…] [--quick] [--profile]`: runs the scenarios against real Parley
 * processes on fresh data directories, with the server and the load generator pinned to different
 * cores, alternating with the bare uWS baseline; prints a table, writes
 * bench/results/<run>-<scenario>.json and regenerates bench/RESULTS.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Baseline } from './lib/baseline.js';
import { madeDataDirs } from './lib/seed.js';
import { loadGenerator, WRK_MISSING } from './lib/load.js';
import { pinning } from './lib/pinning.js';
import { FULL, QUICK, type Scenario, type ScenarioResult } from './lib/scenario.js';
import { cell, writeSummary, type Machine } from './lib/summary.js';
import { authRead } from './scenarios/auth-read.js';
import { cluster } from './scenarios/cluster.js';
import { dm } from './scenarios/dm.js';
import { fanout } from './scenarios/fanout.js';
import { flags } from './scenarios/flags.js';
import { narrow } from './scenarios/narrow.js';
import { organizations } from './scenarios/organizations.js';
import { mixed } from './scenarios/mixed.js';
import { register } from './scenarios/register.js';
import { scheduled } from './scenarios/scheduled.js';
import { search } from './scenarios/search.js';
import { send } from './scenarios/send.js';
import { sendWide } from './scenarios/send-wide.js';
import { startup } from './scenarios/startup.js';
import { users } from './scenarios/users.js';
import { web } from './scenarios/web.js';

const SCENARIOS: Scenario[] = [authRead, users, send, sendWide, dm, narrow, flags, fanout, startup, scheduled, search, web, register, mixed, organizations, cluster];
const BENCH_DIR = fileURLToPath(new URL('../../bench/', import.meta.url));

/** The commit measured, with `+changes` when the code in the work tree differs from it. */
function commit(): string | undefined {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: join(BENCH_DIR, '..'), encoding: 'utf8' }).trim();
    // The bench's own output (results, RESULTS.md) is not a change to what is measured.
    const changed = git('status', '--porcelain', '--untracked-files=no', '--', '.', ':!bench/results', ':!bench/RESULTS.md');
    return git('rev-parse', '--short', 'HEAD') + (changed ? '+changes' : '');
  } catch {
    return undefined;
  }
}

/**
 * Where a run's result goes: two runs of a scenario in the same minute get `b`, `c`… after the
 * minute rather than one overwriting the other (and names still sort in the order they ran).
 */
function resultFile(resultsDir: string, runId: string, scenario: string): string {
  let path = join(resultsDir, `${runId}-${scenario}.json`);
  for (let n = 0; existsSync(path); n++) path = join(resultsDir, `${runId}${String.fromCharCode(98 + n)}-${scenario}.json`);
  return path;
}

function machine(runId: string, quick: boolean): Machine {
  return {
    cores: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    date: new Date().toISOString(),
    loadGenerator: loadGenerator().description,
    pinning: pinning().description,
    method: 2,
    runId,
    commit: commit(),
    quick,
  };
}

function formatTable(results: ScenarioResult[]): string {
  const rows = [['scenario', 'figure', 'Parley', 'bare uWS', 'ratio (rounds)', 'CPU share of one core', 'warnings']];
  for (const result of results) {
    for (const figure of result.figures) {
      const c = cell(figure);
      rows.push([result.scenario, figure.name, c.value, c.baseline, c.ratio, c.cpu, c.warnings]);
    }
  }
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((text, column) => text.padEnd(widths[column])).join('  ')).join('\n');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const profile = args.includes('--profile');
  const quick = args.includes('--quick');
  const names = args.filter((a) => !a.startsWith('--'));
  const unknown = names.filter((name) => !SCENARIOS.some((s) => s.name === name));
  if (unknown.length) {
    process.stderr.write(`unknown scenario(s): ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.name).join(', ')}\n`);
    process.exit(2);
  }
  // A run of every scenario skips one this machine cannot run (named, it fails and says why).
  const skipped = names.length ? [] : SCENARIOS.filter((s) => s.unavailable?.());
  for (const s of skipped) process.stdout.write(`${s.name}: skipped: ${s.unavailable!()}\n`);
  const chosen = names.length ? SCENARIOS.filter((s) => names.includes(s.name)) : SCENARIOS.filter((s) => !skipped.includes(s));
  const settings = quick ? QUICK : FULL;
  // A quick run checks the machinery; its figures stay out of bench/results.
  const outDir = quick ? join(tmpdir(), 'parley-quick-results') : BENCH_DIR;
  const resultsDir = join(outDir, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const runId = new Date().toISOString().slice(0, 16).replace(':', '-');
  const info = { ...machine(runId, quick), full: names.length === 0 };
  const wrkMissing = loadGenerator().name !== 'wrk' && process.env.BENCH_LOAD_GENERATOR !== 'autocannon';
  if (wrkMissing) process.stdout.write(WRK_MISSING);
  process.stdout.write(`load generator: ${info.loadGenerator}; ${info.pinning}; ${settings.rounds} alternated rounds of ${settings.durationSeconds} s${quick ? ' (quick)' : ''}\n`);
  const log = (line: string) => process.stdout.write(line + '\n');
  const baseline = new Baseline(settings, log);
  const results: ScenarioResult[] = [];
  const started = performance.now();
  try {
    for (const scenario of chosen) {
      process.stdout.write(`${scenario.name}: ${scenario.description}\n`);
      const scenarioStarted = performance.now();
      const result = await scenario.run({
        settings,
        profileDir: profile ? resultsDir : undefined,
        log,
        throughput: (spec) => baseline.throughput(spec),
      });
      results.push(result);
      writeFileSync(resultFile(resultsDir, runId, scenario.name), JSON.stringify({ machine: info, result }, null, 2) + '\n');
      log(`  ${Math.round((performance.now() - scenarioStarted) / 1000)} s`);
    }
  } finally {
    await baseline.stop();
    // Only this run's directories: another bench may be running beside it.
    for (const dir of madeDataDirs) rmSync(dir, { recursive: true, force: true });
  }
  writeSummary(resultsDir, join(outDir, 'RESULTS.md'), SCENARIOS.map((s) => s.name), quick);
  process.stdout.write('\n' + formatTable(results) + '\n');
  process.stdout.write(`\n${results.length} scenario(s) in ${Math.round((performance.now() - started) / 1000)} s; results in ${resultsDir}, summary in ${join(outDir, 'RESULTS.md')}\n`);
  if (wrkMissing) process.stdout.write(WRK_MISSING);
  if (profile) process.stdout.write(`CPU profiles (.cpuprofile) written to ${resultsDir}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
