/** `GET /users` in an organization of 1,000 users: formatting many user objects per request. */
import { runLoad } from '../lib/load.js';
import { startParley } from '../lib/processes.js';
import { DURATION_SECONDS, round, type Scenario } from '../lib/scenario.js';
import { basicAuth, newDataDir, Seeder } from '../lib/seed.js';
import { CONNECTIONS } from './auth-read.js';

export const users: Scenario = {
  name: 'users',
  description: 'GET /users in an organization of 1,000 users',
  async run(context) {
    const dataDir = newDataDir('users');
    const seeder = await Seeder.open(dataDir);
    await seeder.users(1000 - seeder.services.org.users.size + 1, 'member');
    const viewer = seeder.demoUser('hamlet@example.com');
    const count = [...seeder.services.org.users.all()].filter((u) => !u.isSystemBot).length;
    await seeder.close();
    const parley = await startParley({ dataDir, sync: true, profileDir: context.profileDir });
    try {
      const headers = { authorization: basicAuth(viewer) };
      const sample = await fetch(`${parley.url}/api/v1/users`, { headers });
      const bytes = (await sample.arrayBuffer()).byteLength;
      await runLoad({ url: parley.url, path: '/api/v1/users', headers, connections: CONNECTIONS, durationSeconds: 1 });
      const load = await runLoad({ url: parley.url, path: '/api/v1/users', headers, connections: CONNECTIONS, durationSeconds: DURATION_SECONDS });
      if (load.non2xx || load.errors) throw new Error(`users: ${load.non2xx} non-2xx, ${load.errors} errors`);
      const baseline = await context.baseline({ method: 'GET', connections: CONNECTIONS, durationSeconds: DURATION_SECONDS });
      return {
        scenario: 'users',
        description: this.description,
        figures: [
          { name: 'requests/s', value: load.requestsPerSecond, unit: 'req/s', baseline, ratio: round(load.requestsPerSecond / baseline, 3) },
          { name: 'response size', value: bytes, unit: 'bytes' },
          { name: 'latency p99', value: load.latencyP99Ms, unit: 'ms' },
        ],
        notes: [`${count} users listed; ${CONNECTIONS} connections, ${DURATION_SECONDS} s`],
      };
    } finally {
      await parley.stop();
    }
  },
};
