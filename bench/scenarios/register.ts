/**
 * `POST /register` with every event type and all of their initial state, for a member of an
 * organization of 10,000 users and 1,000 channels, and of one of 1,000 users and 100 channels to
 * show how the cost grows: p50 and p99 of one request at a time on a kept-alive connection, and
 * the answer's size.
 */
import { writeMessage } from '../../src/actions/message-send.js';
import { Transaction } from '../../src/store/transaction.js';
import { processCpuSeconds } from '../lib/cpu.js';
import { RawClient } from '../lib/pollers.js';
import { startParley, waitUntilQuiet } from '../lib/processes.js';
import { percentile, round, type Figure, type Scenario, type ScenarioContext } from '../lib/scenario.js';
import { basicAuth, newDataDir, Seeder } from '../lib/seed.js';

const MESSAGES = 10_000;

/** Channel c of `channels` has users / (c + 1)^0.8 members (at least 10): a few big, many small. */
const sizeOf = (users: number, c: number) => Math.max(10, Math.min(users, Math.round(users / (c + 1) ** 0.8)));
/** The measured member is in the five biggest channels and one in fifty of the rest. */
const memberOf = (c: number) => c < 5 || c % 50 === 0;

async function seed(users: number, channels: number, log: (line: string) => void): Promise<{ dataDir: string; authorization: string; subscribed: number }> {
  const dataDir = newDataDir(`register-${users}`);
  const seeder = await Seeder.open(dataDir);
  const { services } = seeder;
  log(`  seeding ${users} users, ${channels} channels, ${MESSAGES} messages`);
  const people = await seeder.users(users, 'member');
  const member = people[0]!;
  let subscribed = 0;
  const theirs: number[] = [];
  for (let c = 0; c < channels; c++) {
    // Members spread over the whole organization, the measured one added where it belongs.
    const size = sizeOf(users, c);
    const step = users / size;
    const members = Array.from({ length: size }, (_, i) => people[Math.floor(i * step + (c % Math.max(1, Math.floor(step))))]!).filter((u) => u.id !== member.id);
    if (memberOf(c)) {
      members.push(member);
      subscribed++;
    }
    const channel = await seeder.channel(`channel ${c}`, members);
    if (memberOf(c)) theirs.push(channel.id);
  }
  const content = 'A message in the register benchmark.';
  const rendered = services.render(content);
  for (let start = 0; start < MESSAGES; start += 2000) {
    const tx = new Transaction();
    for (let i = start; i < Math.min(MESSAGES, start + 2000); i++) {
      const channel = services.org.channels.get(theirs[i % theirs.length]!)!;
      writeMessage(services, tx, { sender: services.org.users.get(people[1]!.id)!, client: 'bench', readBySender: true, content, rendered, destination: { type: 'stream', channel, topic: `topic ${i % 40}` } });
    }
    await services.commit(tx);
  }
  const authorization = basicAuth(seeder.credentials(member));
  await seeder.close();
  return { dataDir, authorization, subscribed };
}

/**
 * What real clients send: Zulip's web app (zerver/lib/home.py: the most tuned) and its Flutter
 * mobile app (lib/api/route/events.dart); both fetch every event type's state here.
 */
const CLIENTS = [
  {
    name: 'web app',
    body: 'apply_markdown=true&client_gravatar=true&slim_presence=true&include_subscribers=partial&client_capabilities=' + encodeURIComponent(JSON.stringify({
      notification_settings_null: true, bulk_message_deletion: true, user_avatar_url_field_optional: true, stream_typing_notifications: true,
      user_settings_object: true, linkifier_url_template: true, user_list_incomplete: true, include_deactivated_groups: true, archived_channels: true, empty_topic_name: true,
    })),
  },
  {
    name: 'mobile app',
    body: 'apply_markdown=true&client_gravatar=false&slim_presence=true&client_capabilities=' + encodeURIComponent(JSON.stringify({
      notification_settings_null: true, bulk_message_deletion: true, user_avatar_url_field_optional: true, stream_typing_notifications: true,
      user_settings_object: true, include_deactivated_groups: true, empty_topic_name: true,
    })),
  },
] as const;

