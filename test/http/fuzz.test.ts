/**
 * The bounded fuzz run: random requests to every route through real HTTP, checking that each
 * is answered with Zulip's envelope and no 5xx, and that a refused request changes nothing —
 * right after it, and after a restart. The server runs in this process, so a request that
 * aborts it ends this file: that is how "the process never exits" fails. `npm run fuzz` runs
 * the long version.
 */
import { test } from 'tap';
import { loadSchemas } from '../helpers/fuzz-requests.js';
import { runFuzz, summarizeFailures, type Property } from '../helpers/fuzz-run.js';
import { inProcessTarget, routeList } from '../helpers/fuzz-target.js';
import { clientFor, startTestServer } from '../helpers/server.js';
import { describeChanges, restartDifferences } from '../helpers/state-digest.js';

const SEED = Number(process.env.PARLEY_FUZZ_SEED ?? 20_261_124);
// Every route is covered before the timed part (see the second test); the budget only adds random
// requests (~200 a second on a loaded machine, so 4 s gives several times the 200 asserted below).
// `npm run fuzz` is the long run.
const BUDGET_MS = 4_000;
const schemas = loadSchemas();

test('the state watch sees what a request changes', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.destroy());
  const target = await inProcessTarget(server);
  const othello = clientFor(server, 'othello@example.com');
  t.same(await target.changes(), [], 'nothing changes while nobody writes');
  await othello.get('/users/me/subscriptions');
  t.same(await target.changes(), [], 'nor on a read');
  const response = await othello.post('/users/me/subscriptions', { subscriptions: [{ name: 'watched' }] });
  t.equal(response.status, 200);
  const changes = (await target.changes()).map((c) => `${c.where} ${c.kind} ${c.what.replace(/\d{12}/, '#')}`);
  const channelId = server.services.org.channels.byName('watched')!.id;
  t.ok(changes.includes(`memory added channel:${channelId}`), `a new channel in memory: ${changes.join(', ')}`);
  t.ok(changes.includes('memory changed actor:subscriptions:5'), 'othello\'s subscriptions');
  t.ok(changes.includes(`store added ${server.services.org.id}!channel!#`), 'the channel record in the store');
  t.same(await target.changes(), [], 'each change is reported once');
  t.same(await target.watch.verifyMirror(), [], 'the store mirror matches a full scan');
});

test('route coverage does not depend on the machine\'s speed: with no time at all, every route gets a request', async (t) => {
  const server = await startTestServer({ PARLEY_HEARTBEAT_SECONDS: '0.2' });
  t.teardown(() => server.destroy());
  const figures = await runFuzz(await inProcessTarget(server), { seed: SEED, requests: 100_000, budgetMs: 0, schemas });
  const routes = routeList();
  t.same(routes.map((r) => `${r.method} ${r.path}`).filter((key) => !figures.perRoute.has(key)), [], 'no route left out');
  const succeeded = [...figures.perRoute.values()].filter((r) => r.succeeded > 0).length;
  // Seeded, so the same every run (44 of 111 today): a third leaves room for new routes that need ids first.
  t.ok(succeeded >= routes.length / 3, `requests got through to the handlers (${succeeded} of ${routes.length} routes answered 200)`);
  t.ok(figures.requests <= routes.length * 4 + 1, `the time bound holds for the random part (${figures.requests} requests for ${routes.length} routes)`);
  t.same(summarizeFailures(figures.failures.filter((f) => f.property === '5xx')), [], 'no 5xx');
});

test('fuzzed requests to every route: answered, enveloped, no 5xx; a refused request changes nothing', async (t) => {
  const server = await startTestServer({ PARLEY_HEARTBEAT_SECONDS: '0.2' });
  let current = server;
  t.teardown(() => current.destroy());
  const target = await inProcessTarget(server);
  const figures = await runFuzz(target, { seed: SEED, requests: 100_000, budgetMs: BUDGET_MS, schemas });
  const histogram = [...figures.statuses].sort().map(([status, n]) => `${status}:${n}`).join(' ');
  t.comment(`seed ${SEED}: ${figures.requests} requests in ${figures.seconds.toFixed(1)} s; ${histogram}`);

  t.ok(figures.requests >= 200, `enough requests (${figures.requests})`);
  const routes = routeList();
  const unvisited = routes.map((r) => `${r.method} ${r.path}`).filter((key) => !figures.perRoute.has(key));
  t.same(unvisited, [], 'every route was fuzzed (by construction: each gets a request before the timed part)');
  const succeeded = [...figures.perRoute.values()].filter((r) => r.succeeded > 0).length;
  // The covering part alone reaches a third (see above), whatever the time; the random part adds to it.
  t.ok(succeeded >= routes.length / 3, `requests got through to the handlers (${succeeded} of ${routes.length} routes answered 200 at least once)`);

  const properties: [Property, string][] = [
    ['no-answer', 'every request was answered'],
    ['5xx', 'no 5xx'],
    ['envelope', "every answer is Zulip's envelope"],
    ['refused-changed', 'a refused request changes nothing'],
  ];
  for (const [property, name] of properties) {
    const failures = figures.failures.filter((f) => f.property === property);
    t.same(summarizeFailures(failures), [], `${name} (seed ${SEED}, PARLEY_FUZZ_SEED to replay)`);
  }

  const before = await target.watch.durableDigest();
  t.same(describeChanges(await target.watch.verifyMirror()), '', 'the store read-back matches a full scan');
  current = await server.restart();
  t.same(describeChanges(await restartDifferences(before, current.services)), '', 'after a restart the state is identical');
});
