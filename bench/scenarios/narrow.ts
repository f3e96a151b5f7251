/**
 * `GET /messages` on big histories: the newest 50 of one topic in a channel of 100,000
 * messages, and `is:unread` for a user with 10,000 unread messages.
 */
import { runLoad } from '../lib/load.js';
import { startParley } from '../lib/processes.js';
import { DURATION_SECONDS, round, type Scenario } from '../lib/scenario.js';
import { basicAuth, newDataDir, Seeder } from '../lib/seed.js';
import { CONNECTIONS } from './auth-read.js';

const CHANNEL_MESSAGES = 100_000;
const UNREAD = 10_000;

export const narrow: Scenario = {
  name: 'narrow',
  description: 'GET /messages: newest 50 of a topic in a 100,000-message channel; is:unread with 10,000 unread',
  async run(context) {
    const dataDir = newDataDir('narrow');
    const seeder = await Seeder.open(dataDir);
    const [reader] = await seeder.users(1, 'reader');
    const hamlet = seeder.services.org.users.byEmail('hamlet@example.com')!;
    const big = await seeder.channel('history', [hamlet]);
    context.log(`  seeding ${CHANNEL_MESSAGES} messages`);
    // One message in ten goes to the measured topic; the rest spread over 500 others.
    await seeder.channelMessages(big, hamlet, CHANNEL_MESSAGES, (i) => (i % 10 === 0 ? 'target' : `topic ${i % 500}`));
    const inbox = await seeder.channel('inbox', [hamlet, reader]);
    await seeder.channelMessages(inbox, hamlet, UNREAD, (i) => `thread ${i % 50}`);
    const viewer = seeder.demoUser('iago@example.com');
    const unreadReader = seeder.credentials(reader);
    await seeder.close();
    const parley = await startParley({ dataDir, sync: true, profileDir: context.profileDir });
    try {
      const topicPath = '/api/v1/messages?' + new URLSearchParams({
        anchor: 'newest',
        num_before: '50',
        num_after: '0',
        narrow: JSON.stringify([{ operator: 'channel', operand: 'history' }, { operator: 'topic', operand: 'target' }]),
      });
      const unreadPath = '/api/v1/messages?' + new URLSearchParams({
        anchor: 'newest',
        num_before: '50',
        num_after: '0',
        narrow: JSON.stringify([{ operator: 'is', operand: 'unread' }]),
      });
      const check = await (await fetch(parley.url + topicPath, { headers: { authorization: basicAuth(viewer) } })).json() as { messages: unknown[] };
      if (check.messages.length !== 50) throw new Error(`narrow: expected 50 messages, got ${check.messages.length}`);
      await runLoad({ url: parley.url, path: topicPath, headers: { authorization: basicAuth(viewer) }, connections: CONNECTIONS, durationSeconds: 1 });
      const topic = await runLoad({ url: parley.url, path: topicPath, headers: { authorization: basicAuth(viewer) }, connections: CONNECTIONS, durationSeconds: DURATION_SECONDS });
      const unread = await runLoad({ url: parley.url, path: unreadPath, headers: { authorization: basicAuth(unreadReader) }, connections: CONNECTIONS, durationSeconds: DURATION_SECONDS });
      for (const load of [topic, unread]) if (load.non2xx || load.errors) throw new Error(`narrow: ${load.non2xx} non-2xx, ${load.errors} errors`);
      const baseline = await context.baseline({ method: 'GET', connections: CONNECTIONS, durationSeconds: DURATION_SECONDS });
      return {
        scenario: 'narrow',
        description: this.description,
        figures: [
          { name: 'topic newest 50: requests/s', value: topic.requestsPerSecond, unit: 'req/s', baseline, ratio: round(topic.requestsPerSecond / baseline, 3) },
          { name: 'is:unread newest 50: requests/s', value: unread.requestsPerSecond, unit: 'req/s', baseline, ratio: round(unread.requestsPerSecond / baseline, 3) },
          { name: 'topic latency p99', value: topic.latencyP99Ms, unit: 'ms' },
        ],
        notes: [`channel of ${CHANNEL_MESSAGES} messages (10% in the topic, read by a non-subscriber through history); ${UNREAD} unread for the second reader`],
      };
    } finally {
      await parley.stop();
    }
  },
};
