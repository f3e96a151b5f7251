/**
 * An organization of realistic shape for the `mixed` scenario: channels of 10 to 5,000 members
 * (many small, few large), direct messages between pairs, and a store of stored messages of
 * varied text, most of them read. Seeded through the store once and kept in a temporary
 * directory keyed by its parameters, so later runs only copy it.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeMessage } from '../../src/actions/message-send.js';
import { rebuildSearchIndex } from '../../src/ops/search-rebuild.js';
import type { UserRecord } from '../../src/domain/users.js';
import { Transaction } from '../../src/store/transaction.js';
import { SEARCH_LAYOUT_VERSION } from '../../src/store/search-index.js';
import { random, sentence } from './text.js';
import { basicAuth, newDataDir, Seeder } from './seed.js';

export interface OrgParameters {
  users: number;
  messages: number;
}

/** One simulated person: a user of the organization, in seeded order. */
export interface PersonSeed {
  userId: number;
  authorization: string;
  /** Channels the person is subscribed to (ids). */
  channels: number[];
  /** Indices (in `people`) of the people the person writes direct messages to. */
  partners: number[];
}

export interface ChannelSeed {
  id: number;
  name: string;
  /** Indices (in `people`) of the members. */
  members: number[];
}

export interface SeededOrg {
  parameters: OrgParameters;
  people: PersonSeed[];
  channels: ChannelSeed[];
  /** Seconds the seeding took (0 when the cache was used). */
  seedSeconds: number;
  /** The search index is complete (absent in caches seeded before the index was rebuilt after seeding). */
  /** The search index layout the cached store was indexed with (a server would rebuild any other). */
  indexed?: number | boolean;
}

/** Channel sizes of an organization of 20,000 (size, how many): every size class holds a similar share of the memberships. */
const SIZES_AT_20K: Array<[number, number]> = [[5000, 4], [2000, 10], [1000, 20], [500, 40], [200, 100], [100, 200], [50, 300], [20, 500], [10, 1000]];
const DM_SHARE = 0.1;
const PARTNERS = 3;
const TEXTS = 5000;
/** Version of the shape: bump when seeding changes, so a stale cache is not reused. */
const SHAPE_VERSION = 2;

/** The channel sizes for `users` people: the classes of 20,000 scaled by count, each at most the whole organization. */
export function channelSizes(users: number): number[] {
  const sizes: number[] = [];
  for (const [size, count] of SIZES_AT_20K) {
    const scaled = Math.max(1, Math.round((count * users) / 20_000));
    for (let i = 0; i < scaled; i++) sizes.push(Math.min(size, users));
  }
  return sizes;
}

/** `count` distinct indices below `n`, drawn with `next`. */
function sample(n: number, count: number, next: () => number): number[] {
  if (count * 2 >= n) {
    const all = Array.from({ length: n }, (_, i) => i);
    for (let i = 0; i < count; i++) {
      const j = i + Math.floor(next() * (n - i));
      [all[i], all[j]] = [all[j]!, all[i]!];
    }
    return all.slice(0, count).sort((a, b) => a - b);
  }
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(Math.floor(next() * n));
  return [...chosen].sort((a, b) => a - b);
}

function cacheDir(parameters: OrgParameters): string {
  return join(tmpdir(), `parley-mixed-org-v${SHAPE_VERSION}-u${parameters.users}-m${parameters.messages}`);
}

/**
 * A fresh data directory holding the organization (a copy of the cached one, seeded first when
 * missing), and the organization's shape.
 */
export async function organization(parameters: OrgParameters, log: (line: string) => void): Promise<{ dataDir: string; org: SeededOrg }> {
  const cache = cacheDir(parameters);
  const shapeFile = join(cache, 'org.json');
  let seedSeconds = 0;
  if (!existsSync(shapeFile)) {
    const started = performance.now();
    rmSync(cache, { recursive: true, force: true });
    mkdirSync(join(cache, 'data'), { recursive: true });
    const org = await seed(join(cache, 'data'), parameters, log);
    seedSeconds = Math.round((performance.now() - started) / 100) / 10;
    // Written last: its presence says the cache is complete.
    writeFileSync(shapeFile, JSON.stringify(org));
  } else {
    log(`  organization from the cache ${cache}`);
  }
  const org = JSON.parse(readFileSync(shapeFile, 'utf8')) as SeededOrg;
  if (org.indexed !== SEARCH_LAYOUT_VERSION) {
    await indexSearch(join(cache, 'data'), log);
    writeFileSync(shapeFile, JSON.stringify({ ...org, indexed: SEARCH_LAYOUT_VERSION }));
  }
  const dataDir = newDataDir('mixed');
  cpSync(join(cache, 'data'), dataDir, { recursive: true });
  return { dataDir, org: { ...org, seedSeconds } };
}

/**
 * Rebuilds the search index from the store, as `search` does after seeding: the seeder's own
 * index would leave the server a catch-up over every message in the background, competing with
 * the measured load.
 */
