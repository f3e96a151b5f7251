/** `POST /messages` direct messages between random pairs of 1,000 users. */
import { runLoad } from '../lib/load.js';
import { startParley } from '../lib/processes.js';
import { DURATION_SECONDS, round, type Scenario } from '../lib/scenario.js';
import { basicAuth, newDataDir, Seeder } from '../lib/seed.js';

const USERS = 1000;
const CONNECTIONS = 16;

export const dm: Scenario = {
  name: 'dm',
  description: 'POST /messages direct messages between pairs of 1,000 users',
  async run(context) {
    const dataDir = newDataDir('dm');
    const seeder = await Seeder.open(dataDir);
    const people = (await seeder.users(USERS, 'person')).map((u) => seeder.credentials(u));
    await seeder.close();
    const parley = await startParley({ dataDir, sync: true, profileDir: context.profileDir });
    try {
      let next = 0;
      const load = await runLoad({
        url: parley.url,
        method: 'POST',
        path: '/api/v1/messages',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        connections: CONNECTIONS,
        durationSeconds: DURATION_SECONDS,
        setupRequest: (request) => {
          // Deterministic pairs that cover every user: i writes to i + 1 + (i mod 7).
          const i = next++ % USERS;
          const from = people[i];
          const to = people[(i + 1 + (i % 7)) % USERS];
          request.headers = { ...request.headers, authorization: basicAuth(from) };
          request.body = `type=direct&to=${encodeURIComponent(JSON.stringify([to.id]))}&content=hello`;
          return request;
        },
      });
      if (load.non2xx || load.errors) throw new Error(`dm: ${load.non2xx} non-2xx, ${load.errors} errors`);
      const baseline = await context.baseline({ method: 'POST', connections: CONNECTIONS, durationSeconds: DURATION_SECONDS });
      return {
        scenario: 'dm',
        description: this.description,
        figures: [
          { name: 'messages/s', value: load.requestsPerSecond, unit: 'msg/s', baseline, ratio: round(load.requestsPerSecond / baseline, 3) },
          { name: 'latency p99', value: load.latencyP99Ms, unit: 'ms' },
        ],
        notes: [`durable (PARLEY_SYNC=1); ${CONNECTIONS} connections, ${DURATION_SECONDS} s; nobody holds a queue`],
      };
    } finally {
      await parley.stop();
    }
  },
};
