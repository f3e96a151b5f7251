/**
 * Seeding a fresh data directory through the store (much faster than HTTP), with the
 * project's own write functions, before the measured server is started on it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createAccount } from '../../src/actions/accounts.js';
import { createChannel, subscribeUsers } from '../../src/actions/subscriptions.js';
import { writeMessage } from '../../src/actions/message-send.js';
import { idsAboveMarks, moveMarks, setRead } from '../../src/actions/read-state.js';
import { loadOrCreateOrganization } from '../../src/bootstrap.js';
import { configFromEnv } from '../../src/config.js';
import type { ChannelRecord } from '../../src/domain/channel-record.js';
import { hashPassword } from '../../src/domain/credentials.js';
import { Flag } from '../../src/domain/messages.js';
import { Role } from '../../src/domain/roles.js';
import type { UserRecord } from '../../src/domain/users.js';
import type { Services } from '../../src/services.js';
import { Counters } from '../../src/store/counters.js';
import { Database } from '../../src/store/database.js';
import { Transaction } from '../../src/store/transaction.js';
import { buildFor } from '../../src/admin-hosts.js';

export interface Credentials {
  id: number;
  email: string;
  apiKey: string;
}

export const basicAuth = (user: Credentials) => 'Basic ' + Buffer.from(`${user.email}:${user.apiKey}`).toString('base64');

/** The data directories this run made: the runner removes these at the end, and no other run's. */
export const madeDataDirs = new Set<string>();

export function newDataDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `parley-bench-${label}-`));
  madeDataDirs.add(dir);
  return dir;
}

export class Seeder {
  private passwordHash: string | undefined;

  private constructor(
    readonly services: Services,
    private readonly db: Database,
  ) {}

  static async open(dataDir: string): Promise<Seeder> {
    const config = configFromEnv({ PARLEY_DATA_DIR: dataDir, PARLEY_DEMO: '1', PARLEY_SYNC: '0' });
    const db = await Database.open(dataDir, { sync: false });
    const counters = new Counters(db);
    const { services } = await loadOrCreateOrganization(db, counters, config, Date.now(), () => {},
      buildFor({ config, logger: pino({ level: 'silent' }), db, counters, clock: { now: () => Date.now() } }));
    return new Seeder(services, db);
  }

  credentials(user: UserRecord): Credentials {
    return { id: user.id, email: user.deliveryEmail, apiKey: user.apiKey };
  }

  demoUser(email: string): Credentials {
    return this.credentials(this.services.org.users.byEmail(email)!);
  }

  async users(count: number, prefix: string): Promise<UserRecord[]> {
    this.passwordHash ??= await hashPassword('bench-password');
    const created: UserRecord[] = [];
    for (let start = 0; start < count; start += 500) {
      const tx = new Transaction();
      for (let i = start; i < Math.min(count, start + 500); i++) {
        created.push(createAccount(this.services.org, this.services.counters, tx, {
          email: `${prefix}${i}@bench.example.com`,
          fullName: `Bench ${prefix} ${i}`,
          role: Role.MEMBER,
          passwordHash: this.passwordHash,
          nowMs: Date.now(),
        }));
      }
      await this.services.commit(tx);
    }
    return created;
  }

  async channel(name: string, subscribers: readonly UserRecord[]): Promise<ChannelRecord> {
    const tx = new Transaction();
    const channel = createChannel(this.services, tx, { name, description: `Benchmark channel ${name}`, inviteOnly: false, creatorId: null });
    for (let i = 0; i < subscribers.length; i += 1000) subscribeUsers(this.services, tx, subscribers.slice(i, i + 1000), [channel]);
    await this.services.commit(tx);
    return channel;
  }

  /** Writes `count` channel messages; `topicOf(i)` names each one's topic. Unread for every subscriber but the sender. */
  async channelMessages(channel: ChannelRecord, sender: UserRecord, count: number, topicOf: (i: number) => string, onProgress?: (done: number) => void): Promise<number[]> {
    const rendered = this.services.render('A benchmark message about nothing in particular.');
    const ids: number[] = [];
    for (let start = 0; start < count; start += 2000) {
      const tx = new Transaction();
      for (let i = start; i < Math.min(count, start + 2000); i++) {
        const written = writeMessage(this.services, tx, {
          sender,
          client: 'bench',
          readBySender: true,
          content: 'A benchmark message about nothing in particular.',
          rendered,
          destination: { type: 'stream', channel: this.services.org.channels.get(channel.id)!, topic: topicOf(i) },
        });
        ids.push(written.record.id);
      }
      await this.services.commit(tx);
      onProgress?.(Math.min(count, start + 2000));
    }
    return ids;
  }

  /** Marks messages read for a user directly in the store, where each one's read state lives. */
  async markRead(user: UserRecord, ids: readonly number[]): Promise<void> {
    const { messages } = this.services;
    for (let start = 0; start < ids.length; start += 5000) {
      const tx = new Transaction();
      for (const id of ids.slice(start, start + 5000)) {
        const record = messages.get(id);
        if (record) setRead(this.services, tx, user.id, record, true);
      }
      await this.services.commit(tx);
    }
    // Reading in order leaves no exceptions: the marks move over them.
    const channels = new Set(ids.map((id) => messages.get(id)?.channelId).filter((id): id is number => id !== undefined));
    const ahead = await idsAboveMarks(this.services, user.id, channels);
    const tx = new Transaction();
    moveMarks(this.services, tx, user.id, ahead);
    await this.services.commit(tx);
  }

  async close(): Promise<void> {
    this.services.actors.stopAll();
    await this.services.search.close();
    await this.db.close();
  }
}
