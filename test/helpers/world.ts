/**
 * A fresh demo organization for one subtest: its own server, data directory and (optionally) fake
 * clock, so no subtest sees what another one wrote and subtests pass alone and in any order.
 */
import { messageFlags } from '../../src/queries/message-state.js';
import { cpSync, rmSync } from 'node:fs';
import { t as root, type Test } from 'tap';
import type { Organization } from '../../src/store/organization.js';
import { createAccount } from '../../src/actions/accounts.js';
import type { RealmSettings } from '../../src/domain/realm.js';
import { Role } from '../../src/domain/roles.js';
import { Transaction } from '../../src/store/transaction.js';
import { Api } from './client.js';
import { demoClients, startTestServer, tempDataDir, type TestServer } from './server.js';

export interface WorldOptions {
  /** Environment for the server (as `startTestServer` takes it). */
  env?: Record<string, string>;
  /** Start of a fake clock, in ms since the epoch; without it the server uses the real clock. */
  clockStart?: number;
}

/**
 * First-started data directories, one per set of options. The first start of the demo organization
 * (password hashing, seeding) costs most of a server start; a copy of its directory opens in a
 * fraction of that, and holds exactly what a first start on the same clock would have written.
 */
const templates = new Map<string, Promise<string>>();

function template(options: WorldOptions): Promise<string> {
  const key = JSON.stringify([options.env ?? {}, options.clockStart ?? null]);
  let dir = templates.get(key);
  if (!dir) {
    dir = (async () => {
      const clock = options.clockStart === undefined ? undefined : { now: () => options.clockStart! };
      const seeded = await startTestServer(options.env, { clock });
      await seeded.stop();
      // Removed when the file's tests are done (tap's root teardown), not before: later subtests copy it.
      root.teardown(() => rmSync(seeded.dataDir, { recursive: true, force: true }));
      return seeded.dataDir;
    })();
    templates.set(key, dir);
  }
  return dir;
}

export async function world(t: Test, options: WorldOptions = {}) {
  let now = options.clockStart ?? Date.now();
  const fake = options.clockStart !== undefined;
  const clock = fake ? { now: () => now } : undefined;
  const dataDir = tempDataDir();
  cpSync(await template(options), dataDir, { recursive: true });
  const server: TestServer = await startTestServer(options.env, { dataDir, clock });
  t.teardown(() => server.destroy());
  const org: Organization = server.services.org;
  return {
    server,
    org,
    anonymous: new Api(server.url),
    ...demoClients(server),
    /** The fake clock's time in ms (the real time without a fake clock). */
    now: () => (fake ? now : Date.now()),
    /** The fake clock's time in whole seconds. */
    seconds: () => Math.floor((fake ? now : Date.now()) / 1000),
    /** Moves the fake clock forward. */
    advance(seconds: number) {
      if (!fake) throw new Error('advance needs a fake clock (clockStart)');
      now += seconds * 1000;
    },
    /** A user's stored flags bitfield for a message; undefined when the user has no record of it. */
    flagsInStore: (userId: number, messageId: number) => {
      const record = server.services.messages.get(messageId);
      return record ? messageFlags(server.services, userId, record) : undefined;
    },
    /** Creates `count` members named `${prefix}${i}@example.com`. */
    async addUsers(prefix: string, count: number) {
      const tx = new Transaction();
      const created = [];
      for (let i = 0; i < count; i++) {
        created.push(createAccount(org, server.services.counters, tx, {
          email: `${prefix}${i}@example.com`, fullName: `${prefix} ${i}`, role: Role.MEMBER, passwordHash: 'x', nowMs: fake ? now : Date.now(),
        }));
      }
      await server.services.commit(tx);
      return created;
    },
  };
}

export type World = Awaited<ReturnType<typeof world>>;

/** Changes organization settings directly in the store, as an administrator's settings page would. */
export async function setRealm(server: TestServer, settings: Partial<RealmSettings>): Promise<void> {
  const { org } = server.services;
  const tx = new Transaction();
  org.saveRealm({ ...org.realm, settings: { ...org.realm.settings, ...settings } }, tx);
  await server.services.commit(tx);
}
