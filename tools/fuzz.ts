/**
 * The long fuzz run: `npm run fuzz -- --requests 100000 [--seed N] [--exclude-methods HEAD,...]`
 * (the server runs in this process: while a HEAD request aborts it, exclude HEAD to get figures).
 * Starts a server in this process on a temporary database, sends fuzzed requests one after
 * another, checks every property after each, restarts every `--restart-every` requests to check
 * that memory and store agree, and prints requests/s, the status histogram and the failures.
 */
import { parseArgs } from 'node:util';
import { loadSchemas } from '../test/helpers/fuzz-requests.js';
import { runFuzz, summarizeFailures, type FuzzFigures } from '../test/helpers/fuzz-run.js';
import { inProcessTarget } from '../test/helpers/fuzz-target.js';
import { startTestServer } from '../test/helpers/server.js';
import { describeChanges, restartDifferences } from '../test/helpers/state-digest.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '10000' },
    seed: { type: 'string' },
    'exclude-methods': { type: 'string', default: '' },
    'restart-every': { type: 'string', default: '20000' },
    /** Stop early after this many seconds (the figures then cover the requests sent). */
    seconds: { type: 'string' },
  },
});
const total = Number(values.requests);
const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
const excludeMethods = values['exclude-methods'].split(',').map((m) => m.trim()).filter(Boolean);
const restartEvery = Number(values['restart-every']);
const deadline = values.seconds !== undefined ? Date.now() + Number(values.seconds) * 1000 : Infinity;
const schemas = loadSchemas();

console.log(`fuzz: ${total} requests, seed ${seed}${excludeMethods.length ? `, methods excluded: ${excludeMethods.join(', ')}` : ''}`);
let server = await startTestServer({ PARLEY_HEARTBEAT_SECONDS: '0.2' });
const all: FuzzFigures = { requests: 0, seconds: 0, statuses: new Map(), perRoute: new Map(), failures: [] };
const restartProblems: string[] = [];
const started = Date.now();

for (let done = 0; done < total && Date.now() < deadline; ) {
  const chunk = Math.min(restartEvery, total - done);
  const target = await inProcessTarget(server);
  const figures = await runFuzz(target, {
    seed: seed + done,
    requests: chunk,
    budgetMs: deadline === Infinity ? undefined : deadline - Date.now(),
    schemas,
    excludeMethods,
    progressEvery: 5000,
    onProgress: (f) => console.log(`  ${done + f.requests} requests, ${((done + f.requests) / ((Date.now() - started) / 1000)).toFixed(0)}/s, ${all.failures.length + f.failures.length} failures`),
  });
  for (const [status, n] of figures.statuses) all.statuses.set(status, (all.statuses.get(status) ?? 0) + n);
  for (const [route, r] of figures.perRoute) {
    const sum = all.perRoute.get(route) ?? { sent: 0, succeeded: 0 };
    all.perRoute.set(route, { sent: sum.sent + r.sent, succeeded: sum.succeeded + r.succeeded });
  }
  all.failures.push(...figures.failures);
  all.requests += figures.requests;
  done += figures.requests;

  const before = await target.watch.durableDigest();
  const mirror = await target.watch.verifyMirror();
  if (mirror.length) restartProblems.push(`after ${done} requests the store read-back differs from a full scan: ${describeChanges(mirror)}`);
  server = await server.restart();
  const differences = await restartDifferences(before, server.services);
  if (differences.length) restartProblems.push(`after ${done} requests a restart changed: ${describeChanges(differences)}`);
}
all.seconds = (Date.now() - started) / 1000;
await server.destroy();

console.log(`\n${all.requests} requests in ${all.seconds.toFixed(1)} s: ${(all.requests / all.seconds).toFixed(0)} requests/s (sequential, state read back after each)`);
console.log('status histogram: ' + [...all.statuses].sort().map(([s, n]) => `${s}: ${n}`).join(', '));
console.log('routes: ' + [...all.perRoute].sort().map(([r, { sent, succeeded }]) => `${r} ${succeeded}/${sent}`).join('; '));
const byProperty = new Map<string, number>();
for (const f of all.failures) byProperty.set(f.property, (byProperty.get(f.property) ?? 0) + 1);
console.log(`failures: ${all.failures.length}` + (byProperty.size ? ` (${[...byProperty].map(([p, n]) => `${p}: ${n}`).join(', ')})` : ''));
for (const line of summarizeFailures(all.failures)) console.log('  ' + line);
for (const line of restartProblems) console.log('  restart: ' + line);
process.exitCode = all.failures.length + restartProblems.length > 0 ? 1 : 0;
