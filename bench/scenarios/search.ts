/**
 * Full-text search on a big store: 1,000,000 messages of varied text in 100 channels (100,000
 * with --quick; BENCH_SEARCH_MESSAGES sets it), searched by a member of 90 of them for the newest
 * 50 matches of two common words and of two rare ones, beside a `channel` narrow of the same size
 * on the same server. Also the index's size per message, its rebuild rate and the start-up time
 * with the index up to date. BENCH_SEARCH_BEFORE_MAIN names an older build's `dist/src/main.js`
 * (the scan before the index) that is then measured on the same data, after this build.
 */
import { statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeMessage } from '../../src/actions/message-send.js';
import { rebuildSearchIndex } from '../../src/ops/search-rebuild.js';
import { searchIndexDir } from '../../src/store/search-index.js';
import { Transaction } from '../../src/store/transaction.js';
import type { ChannelRecord } from '../../src/domain/channel-record.js';
import { bodySize, fromRounds } from '../lib/baseline.js';
import { startParley } from '../lib/processes.js';
import type { Figure, Scenario, ScenarioContext } from '../lib/scenario.js';
import { basicAuth, newDataDir, Seeder } from '../lib/seed.js';
import { CONNECTIONS } from './auth-read.js';
import { random, sentence, VOCABULARY } from '../lib/text.js';

const CHANNELS = 100;
const MEMBER_OF = 90;
/** One message in this many holds the rare pair. */
const RARE_EVERY = 20_000;

const COMMON_QUERY = 'deploy server';
const RARE_QUERY = 'zephyr quokka';

function directorySize(dir: string): number {
  let bytes = 0;
  for (const name of readdirSync(dir)) bytes += statSync(join(dir, name)).size;
  return bytes;
}

export const search: Scenario = {
  name: 'search',
  description: 'GET /messages with search: newest 50 of two common and two rare words among 1,000,000 messages, beside a channel narrow; index size, rebuild, start-up',
  async run(context) {
    const total = Number(process.env.BENCH_SEARCH_MESSAGES ?? (context.settings.quick ? 100_000 : 1_000_000));
    const dataDir = newDataDir('search');
    const seeder = await Seeder.open(dataDir);
    const { services } = seeder;
    const hamlet = services.org.users.byEmail('hamlet@example.com')!;
    const othello = services.org.users.byEmail('othello@example.com')!;
    const iago = services.org.users.byEmail('iago@example.com')!;
    // The three senders neither follow the topics they start nor get mail about them: seeding a
    // million messages must not leave the server a backlog of missed-message email to work through.
    const quiet = new Transaction();
    for (const user of [hamlet, othello, iago]) {
      services.org.users.save({ ...user, settings: { ...user.settings, automatically_follow_topics_policy: 4, enable_followed_topic_email_notifications: false, enable_followed_topic_push_notifications: false } }, quiet);
    }
    await services.commit(quiet);
    const [hamletNow, othelloNow, iagoNow] = [hamlet, othello, iago].map((user) => services.org.users.get(user.id)!);
    const channels: ChannelRecord[] = [];
    for (let c = 0; c < CHANNELS; c++) channels.push(await seeder.channel(`search ${c}`, c < MEMBER_OF ? [hamlet, othello, iago] : [othello]));
    context.log(`  seeding ${total} messages of ~100 characters in ${CHANNELS} channels`);
    const next = random(42);
    const senders = [hamletNow!, othelloNow!, iagoNow!];
    for (let start = 0; start < total; start += 2000) {
      const tx = new Transaction();
      for (let i = start; i < Math.min(total, start + 2000); i++) {
        const content = sentence(next, i % RARE_EVERY === RARE_EVERY / 2);
        const channel = services.org.channels.get(channels[i % CHANNELS]!.id)!;
        writeMessage(services, tx, { sender: senders[i % 3]!, client: 'bench', readBySender: true, content, rendered: services.render(content), destination: { type: 'stream', channel, topic: `topic ${i % 37}` } });
      }
      await services.commit(tx);
      if (start % 100_000 === 0) context.log(`    ${start}`);
    }
    services.search.flush();
    context.log('  rebuilding the index from the store');
    const rebuildStarted = performance.now();
    const index = await rebuildSearchIndex(services, () => {});
    const rebuildSeconds = (performance.now() - rebuildStarted) / 1000;
    const indexed = index.size();
    await index.close();
    const indexBytes = directorySize(searchIndexDir(dataDir));
    const viewer = seeder.credentials(hamlet);
    await seeder.close();

    const path = (narrow: unknown[]) => '/api/v1/messages?' + new URLSearchParams({ anchor: 'newest', num_before: '50', num_after: '0', narrow: JSON.stringify(narrow) });
    const auth = { authorization: basicAuth(viewer) };
    const requests = {
      common: path([{ operator: 'search', operand: COMMON_QUERY }]),
      rare: path([{ operator: 'search', operand: RARE_QUERY }]),
      channel: path([{ operator: 'channel', operand: 'search 7' }]),
    };
    const figures: Figure[] = [];
    const after = await measureBuild(context, dataDir, auth, requests, figures, '', undefined);
    figures.push(
      { name: 'index size per message', value: Math.round(indexBytes / Math.max(indexed, 1)), unit: 'bytes' },
      { name: 'index rebuild', value: Math.round(indexed / rebuildSeconds), unit: 'msg/s' },
      { name: 'start-up with the index up to date', value: Math.round(after.startupMs), unit: 'ms' },
    );
    const before = process.env.BENCH_SEARCH_BEFORE_MAIN;
    if (before) await measureBuild(context, dataDir, auth, requests, figures, 'before (scan): ', before);
    return {
      scenario: 'search',
      description: this.description,
      figures,
      notes: [
        `${total} messages (~100 characters, a Zipf-like draw from ${VOCABULARY.length} words) in ${CHANNELS} channels; the reader is subscribed to ${MEMBER_OF}; the rare pair is in one message of ${RARE_EVERY}`,
        `index of ${indexed} messages, ${indexBytes} bytes, rebuilt in ${rebuildSeconds.toFixed(1)} s` + (before ? `; "before" figures: ${before} on the same data` : ''),
      ],
    };
  },
};

