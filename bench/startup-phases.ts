/**
 * Where a start-up's time goes: `node dist/bench/startup-phases.js <data directory>` starts the
 * directory (left as it is: work on a copy) phase by phase as server.ts does, up to the HTTP
 * front, and prints the milliseconds of each phase and the LevelDB files it found.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { Organization } from '../src/store/organization.js';
import { configFromEnv } from '../src/config.js';
import { restoreQueues } from '../src/events/housekeeping.js';
import { filesInUse } from '../src/queries/stored-files.js';
import { Counters } from '../src/store/counters.js';
import { Database } from '../src/store/database.js';
import { buildServices } from '../src/wiring.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: startup-phases <data directory>');
const files = readdirSync(dataDir).filter((name) => /\.(log|ldb)$/.test(name));
console.log(`LevelDB files: ${files.map((name) => `${name} ${(statSync(join(dataDir, name)).size / 1048576).toFixed(2)} MiB`).join(', ')}`);
const config = configFromEnv({ PARLEY_DATA_DIR: dataDir, PARLEY_PORT: '9', PARLEY_SYNC: '0', PARLEY_SWEEP_SECONDS: '3600' });
const logger = pino({ level: 'silent' });
const clock = { now: () => Date.now() };
const phases: [string, number][] = [];
let last = performance.now();
const mark = (name: string) => {
  const now = performance.now();
  phases.push([name, now - last]);
  last = now;
};

const db = await Database.open(dataDir, { sync: false });
mark('Database.open');
const counters = new Counters(db);
const rootId = (await Organization.idBySubdomain(db, '')) ?? (await Organization.firstId(db));
const org = rootId === undefined ? undefined : await Organization.load(db, rootId, config.externalUrl);
if (!org) throw new Error(`${dataDir} holds no organization`);
mark('Organization.load');
const services = await buildServices({ config, logger, db, counters, org, clock });
mark('buildServices');
await services.files.open();
await services.files.sweep(filesInUse(services));
mark('uploads sweep');
const scanned = db.reads.scanned;
await restoreQueues({ queues: services.queues, write: services.write, logger, startedAt: services.startedAt, heartbeatSeconds: 45, sweepSeconds: 3600 });
mark(`restoreQueues (${db.reads.scanned - scanned} entries read, ${services.queues.size} queues)`);
await services.search.start(await services.messages.newestId());
mark('search start');
const total = phases.reduce((sum, [, ms]) => sum + ms, 0);
for (const [name, ms] of phases) console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${name}`);
console.log(`  ${total.toFixed(1).padStart(8)} ms  in all (before the HTTP front)`);
services.actors.stopAll();
await services.search.close();
await db.close();
