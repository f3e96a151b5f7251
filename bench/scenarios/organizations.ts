/**
 * Many organizations in one server: start-up time to the ready line and RSS with 1 organization
 * and with 1,000 organizations of 1,000 messages each (organizations load at their first
 * request, so start-up must not grow with them: the issue asks ±20 %), and the RSS once each of
 * the 1,000 has had one request and sits idle. `--quick` uses 50 organizations of 100 messages;
 * BENCH_ORGANIZATIONS and BENCH_ORGANIZATION_MESSAGES set the counts.
 */
import { get } from 'node:http';
import { pino } from 'pino';
import { writeMessage } from '../../src/actions/message-send.js';
import { createNewOrganization } from '../../src/actions/organization-create.js';
import { configFromEnv } from '../../src/config.js';
import { Role } from '../../src/domain/roles.js';
import { Transaction } from '../../src/store/transaction.js';
import { buildFor, closeServices } from '../../src/admin-hosts.js';
import type { Services } from '../../src/services.js';
import { collectGarbage, rssOf, startParley } from '../lib/processes.js';
import { round, type Scenario } from '../lib/scenario.js';
import { basicAuth, newDataDir, Seeder, type Credentials } from '../lib/seed.js';

const RUNS = 3;
const subdomainOf = (i: number) => `org-${String(i).padStart(4, '0')}`;

/** Writes `count` messages to the organization's `general` channel, from its owner. */
async function fill(services: Services, count: number): Promise<void> {
  const owner = [...services.org.users.all()].find((user) => user.role === Role.OWNER && !user.isBot)!;
  const channel = services.org.channels.byName('general')!;
  const content = 'A benchmark message about nothing in particular.';
  const rendered = services.render(content);
  for (let start = 0; start < count; start += 2000) {
    const tx = new Transaction();
    for (let i = start; i < Math.min(count, start + 2000); i++) {
      writeMessage(services, tx, { sender: owner, client: 'bench', readBySender: true, content, rendered, destination: { type: 'stream', channel, topic: `topic ${i % 20}` } });
    }
    await services.commit(tx);
  }
  // Indexed for search now, as a server would have done long ago: a first request then finds the index caught up.
  await services.search.start(await services.messages.newestId());
  await services.search.caughtUpPromise();
}

/** A data directory with the root (demo) organization and `organizations` more, each with `messages` messages; the owners' credentials. */
async function seed(label: string, organizations: number, messages: number, log: (line: string) => void): Promise<{ dataDir: string; owners: Credentials[] }> {
  const dataDir = newDataDir(label);
  const seeder = await Seeder.open(dataDir);
  const root = seeder.services;
  await fill(root, messages);
  const config = configFromEnv({ PARLEY_DATA_DIR: dataDir, PARLEY_SYNC: '0' });
  const parts = { config, logger: pino({ level: 'silent' }), db: root.db, counters: root.counters, clock: { now: () => Date.now() } };
  const owners: Credentials[] = [];
  for (let i = 1; i <= organizations; i++) {
    const spec = {
      subdomain: subdomainOf(i),
      name: `Organization ${i}`,
      rootUrl: config.externalUrl,
      nowMs: Date.now(),
      users: [{ email: 'owner@bench.example.com', fullName: 'Owner', role: Role.OWNER, password: 'bench-password' }],
    };
    const { services, users } = await createNewOrganization(root.counters, spec, buildFor(parts));
    await fill(services, messages);
    await closeServices(services);
    owners.push({ id: users[0]!.user.id, email: users[0]!.user.deliveryEmail, apiKey: users[0]!.user.apiKey });
    if (i % 100 === 0) log(`    ${i} organizations`);
  }
  await seeder.close();
  return { dataDir, owners };
}

async function startOnce(dataDir: string): Promise<{ ms: number; rss: number }> {
  const parley = await startParley({ dataDir, sync: true });
  try {
    await collectGarbage(parley.child);
    return { ms: parley.startupMs, rss: rssOf(parley.child.pid!) };
  } finally {
    await parley.stop();
  }
}

