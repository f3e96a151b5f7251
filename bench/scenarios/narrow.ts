/**
 * `GET /messages` on big histories: the newest 50 of one topic in a channel of 100,000
 * messages, and `is:unread` for a user with 10,000 unread messages.
 */
import { bodySize, fromRounds } from '../lib/baseline.js';
import { startParley } from '../lib/processes.js';
import type { Scenario } from '../lib/scenario.js';
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
      const topicAuth = { authorization: basicAuth(viewer) };
      const unreadAuth = { authorization: basicAuth(unreadReader) };
      const check = await (await fetch(parley.url + topicPath, { headers: topicAuth })).json() as { messages: unknown[] };
      if (check.messages.length !== 50) throw new Error(`narrow: expected 50 messages, got ${check.messages.length}`);
      const topicBytes = await bodySize(parley.url + topicPath, { headers: topicAuth });
      const unreadBytes = await bodySize(parley.url + unreadPath, { headers: unreadAuth });
      const topic = await context.throughput({ name: 'topic newest 50: requests/s', unit: 'req/s', parley, bareBytes: topicBytes, load: { path: topicPath, headers: topicAuth, connections: CONNECTIONS } });
      const unread = await context.throughput({ name: 'is:unread newest 50: requests/s', unit: 'req/s', parley, bareBytes: unreadBytes, load: { path: unreadPath, headers: unreadAuth, connections: CONNECTIONS } });
      return {
        scenario: 'narrow',
        description: this.description,
        figures: [topic.figure, unread.figure, fromRounds('topic latency p99', 'ms', topic, (r) => r.latencyP99Ms)],
        notes: [
          `channel of ${CHANNEL_MESSAGES} messages (10% in the topic, read by a non-subscriber through history); ${UNREAD} unread for the second reader`,
          `Parley: ${CONNECTIONS} connections; the bare server answers with as many bytes as Parley (${topicBytes} for the topic, ${unreadBytes} for is:unread)`,
        ],
      };
    } finally {
      await parley.stop();
    }
  },
};
