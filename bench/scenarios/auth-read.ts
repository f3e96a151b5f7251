/** `GET /users/me` with Basic auth: the cost of the HTTP front, authentication and the envelope. */
import { runLoad } from '../lib/load.js';
import { startParley } from '../lib/processes.js';
import { DURATION_SECONDS, round, type Scenario } from '../lib/scenario.js';
import { basicAuth, newDataDir, Seeder } from '../lib/seed.js';

export const CONNECTIONS = 50;

export const authRead: Scenario = {
  name: 'auth-read',
  description: 'GET /users/me with Basic auth',
  async run(context) {
    const dataDir = newDataDir('auth-read');
    const seeder = await Seeder.open(dataDir);
    const iago = seeder.demoUser('iago@example.com');
    await seeder.close();
    const parley = await startParley({ dataDir, sync: true, profileDir: context.profileDir });
    try {
      const headers = { authorization: basicAuth(iago) };
      await runLoad({ url: parley.url, path: '/api/v1/users/me', headers, connections: CONNECTIONS, durationSeconds: 1 });
      const load = await runLoad({ url: parley.url, path: '/api/v1/users/me', headers, connections: CONNECTIONS, durationSeconds: DURATION_SECONDS });
      if (load.non2xx || load.errors) throw new Error(`auth-read: ${load.non2xx} non-2xx, ${load.errors} errors`);
      const baseline = await context.baseline({ method: 'GET', connections: CONNECTIONS, durationSeconds: DURATION_SECONDS });
      return {
        scenario: 'auth-read',
        description: this.description,
        figures: [
          { name: 'requests/s', value: load.requestsPerSecond, unit: 'req/s', baseline, ratio: round(load.requestsPerSecond / baseline, 3) },
          { name: 'latency p50', value: load.latencyP50Ms, unit: 'ms' },
          { name: 'latency p99', value: load.latencyP99Ms, unit: 'ms' },
        ],
        notes: [`${CONNECTIONS} connections, ${DURATION_SECONDS} s after a 1 s warm-up`],
      };
    } finally {
      await parley.stop();
    }
  },
};
