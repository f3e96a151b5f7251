/** Starts real servers for tests: a free port, a temporary data directory, the demo organization. */
import { rmSync } from 'node:fs';
import { pino } from 'pino';
import { configFromEnv, type Config } from '../../src/config.js';
import { ConfigError } from '../../src/config-values.js';
import { startServer, type RunningServer } from '../../src/server.js';
import type { Clock } from '../../src/services.js';
import { apiEmail } from '../../src/domain/users.js';
import { setPasswordHashCost } from '../../src/domain/credentials.js';
import { Api } from './client.js';
import { freePort, tempDataDir } from './temp.js';

// Servers started in a test process hash passwords at the test cost (see credentials.ts): the unit
// test checks the production cost, and a test that needs a slow check sets 'full' again.
setPasswordHashCost('test');

export { freePort, tempDataDir } from './temp.js';

export interface TestServer extends RunningServer {
  dataDir: string;
  config: Config;
  /** Lines the server printed (ready line, first-start credentials). */
  printed: string[];
  /** Stops the server and starts a new one on the same data directory and port. */
  restart(env?: Record<string, string>): Promise<TestServer>;
  /** Stops the server and deletes its data. */
  destroy(): Promise<void>;
}

export async function startTestServer(
  env: Record<string, string> = {},
  options: { dataDir?: string; port?: number; clock?: Clock } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDataDir();
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    try {
      return await startOn(port, dataDir, env, options.clock);
    } catch (error) {
      // Another test process may take the port between freePort's probe and the listen: a port of
      // our own choosing is chosen again (the data directory is reused as by a restart).
      const taken = error instanceof ConfigError && error.variable === 'PARLEY_PORT';
      if (!taken || options.port !== undefined || env.PARLEY_PORT !== undefined || attempt === 5) throw error;
    }
  }
}

async function startOn(port: number, dataDir: string, env: Record<string, string>, clock: Clock | undefined): Promise<TestServer> {
  const config = configFromEnv({
    PARLEY_DATA_DIR: dataDir,
    PARLEY_PORT: String(port),
    PARLEY_DEMO: '1',
    PARLEY_SYNC: '0',
    PARLEY_RATE_LIMIT: '0',
    PARLEY_DRAIN_SECONDS: '0',
    ...env,
  });
  const printed: string[] = [];
  const server = await startServer(config, { logger: pino({ level: 'silent' }), print: (line) => printed.push(line), clock });
  const test: TestServer = {
    ...server,
    url: server.url,
    port: server.port,
    services: server.services,
    stop: () => server.stop(),
    dataDir,
    config,
    printed,
    async restart(extraEnv = {}) {
      await server.stop();
      return startTestServer({ ...env, ...extraEnv }, { dataDir, port, clock });
    },
    async destroy() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return test;
}

/** A client authenticated as `email`, with the key read from the server's state (no password round-trip). */
export function clientFor(server: RunningServer, email: string): Api {
  const user = server.services.org.users.byEmail(email);
  if (!user) throw new Error(`no user ${email}`);
  return new Api(server.url, apiEmail(user, server.services.org.host), user.apiKey);
}

/** A client for each person of the demo organization. */
export function demoClients(server: RunningServer) {
  const client = (name: string) => clientFor(server, `${name}@example.com`);
  return {
    desdemona: client('desdemona'),
    iago: client('iago'),
    shiva: client('shiva'),
    hamlet: client('hamlet'),
    othello: client('othello'),
    cordelia: client('cordelia'),
    prospero: client('prospero'),
    polonius: client('polonius'),
  };
}
