/**
 * Every setting is checked at start: a bad one is one line naming the variable, the value and
 * what is allowed, with exit code 2 and no stack trace — through the real process for the cases
 * the server itself meets (a port number, a data directory), and through the same two functions
 * main.ts uses (configFromEnv, startupFailure) for every other setting.
 */
import { test } from 'tap';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { configFromEnv } from '../../src/config.js';
import { startupFailure } from '../../src/startup-failure.js';
import { runToExit } from '../helpers/process.js';
import { freePort, tempDataDir } from '../helpers/server.js';


test('the real process: a bad port number and an unusable data directory', async (t) => {
  const scratch = tempDataDir();
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  const base = { PARLEY_DATA_DIR: join(scratch, 'data'), PARLEY_PORT: String(await freePort()) };
  const cases: [Record<string, string>, string][] = [
    // With PARLEY_EXTERNAL_URL set, 99999 used to start on a random port without a word.
    [{ PARLEY_PORT: '99999', PARLEY_EXTERNAL_URL: 'https://chat.example.com' }, 'PARLEY_PORT="99999" is not usable: a whole number from 1 to 65535'],
    [{ PARLEY_DATA_DIR: '/proc/nope' }, 'PARLEY_DATA_DIR="/proc/nope" is not usable: /proc/nope: the parent cannot hold directories'],
  ];
  const runs = await Promise.all(cases.map(([env]) => runToExit({ ...base, ...env })));
  for (const [i, [env, message]] of cases.entries()) {
    t.equal(runs[i]!.code, 2, `exit 2: ${JSON.stringify(env)}`);
    t.equal(runs[i]!.stderr, `Parley cannot start: ${message}\n`, 'one line, no stack trace');
    t.notMatch(runs[i]!.stdout, /listening/);
  }
});

test('every setting: a bad value is refused in one line naming it', async (t) => {
  const cases: [Record<string, string>, string][] = [
    [{ PARLEY_PORT: '99999' }, 'PARLEY_PORT="99999" is not usable: a whole number from 1 to 65535'],
    [{ PARLEY_PORT: 'http' }, 'PARLEY_PORT="http" is not usable: a whole number from 1 to 65535'],
    [{ PARLEY_PORT: '0' }, 'PARLEY_PORT="0" is not usable: a whole number from 1 to 65535'],
    [{ PARLEY_HOST: 'not a host' }, 'PARLEY_HOST="not a host" is not usable: an IP address'],
    [{ PARLEY_LOG_LEVEL: 'loud' }, 'PARLEY_LOG_LEVEL="loud" is not usable: one of fatal, error, warn, info, debug, trace, silent'],
    [{ PARLEY_EXTERNAL_URL: 'chat.example.com' }, 'PARLEY_EXTERNAL_URL="chat.example.com" is not usable: an http:// or https:// URL'],
    [{ PARLEY_EXTERNAL_URL: 'ftp://chat.example.com' }, 'PARLEY_EXTERNAL_URL="ftp://chat.example.com" is not usable: an http:// or https:// URL'],
    [{ PARLEY_SYNC: 'maybe' }, 'PARLEY_SYNC="maybe" is not usable: 1 or 0'],
    [{ PARLEY_DEMO: 'please' }, 'PARLEY_DEMO="please" is not usable: 1 or 0'],
    [{ PARLEY_RATE_LIMIT: '2' }, 'PARLEY_RATE_LIMIT="2" is not usable: 1 or 0'],
    [{ PARLEY_BODY_LIMIT: '1mb' }, 'PARLEY_BODY_LIMIT="1mb" is not usable: a whole number from 1024'],
    [{ PARLEY_HEARTBEAT_SECONDS: '0' }, 'PARLEY_HEARTBEAT_SECONDS="0" is not usable: a number of seconds from 0.1'],
    [{ PARLEY_QUEUE_IDLE_SECONDS: 'ten' }, 'PARLEY_QUEUE_IDLE_SECONDS="ten" is not usable: a number of seconds'],
    [{ PARLEY_ORGANIZATION_IDLE_SECONDS: '0.5' }, 'PARLEY_ORGANIZATION_IDLE_SECONDS="0.5" is not usable: a number of seconds from 1'],
    [{ PARLEY_SWEEP_SECONDS: '-5' }, 'PARLEY_SWEEP_SECONDS="-5" is not usable: a number of seconds'],
    [{ PARLEY_METRICS_PORT: '70000' }, 'PARLEY_METRICS_PORT="70000" is not usable: a whole number from 0 to 65535'],
    [{ PARLEY_PUSH_BOUNCER_URL: 'push.zulipchat.com' }, 'PARLEY_PUSH_BOUNCER_URL="push.zulipchat.com" is not usable: an http:// or https:// URL'],
    [{ PARLEY_SMTP_HOST: 'smtp.example.com', PARLEY_SMTP_PORT: '0' }, 'PARLEY_SMTP_PORT="0" is not usable: a whole number from 1 to 65535'],
    [{ PARLEY_SMTP_HOST: 'smtp.example.com', PARLEY_SMTP_SECURE: 'tls' }, 'PARLEY_SMTP_SECURE="tls" is not usable: 1 or 0'],
    [{ PARLEY_INVITATION_VALIDITY_MINUTES: '0' }, 'PARLEY_INVITATION_VALIDITY_MINUTES="0" is not usable: a whole number from 1'],
    [{ PARLEY_INVITES_DAILY_MAX: '-1' }, 'PARLEY_INVITES_DAILY_MAX="-1" is not usable: a whole number from 0'],
    [{ PARLEY_DRAIN_SECONDS: '-1' }, 'PARLEY_DRAIN_SECONDS="-1" is not usable: a number of seconds from 0 to 600'],
    [{ PARLEY_HELPER_THREAD_NICE: '20' }, 'PARLEY_HELPER_THREAD_NICE="20" is not usable: a whole number from 0 to 19'],
    [{ PARLEY_TRUSTED_PROXIES: '10.0.0.0/33' }, 'PARLEY_TRUSTED_PROXIES="10.0.0.0/33" is not usable: IP addresses or CIDR ranges'],
    [{ PARLEY_TRUSTED_PROXIES: '127.0.0.1, proxy.local' }, "('proxy.local' is neither)"],
  ];
  for (const [env, message] of cases) {
    let failure;
    try {
      configFromEnv(env);
    } catch (error) {
      failure = startupFailure(error);
    }
    t.equal(failure?.exitCode, 2, `refused: ${JSON.stringify(env)}`);
    t.match(failure?.line, message);
    t.notMatch(failure?.line, /\n/, 'one line');
  }
  const good = configFromEnv({ PARLEY_PORT: '443', PARLEY_SYNC: 'off', PARLEY_TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8 ::1', PARLEY_EXTERNAL_URL: 'https://chat.example.com/' });
  t.match(good, { port: 443, sync: false, externalUrl: 'https://chat.example.com' }, 'good values are read');
  t.equal(good.trustedProxies.length, 3);
  t.match(configFromEnv({}), { port: 9991, drainSeconds: 5, trustedProxies: [] }, 'the defaults');
});
