/** `POST /messages/flags/narrow` changing the read flag of 1,000 messages per call. */
import { runLoad } from '../lib/load.js';
import { startParley } from '../lib/processes.js';
import { DURATION_SECONDS, round, type Scenario } from '../lib/scenario.js';
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
      let call = 0;
      let updated = 0;
      const narrowParam = encodeURIComponent(JSON.stringify([{ operator: 'channel', operand: 'flagged' }]));
      const load = await runLoad({
        url: parley.url,
        method: 'POST',
        path: '/api/v1/messages/flags/narrow',
        headers: { authorization: basicAuth(user), 'content-type': 'application/x-www-form-urlencoded' },
        connections: CONNECTIONS,
        durationSeconds: DURATION_SECONDS,
        setupRequest: (request) => {
          // Alternate read and unread over the same window, so every call changes 1,000 messages.
          const op = call++ % 2 === 0 ? 'add' : 'remove';
          request.body = `anchor=oldest&num_before=0&num_after=${WINDOW}&narrow=${narrowParam}&op=${op}&flag=read`;
          return request;
        },
        onResponse: (status, text) => {
          if (status === 200) updated += (JSON.parse(text) as { updated_count: number }).updated_count;
        },
      });
      if (load.non2xx || load.errors) throw new Error(`flags: ${load.non2xx} non-2xx, ${load.errors} errors`);
      const baseline = await context.baseline({ method: 'POST', connections: CONNECTIONS, durationSeconds: DURATION_SECONDS });
      const perSecond = round(updated / DURATION_SECONDS, 0);
      return {
        scenario: 'flags',
        description: this.description,
        figures: [
          { name: 'messages updated/s', value: perSecond, unit: 'msg/s' },
          { name: 'calls/s', value: load.requestsPerSecond, unit: 'req/s', baseline, ratio: round(load.requestsPerSecond / baseline, 4) },
          { name: 'latency p50', value: load.latencyP50Ms, unit: 'ms' },
        ],
        notes: [`one connection, ${WINDOW} messages per call, alternating add/remove of read, durable`],
      };
    } finally {
      await parley.stop();
    }
  },
};
