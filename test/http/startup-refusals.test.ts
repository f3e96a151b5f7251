/**
 * Start-ups the environment does not allow end with a sentence and exit code 2: a volume with
 * less free space than PARLEY_MIN_FREE_MB (saying how much is missing), and a data directory
 * another server holds (naming it), instead of failing inside LevelDB.
 */
import { test } from 'tap';
import { durableServerEnv, killAndRemove, runToExit, startProcess } from '../helpers/process.js';
import { freePort } from '../helpers/server.js';
import { rmSync } from 'node:fs';

test('a volume without enough free space: exit 2, saying how much is missing', async (t) => {
  const { dataDir, env } = await durableServerEnv({ PARLEY_MIN_FREE_MB: String(1024 * 1024 * 1024) });
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const { code, stderr } = await runToExit(env);
  t.equal(code, 2);
  t.match(stderr, new RegExp(`not enough free space for the data directory ${dataDir}: [\\d.]+ MiB free on its volume, [\\d.]+ MiB needed; free at least [\\d.]+ MiB more`));
  t.notMatch(stderr, /\n\s+at /, 'a sentence, not a stack');
});

test('a data directory held by another server: exit 2, naming it', async (t) => {
  const { dataDir, env } = await durableServerEnv();
  const first = await startProcess(env);
  t.teardown(() => killAndRemove(first.child, dataDir));
  const { code, stderr } = await runToExit({ ...env, PARLEY_PORT: String(await freePort()) });
  t.equal(code, 2);
  t.match(stderr, `PARLEY_DATA_DIR="${dataDir}" is not usable: ${dataDir}: the database is locked by another process`);
});
