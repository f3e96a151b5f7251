/** `GET /users/me` with Basic auth: the cost of the HTTP front, authentication and the envelope. */
import { bodySize, fromRounds } from '../lib/baseline.js';
import { startParley } from '../lib/processes.js';
import type { Scenario } from '../lib/scenario.js';
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
      const path = '/api/v1/users/me';
      const bareBytes = await bodySize(parley.url + path, { headers });
      const outcome = await context.throughput({ name: 'requests/s', unit: 'req/s', parley, bareBytes, load: { path, headers, connections: CONNECTIONS } });
      return {
        scenario: 'auth-read',
        description: this.description,
        figures: [
          outcome.figure,
          fromRounds('latency p50', 'ms', outcome, (r) => r.latencyP50Ms),
          fromRounds('latency p99', 'ms', outcome, (r) => r.latencyP99Ms),
        ],
        notes: [`Parley: ${CONNECTIONS} connections; answers of ${bareBytes} bytes from both servers; ${context.settings.rounds} alternated rounds of ${context.settings.durationSeconds} s after a 1 s warm-up`],
      };
    } finally {
      await parley.stop();
    }
  },
};
