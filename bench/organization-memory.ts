/**
 * What one loaded, idle organization holds, in one process: N small organizations are created,
 * then loaded as the server loads them (OrganizationRuntime.start: services, background work,
 * compiled site), each given one render; heap and RSS after a forced GC are compared per step.
 * `node --expose-gc dist/bench/organization-memory.js [N]` (default 100); prints KiB per organization.
 * HEAP_SNAPSHOTS=<dir> writes heap snapshots around the load-and-unload cycles (to compare in DevTools).
 */
import { writeHeapSnapshot } from 'node:v8';
import { pino } from 'pino';
import { createNewOrganization } from '../src/actions/organization-create.js';
import { buildFor } from '../src/admin-hosts.js';
import { configFromEnv } from '../src/config.js';
import { Role } from '../src/domain/roles.js';
import { Site } from '../src/http/front.js';
import { compileValidators } from '../src/http/validation.js';
import { OrganizationRuntime, type ServerParts } from '../src/organization-runtime.js';
import { Organization } from '../src/store/organization.js';
import { buildServices } from '../src/wiring.js';
import type { Services } from '../src/services.js';
import { SCHEMAS } from '../schemas/registry.js';
import { newDataDir, Seeder } from './lib/seed.js';

const count = Number(process.argv[2] ?? 100);

function measure(): { heap: number; rss: number; external: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  for (let i = 0; i < 3; i++) gc();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, rss: usage.rss, external: usage.external + usage.arrayBuffers };
}

function report(label: string, before: ReturnType<typeof measure>, after: ReturnType<typeof measure>): void {
  const per = (bytes: number) => `${Math.round(bytes / count / 1024)} KiB`;
  console.log(`${label}: heap ${per(after.heap - before.heap)}, external ${per(after.external - before.external)}, RSS ${per(after.rss - before.rss)} per organization`);
}

async function main(): Promise<void> {
  const dataDir = newDataDir('organization-memory');
  const seeder = await Seeder.open(dataDir);
  const root = seeder.services;
  const config = configFromEnv({ PARLEY_DATA_DIR: dataDir, PARLEY_SYNC: '0' });
  const logger = pino({ level: 'silent' });
  const validators = compileValidators(SCHEMAS);
  const parts: ServerParts = { config, logger, db: root.db, counters: root.counters, clock: { now: () => Date.now() }, compileSite: (site) => new Site(site, validators) };
  const ids: number[] = [];
  for (let i = 1; i <= count; i++) {
    const spec = { subdomain: `m${i}`, name: `Organization ${i}`, rootUrl: config.externalUrl, nowMs: Date.now(), users: [{ email: 'owner@bench.example.com', fullName: 'Owner', role: Role.OWNER, password: 'bench-password' }] };
    const { services } = await createNewOrganization(root.counters, spec, buildFor(parts));
    ids.push(services.org.id);
    await services.queues.close();
    services.actors.stopAll();
    await services.search.close();
  }
  // One runtime loaded and dropped first, so that what every organization shares (modules, compiled code) is not counted.
  const warm = await OrganizationRuntime.start(parts, (await Organization.load(root.db, ids[0]!, config.externalUrl))!);
  warm.services.render('warming **up** https://example.com');
  await warm.stopWork();
  await warm.close();

  // Services alone (directories, actors, stores, the search index open), then closed again.
  const bare = measure();
  const built: Services[] = [];
  for (const id of ids) built.push(await buildServices({ ...parts, org: (await Organization.load(root.db, id, config.externalUrl))! }));
  const withSearch = measure();
  report('services alone (wiring.ts)', bare, withSearch);
  for (const services of built) await services.search.close();
  const withoutSearch = measure();
  report('  of which the open search index', withoutSearch, withSearch);
  const sites = Array.from({ length: count }, () => new Site(warm.site.options, validators));
  report('a compiled site (its routers; routes bound once)', withoutSearch, measure());
  sites.length = 0;
  for (const services of built) {
    await services.queues.close();
    services.actors.stopAll();
  }
  built.length = 0;

  const start = measure();
  const runtimes: OrganizationRuntime[] = [];
  for (const id of ids) runtimes.push(await OrganizationRuntime.start(parts, (await Organization.load(root.db, id, config.externalUrl))!));
  const loaded = measure();
  report('loaded (services, background work, site)', start, loaded);
  for (const runtime of runtimes) runtime.services.render('a **first** message with a link https://example.com and :smile:');
  const rendered = measure();
  report('  + one render each', loaded, rendered);
  for (const runtime of runtimes) await runtime.services.search.close();
  const noSearch = measure();
  report('  - search index closed', noSearch, rendered);
  for (const runtime of runtimes) {
    await runtime.stopWork();
    await runtime.close();
  }
  runtimes.length = 0;
  const unloaded = measure();
  report('left after unloading them all', start, unloaded);
  // The same organization loaded and unloaded N times: what stays must not grow with the cycles.
  if (process.env.HEAP_SNAPSHOTS) writeHeapSnapshot(`${process.env.HEAP_SNAPSHOTS}/before.heapsnapshot`);
  for (let i = 0; i < count; i++) {
    const runtime = await OrganizationRuntime.start(parts, (await Organization.load(root.db, ids[0]!, config.externalUrl))!);
    await runtime.stopWork();
    await runtime.close();
  }
  report('left after loading and unloading one organization N times', unloaded, measure());
  if (process.env.HEAP_SNAPSHOTS) writeHeapSnapshot(`${process.env.HEAP_SNAPSHOTS}/after.heapsnapshot`);
  await seeder.close();
}

await main();