/** Starts on the two data directories in turn (A B A B A B), so that a warming machine favours neither; the medians. */
async function startups(one: string, many: string): Promise<[{ ms: number; rss: number }, { ms: number; rss: number }]> {
  const runs: [{ ms: number; rss: number }[], { ms: number; rss: number }[]] = [[], []];
  for (let i = 0; i < RUNS; i++) {
    runs[0].push(await startOnce(one));
    runs[1].push(await startOnce(many));
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const summary = (measured: { ms: number; rss: number }[]) => ({ ms: median(measured.map((m) => m.ms)), rss: median(measured.map((m) => m.rss)) });
  return [summary(runs[0]), summary(runs[1])];
}

/** A GET's status, with the headers given (node:http: fetch would replace the Host header with the URL's). */
function getStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * Starts the server, sends one request to each organization on its host, then measures the idle
 * process; with `unloadAfterSeconds`, idle organizations are unloaded after that long, and the
 * measure is taken once they have had time to be (the setting plus a few seconds).
 */
async function touched(dataDir: string, owners: Credentials[], unloadAfterSeconds?: number): Promise<{ rss: number; failed: number }> {
  const env = unloadAfterSeconds === undefined ? undefined : { PARLEY_ORGANIZATION_IDLE_SECONDS: String(unloadAfterSeconds) };
  const parley = await startParley({ dataDir, sync: true, env });
  let failed = 0;
  try {
    for (const [i, owner] of owners.entries()) {
      const status = await getStatus(`${parley.url}/api/v1/users/me`, { host: `${subdomainOf(i + 1)}.localhost:${parley.port}`, authorization: basicAuth(owner) });
      if (status !== 200) failed++;
    }
    if (unloadAfterSeconds !== undefined) await new Promise((resolve) => setTimeout(resolve, (unloadAfterSeconds + 4) * 1000));
    await collectGarbage(parley.child);
    return { rss: rssOf(parley.child.pid!), failed };
  } finally {
    await parley.stop();
  }
}

export const organizations: Scenario = {
  name: 'organizations',
  description: 'start-up and RSS with 1 and with 1,000 organizations of 1,000 messages each; RSS of 1,000 idle organizations after one request each',
  async run(context) {
    const count = Number(process.env.BENCH_ORGANIZATIONS ?? (context.settings.quick ? 50 : 1000));
    const messages = Number(process.env.BENCH_ORGANIZATION_MESSAGES ?? (context.settings.quick ? 100 : 1000));
    context.log(`  seeding 1 organization and ${count} of ${messages} messages each`);
    const one = await seed('organizations-one', 0, messages, context.log);
    const many = await seed('organizations-many', count, messages, context.log);
    const [single, all] = await startups(one.dataDir, many.dataDir);
    const idle = await touched(many.dataDir, many.owners);
    const unloaded = await touched(many.dataDir, many.owners, 1);
    const n = count.toLocaleString('en');
    const mib = (bytes: number) => round(bytes / 1048576, 1);
    return {
      scenario: 'organizations',
      description: this.description,
      figures: [
        { name: 'ready, 1 organization', value: round(single.ms, 0), unit: 'ms' },
        { name: `ready, ${n} organizations`, value: round(all.ms, 0), unit: 'ms', baseline: round(single.ms, 0), ratio: round(all.ms / single.ms, 2) },
        { name: 'RSS when ready, 1 organization', value: mib(single.rss), unit: 'MiB' },
        { name: `RSS when ready, ${n} organizations`, value: mib(all.rss), unit: 'MiB', baseline: mib(single.rss), ratio: round(all.rss / single.rss, 2) },
        { name: `RSS, ${n} organizations idle after one request each`, value: mib(idle.rss), unit: 'MiB', baseline: mib(all.rss), ratio: round(idle.rss / all.rss, 2) },
        { name: 'RSS per idle organization', value: round((idle.rss - all.rss) / count / 1024, 0), unit: 'KiB' },
        { name: `RSS, ${n} organizations unloaded after idling 1 s`, value: mib(unloaded.rss), unit: 'MiB', baseline: mib(all.rss), ratio: round(unloaded.rss / all.rss, 2) },
      ],
      notes: [
        `median of ${RUNS} starts of each, alternated, RSS after a full garbage collection; ${messages} messages in each organization (and in the root one)`,
        `the start-up ratio (${n} / 1) must stay within 0.8–1.2; ${idle.failed} of the ${n} requests failed (${unloaded.failed} in the run that unloads them)`,
      ],
    };
  },
};
