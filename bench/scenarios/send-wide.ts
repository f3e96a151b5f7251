/**
 * Durable `POST /messages` to channels of 10, 1,000 and 10,000 subscribers, nobody holding a
 * queue: with read marks a send writes nothing per subscriber, so the three should run at
 * about the same rate. The figure that says so is messages/s to 10,000 over messages/s to 10.
 */
import { cpSync, rmSync } from 'node:fs';
import { bodySize } from '../lib/baseline.js';
import { startParley } from '../lib/processes.js';
import { round, type Figure, type Scenario } from '../lib/scenario.js';
import { basicAuth, newDataDir, Seeder } from '../lib/seed.js';

const SIZES = [10, 1000, 10000];
const CONNECTIONS = 16;

export const sendWide: Scenario = {
  name: 'send-wide',
  description: 'durable POST /messages to channels of 10, 1,000 and 10,000 subscribers',
  async run(context) {
    const dataDir = newDataDir('send-wide');
    const seeder = await Seeder.open(dataDir);
    const members = await seeder.users(Math.max(...SIZES), 'member');
    const hamlet = seeder.services.org.users.byEmail('hamlet@example.com')!;
    // The sender is one of the subscribers: each channel has exactly its size.
    for (const size of SIZES) await seeder.channel(`wide-${size}`, [hamlet, ...members.slice(0, size - 1)]);
    const sender = seeder.credentials(hamlet);
    await seeder.close();
    const path = '/api/v1/messages';
    const headers = { authorization: basicAuth(sender), 'content-type': 'application/x-www-form-urlencoded' };
    const figures: Figure[] = [];
    for (const size of SIZES) {
      context.log(`  ${size} subscribers`);
      // Each size on its own copy of the seeded directory: a store that grew (and compacts) during
      // the previous size's rounds would slow the next one for reasons that have nothing to do with size.
      const copy = `${dataDir}-${size}`;
      cpSync(dataDir, copy, { recursive: true });
      const parley = await startParley({ dataDir: copy, sync: true, profileDir: context.profileDir });
      try {
        const body = `type=stream&to=wide-${size}&topic=load&content=` + encodeURIComponent('A message for everyone in the channel.');
        const bareBytes = await bodySize(parley.url + path, { method: 'POST', headers, body });
        const outcome = await context.throughput({
          name: `messages/s, ${size.toLocaleString('en')} subscribers`,
          unit: 'msg/s',
          parley,
          bareBytes,
          load: { method: 'POST', path, headers, body, connections: CONNECTIONS },
        });
        figures.push(outcome.figure);
      } finally {
        await parley.stop();
        rmSync(copy, { recursive: true, force: true });
      }
    }
    const first = figures[0]!;
    const last = figures[figures.length - 1]!;
    figures.push({ name: '10,000 / 10 subscribers (messages/s)', value: round(last.value / first.value, 3), unit: '' });
    return {
      scenario: 'send-wide',
      description: this.description,
      figures,
      notes: [`durable (PARLEY_SYNC=1); Parley: ${CONNECTIONS} connections; nobody holds a queue; each channel's size counts the sender; each size runs on its own copy of one seeded data directory`],
    };
  },
};