async function indexSearch(dataDir: string, log: (line: string) => void): Promise<void> {
  log('  rebuilding the search index');
  const seeder = await Seeder.open(dataDir);
  seeder.services.search.flush();
  const index = await rebuildSearchIndex(seeder.services, () => {});
  await index.close();
  await seeder.close();
}

/** Users never follow topics automatically nor get mail or push about them: a seeded backlog must not become a mail queue. */
function quiet(user: UserRecord): UserRecord {
  return {
    ...user,
    settings: {
      ...user.settings,
      automatically_follow_topics_policy: 4,
      enable_followed_topic_email_notifications: false,
      enable_followed_topic_push_notifications: false,
      enable_offline_email_notifications: false,
      enable_offline_push_notifications: false,
      enable_digest_emails: false,
    },
  };
}

async function seed(dataDir: string, parameters: OrgParameters, log: (line: string) => void): Promise<SeededOrg> {
  const { users: count, messages: total } = parameters;
  const next = random(28);
  const seeder = await Seeder.open(dataDir);
  const { services } = seeder;
  log(`  seeding an organization of ${count} people`);
  const created = await seeder.users(count, 'person');
  for (let start = 0; start < created.length; start += 1000) {
    const tx = new Transaction();
    for (const user of created.slice(start, start + 1000)) services.org.users.save(quiet(services.org.users.get(user.id)!), tx);
    await services.commit(tx);
  }
  const people: PersonSeed[] = created.map((user, index) => ({
    userId: user.id,
    authorization: basicAuth(seeder.credentials(user)),
    channels: [],
    partners: [(index + 1) % count, (index + 7) % count, Math.floor(next() * count)].filter((p, i, all) => p !== index && all.indexOf(p) === i).slice(0, PARTNERS),
  }));
  const channels: ChannelSeed[] = [];
  const sizes = channelSizes(count);
  log(`  ${sizes.length} channels of ${Math.min(...sizes)} to ${Math.max(...sizes)} members`);
  for (const [c, size] of sizes.entries()) {
    const members = sample(count, size, next);
    const channel = await seeder.channel(`room ${c}`, members.map((m) => services.org.users.get(created[m]!.id)!));
    channels.push({ id: channel.id, name: channel.name, members });
    for (const m of members) people[m]!.channels.push(channel.id);
  }
  // A message goes to a membership drawn at random: big channels get more, as people in them write more.
  const memberships: Array<[number, number]> = channels.flatMap((channel, c) => channel.members.map((m): [number, number] => [c, m]));
  const newest = channels.map((): number[] => []);
  log(`  seeding ${total} messages (${Math.round(DM_SHARE * 100)}% direct)`);
  // Rendering is most of a seeded message's cost: a pool of texts, each rendered once, drawn at random.
  const texts = Array.from({ length: Math.min(TEXTS, Math.max(1, total)) }, () => {
    const content = sentence(next, false);
    return { content, rendered: services.render(content) };
  });
  for (let start = 0; start < total; start += 2000) {
    const tx = new Transaction();
    for (let i = start; i < Math.min(total, start + 2000); i++) {
      const { content, rendered } = texts[Math.floor(next() * texts.length)]!;
      if (next() < DM_SHARE || memberships.length === 0) {
        const from = Math.floor(next() * count);
        const to = people[from]!.partners[Math.floor(next() * people[from]!.partners.length)] ?? from;
        const participants = [...new Set([from, to])].map((p) => services.org.users.get(created[p]!.id)!);
        writeMessage(services, tx, { sender: participants[0]!, client: 'bench', readBySender: true, content, rendered, destination: { type: 'private', participants } });
        continue;
      }
      const [c, m] = memberships[Math.floor(next() * memberships.length)]!;
      const channel = services.org.channels.get(channels[c]!.id)!;
      const written = writeMessage(services, tx, { sender: services.org.users.get(created[m]!.id)!, client: 'bench', readBySender: true, content, rendered, destination: { type: 'stream', channel, topic: `topic ${Math.floor(next() * 12)}` } });
      const list = newest[c]!;
      list.push(written.record.id);
      if (list.length > 8) list.shift();
    }
    await services.commit(tx);
    if (start % 100_000 === 0) log(`    ${start}`);
  }
  services.search.flush();
  // Most of it read: each member's mark a few messages below the channel's newest.
  log('  read marks');
  let tx = new Transaction();
  let writes = 0;
  for (const [c, channel] of channels.entries()) {
    const list = newest[c]!;
    if (list.length === 0) continue;
    for (const m of channel.members) {
      const mark = list[Math.max(0, list.length - 1 - Math.floor(next() * list.length))]!;
      services.readMarks.setMark(created[m]!.id, channel.id, mark, tx);
      if (++writes % 5000 === 0) {
        await services.commit(tx);
        tx = new Transaction();
      }
    }
  }
  await services.commit(tx);
  await seeder.close();
  return { parameters, people, channels, seedSeconds: 0 };
}