async function measure(context: ScenarioContext, users: number, channels: number): Promise<Figure[]> {
  const { dataDir, authorization, subscribed } = await seed(users, channels, context.log);
  const parley = await startParley({ dataDir, sync: true, profileDir: context.profileDir });
  // Measured from a defined point: after the work a server does when it opens a directory just
  // seeded by another process (LevelDB's compaction, the search index). It takes under a second
  // (0.6–0.9 s in stop 37's runs), so it is not what makes runs differ (server CPU per request
  // 11–17 ms between runs of the same code).
  const quietStarted = performance.now();
  await waitUntilQuiet(parley.child.pid!, 300_000);
  context.log(`  ${users.toLocaleString('en')} users: the server went quiet ${round((performance.now() - quietStarted) / 1000, 1)} s after it started listening`);
  const client = await RawClient.open(parley.port);
  const figures: Figure[] = [];
  try {
    for (const { name, body } of CLIENTS) figures.push(...(await measureClient(context, client, parley.child.pid!, authorization, body, `${users.toLocaleString('en')} users, ${channels.toLocaleString('en')} channels${name === 'web app' ? '' : `, ${name}`}`, subscribed)));
    return figures;
  } finally {
    client.close();
    await parley.stop();
  }
}

/** One client's request, one at a time on the kept-alive connection. */
async function measureClient(context: ScenarioContext, client: RawClient, pid: number, authorization: string, body: string, label: string, subscribed: number): Promise<Figure[]> {
  const request = `POST /api/v1/register HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${authorization}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  const times: number[] = [];
  let bytes = 0;
  let cpuBefore = 0;
  const count = context.settings.quick ? 20 : 100;
  for (let i = 0; i < count + 5; i++) {
    if (i === 5) cpuBefore = processCpuSeconds(pid);
    const started = performance.now();
    const answer = await client.request(request);
    const ms = performance.now() - started;
    if (answer.status !== 200) throw new Error(`register: ${answer.status} ${answer.body.slice(0, 200)}`);
    bytes = Buffer.byteLength(answer.body);
    if (i >= 5) times.push(ms); // the first five warm the server up
  }
  // The server's own CPU per request: less moved by other processes on a busy machine than the wall time.
  const cpuMs = ((processCpuSeconds(pid) - cpuBefore) * 1000) / count;
  times.sort((a, b) => a - b);
  context.log(`  ${label} (member of ${subscribed}): p50 ${round(percentile(times, 50), 1)} ms, p99 ${round(percentile(times, 99), 1)} ms, server CPU ${round(cpuMs, 1)} ms per request, ${bytes} bytes`);
  return [
    { name: `${label}: p50`, value: round(percentile(times, 50), 2), unit: 'ms' },
    { name: `${label}: p99`, value: round(percentile(times, 99), 2), unit: 'ms' },
    { name: `${label}: response bytes`, value: bytes, unit: 'bytes' },
    { name: `${label}: server CPU per request`, value: round(cpuMs, 2), unit: 'ms' },
  ];
}

export const register: Scenario = {
  name: 'register',
  description: 'POST /register, every event type with its initial state, for a member of 10,000 users / 1,000 channels and of 1,000 / 100',
  async run(context) {
    const small = await measure(context, 1000, 100);
    const large = await measure(context, 10_000, 1000);
    const growth = (i: number) => round(large[i]!.value / small[i]!.value, 2);
    return {
      scenario: 'register',
      description: this.description,
      figures: [
        ...large,
        ...small,
        { name: 'p50, 10,000 users / 1,000 users', value: growth(0), unit: '×' },
        { name: 'response bytes, 10,000 users / 1,000 users', value: growth(2), unit: '×' },
      ],
      notes: [
        `one request at a time on a kept-alive connection, five to warm up, then ${context.settings.quick ? 20 : 100} timed; no event_types or fetch_event_types (everything); the parameters and client_capabilities of Zulip's web app (client_gravatar, include_subscribers=partial) and, labelled, of its mobile app (client_gravatar=false, no subscribers)`,
        `channel c has users / (c + 1)^0.8 members (at least 10); the member is in the five biggest and one in fifty of the rest (${MESSAGES} messages among them); every user is visible to the member, as in Zulip by default`,
      ],
    };
  },
};