interface SearchRequests {
  common: string;
  rare: string;
  channel: string;
}

/** The three requests on one build's server (this one, or `main` of another build), their figures appended with `label`. */
async function measureBuild(context: ScenarioContext, dataDir: string, auth: Record<string, string>, requests: SearchRequests, figures: Figure[], label: string, main: string | undefined) {
  const parley = await startParley({ dataDir, sync: true, profileDir: context.profileDir, main });
  try {
    const measure = async (name: string, requestPath: string) => {
      const bytes = await bodySize(parley.url + requestPath, { headers: auth });
      const outcome = await context.throughput({ name: `${label}${name}: requests/s`, unit: 'req/s', parley, bareBytes: bytes, load: { path: requestPath, headers: auth, connections: CONNECTIONS } });
      figures.push(outcome.figure, fromRounds(`${label}${name}: latency p50`, 'ms', outcome, (r) => r.latencyP50Ms), fromRounds(`${label}${name}: latency p99`, 'ms', outcome, (r) => r.latencyP99Ms));
      return outcome.figure.value;
    };
    const rare = await (await fetch(parley.url + requests.rare, { headers: auth })).json() as { messages: unknown[] };
    context.log(`  ${label}rare query: ${rare.messages.length} messages`);
    const channelRate = await measure('channel narrow newest 50', requests.channel);
    const commonRate = await measure(`search "${COMMON_QUERY}" newest 50`, requests.common);
    const rareRate = await measure(`search "${RARE_QUERY}" newest 50`, requests.rare);
    figures.push(
      { name: `${label}common-word search / channel narrow (requests/s)`, value: Math.round((commonRate / channelRate) * 1000) / 1000, unit: '' },
      { name: `${label}rare-word search / channel narrow (requests/s)`, value: Math.round((rareRate / channelRate) * 1000) / 1000, unit: '' },
    );
    return { startupMs: parley.startupMs };
  } finally {
    await parley.stop();
  }
}
