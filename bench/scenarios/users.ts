/** `GET /users` in an organization of 1,000 users: formatting many user objects per request. */
import { bodySize, fromRounds } from '../lib/baseline.js';
import { startParley } from '../lib/processes.js';
import type { Scenario } from '../lib/scenario.js';
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
      const path = '/api/v1/users';
      const bytes = await bodySize(parley.url + path, { headers });
      const outcome = await context.throughput({ name: 'requests/s', unit: 'req/s', parley, bareBytes: bytes, load: { path, headers, connections: CONNECTIONS } });
      return {
        scenario: 'users',
        description: this.description,
        figures: [
          outcome.figure,
          { name: 'response size', value: bytes, unit: 'bytes' },
          fromRounds('latency p99', 'ms', outcome, (r) => r.latencyP99Ms),
        ],
        notes: [`${count} users listed; Parley: ${CONNECTIONS} connections; the bare server answers with as many bytes (${bytes})`],
      };
    } finally {
      await parley.stop();
    }
  },
};
