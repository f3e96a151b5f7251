/** `POST /messages/flags/narrow` changing the read flag of 1,000 messages per call. */
import { round } from '../lib/scenario.js';
import { bodySize, fromRounds } from '../lib/baseline.js';
import { startParley } from '../lib/processes.js';
import type { Scenario } from '../lib/scenario.js';
import { basicAuth, newDataDir, Seeder } from '../lib/seed.js';

const WINDOW = 1000;
const CONNECTIONS = 1;

export const flags: Scenario = {
  name: 'flags',
  description: 'POST /messages/flags/narrow marking 1,000 messages per call',
  async run(context) {
    const dataDir = newDataDir('flags');
    const seeder = await Seeder.open(dataDir);
    const [reader] = await seeder.users(1, 'reader');
    const hamlet = seeder.services.org.users.byEmail('hamlet@example.com')!;
    const channel = await seeder.channel('flagged', [hamlet, reader]);
    await seeder.channelMessages(channel, hamlet, 5 * WINDOW, (i) => `topic ${i % 20}`);
    const user = seeder.credentials(reader);
    await seeder.close();
    const parley = await startParley({ dataDir, sync: true, profileDir: context.profileDir });
    try {
      const narrowParam = encodeURIComponent(JSON.stringify([{ operator: 'channel', operand: 'flagged' }]));
      // Alternate read and unread over the same window, so every call changes 1,000 messages.
      const variants = ['add', 'remove'].map((op) => ({ body: `anchor=oldest&num_before=0&num_after=${WINDOW}&narrow=${narrowParam}&op=${op}&flag=read` }));
      const path = '/api/v1/messages/flags/narrow';
      const headers = { authorization: basicAuth(user), 'content-type': 'application/x-www-form-urlencoded' };
      // Every message is still unread, so removing `read` changes nothing: a harmless sample of the answer's size.
      const bareBytes = await bodySize(parley.url + path, { method: 'POST', headers, body: variants[1].body });
      const outcome = await context.throughput({
        name: 'calls/s',
        unit: 'req/s',
        parley,
        bareBytes,
        load: {
          method: 'POST',
          path,
          headers,
          variants,
          connections: CONNECTIONS,
          sumField: 'updated_count',
        },
      });
      const updated = outcome.parleyRuns.map((r) => r.sum / r.durationSeconds);
      updated.sort((a, b) => a - b);
      return {
        scenario: 'flags',
        description: this.description,
        figures: [
          { name: 'messages updated/s', value: round(updated[Math.floor(updated.length / 2)], 0), unit: 'msg/s', measured: fromRounds('', '', outcome, () => 0).measured },
          outcome.figure,
          fromRounds('latency p50', 'ms', outcome, (r) => r.latencyP50Ms),
        ],
        notes: [`Parley: one connection, ${WINDOW} messages per call, alternating add/remove of read, durable; the bare server gets the same requests at its best connection count`],
      };
    } finally {
      await parley.stop();
    }
  },
};
