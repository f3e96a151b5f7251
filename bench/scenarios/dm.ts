/** `POST /messages` direct messages between pairs of 1,000 users. */
import { bodySize, fromRounds } from '../lib/baseline.js';
import { startParley } from '../lib/processes.js';
import type { Scenario } from '../lib/scenario.js';
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
      // Deterministic pairs that cover every user: i writes to i + 1 + (i mod 7); requests take them in turn.
      const variants = people.map((from, i) => ({
        headers: { authorization: basicAuth(from) },
        body: `type=direct&to=${encodeURIComponent(JSON.stringify([people[(i + 1 + (i % 7)) % USERS].id]))}&content=hello`,
      }));
      const path = '/api/v1/messages';
      const headers = { 'content-type': 'application/x-www-form-urlencoded' };
      const bareBytes = await bodySize(parley.url + path, { method: 'POST', headers: { ...headers, ...variants[0].headers }, body: variants[0].body });
      const outcome = await context.throughput({
        name: 'messages/s',
        unit: 'msg/s',
        parley,
        bareBytes,
        load: { method: 'POST', path, headers, variants, connections: CONNECTIONS },
      });
      return {
        scenario: 'dm',
        description: this.description,
        figures: [outcome.figure, fromRounds('latency p99', 'ms', outcome, (r) => r.latencyP99Ms)],
        notes: [`durable (PARLEY_SYNC=1); Parley: ${CONNECTIONS} connections; nobody holds a queue; the bare server reads the same bodies`],
      };
    } finally {
      await parley.stop();
    }
  },
};
