/** Start-up: time to the ready line and memory once ready, with no messages and with 1,000,000 stored. */
import { rssOf, startParley } from '../lib/processes.js';
import { round, type Scenario } from '../lib/scenario.js';
import { newDataDir, Seeder } from '../lib/seed.js';

const MESSAGES = 1_000_000;
const RUNS = 3;

async function measure(dataDir: string): Promise<{ ms: number; rss: number }> {
  const times: number[] = [];
  const memory: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const parley = await startParley({ dataDir, sync: true });
    times.push(parley.startupMs);
    memory.push(rssOf(parley.child.pid!));
    await parley.stop();
  }
  times.sort((a, b) => a - b);
  memory.sort((a, b) => a - b);
  return { ms: times[Math.floor(RUNS / 2)], rss: memory[Math.floor(RUNS / 2)] };
}

export const startup: Scenario = {
  name: 'startup',
  description: 'process start to ready line, with 0 and 1,000,000 stored messages',
  async run(context) {
    const empty = newDataDir('startup-empty');
    await (await Seeder.open(empty)).close();
    const full = newDataDir('startup-full');
    const seeder = await Seeder.open(full);
    const hamlet = seeder.services.org.users.byEmail('hamlet@example.com')!;
    const channel = await seeder.channel('archive', [hamlet]);
    context.log(`  seeding ${MESSAGES} messages`);
    let reported = 0;
    await seeder.channelMessages(channel, hamlet, MESSAGES, (i) => `topic ${i % 1000}`, (done) => {
      if (done - reported >= 250_000) {
        reported = done;
        context.log(`    ${done}`);
      }
    });
    await seeder.close();
    const zero = await measure(empty);
    const million = await measure(full);
    return {
      scenario: 'startup',
      description: this.description,
      figures: [
        { name: 'ready, 0 messages', value: round(zero.ms, 0), unit: 'ms' },
        { name: 'ready, 1,000,000 messages', value: round(million.ms, 0), unit: 'ms', baseline: round(zero.ms, 0), ratio: round(million.ms / zero.ms, 2) },
        { name: 'RSS when ready, 0 messages', value: round(zero.rss / 1048576, 1), unit: 'MiB' },
        { name: 'RSS when ready, 1,000,000 messages', value: round(million.rss / 1048576, 1), unit: 'MiB', baseline: round(zero.rss / 1048576, 1), ratio: round(million.rss / zero.rss, 2) },
      ],
      notes: [`median of ${RUNS} starts; the ratios (1,000,000 / 0) show whether start-up grows with stored messages (1.0 = not at all)`],
    };
  },
};
