/**
 * The event loop first (src/ops/helper-threads.ts): in the real server process, every thread but
 * the main one runs PARLEY_HELPER_THREAD_NICE (10 unless set) nice levels below the main thread,
 * which keeps the priority it started with (this runner's: a test run under `nice` stays right),
 * and with 0 every thread stays at the same priority. Linux only (it reads /proc).
 */
import { test } from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { durableServerEnv, killAndRemove, startProcess } from '../helpers/process.js';

/** Each thread's nice value, by thread id (field 19 of /proc/<pid>/task/<tid>/stat). */
function niceByThread(pid: number): Map<number, number> {
  const nice = new Map<number, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      nice.set(Number(task), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return nice;
}

/** Waits (up to `limitMs`) until every thread but the main one has `helpers`; the last reading. */
async function settled(pid: number, helpers: number, limitMs = 30_000): Promise<Map<number, number>> {
  const until = Date.now() + limitMs;
  for (;;) {
    const nice = niceByThread(pid);
    const others = [...nice].filter(([tid]) => tid !== pid);
    if (others.every(([, value]) => value === helpers) || Date.now() > until) return nice;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const linux = existsSync('/proc/self/task');

test('helper threads yield the core to the event loop', { skip: linux ? false : 'needs Linux /proc' }, async (t) => {
  const base = getPriority(process.pid);
  // The three settings on three servers at once (each start takes seconds).
  const cases = [[undefined, 10], ['15', 15], ['0', 0]] as const;
  const readings = await Promise.all(cases.map(async ([setting, levels]) => {
    const expected = Math.min(19, base + levels);
    const { dataDir, env } = await durableServerEnv(setting === undefined ? {} : { PARLEY_HELPER_THREAD_NICE: setting });
    const server = await startProcess(env);
    try {
      // A login reads the store: LevelDB's threads and libuv's pool are at work.
      const key = await (await fetch(`${server.url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: 'iago@example.com', password: 'parley-demo' }) })).json() as { api_key: string };
      const pid = server.child.pid!;
      return { setting, expected, answered: Boolean(key.api_key), pid, nice: await settled(pid, expected) };
    } finally {
      await killAndRemove(server.child, dataDir);
    }
  }));
  for (const { setting, expected, answered, pid, nice } of readings) {
    const name = setting ?? 'unset';
    const others = [...nice].filter(([tid]) => tid !== pid).map(([, value]) => value);
    t.ok(answered, `${name}: the server answers`);
    t.ok(others.length >= 4, `${name}: helper threads exist (${others.length})`);
    t.equal(nice.get(pid), base, `${name}: the main thread at the priority it started with (${base})`);
    t.same([...new Set(others)], [expected], `${name}: every other thread at ${expected}`);
  }
});
