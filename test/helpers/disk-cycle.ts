/**
 * Full-disk cycles against the real server process on a real small volume (a tmpfs mounted for
 * the run; root only): a load of sends and reactions runs while the volume is filled and freed,
 * then `kill -9` (sometimes while the disk is still full: the restart must refuse with exit code
 * 2 until space is freed) and a restart. Every acknowledged write and id is counted, /health is
 * checked against what writes see, and at the end everything acknowledged must be there once.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { login, type Api } from './client.js';
import { freePort, TEST_NODE_ARGS, childEnv } from './temp.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface DiskCycleOptions {
  cycles: number;
  seed: number;
  /** Size of the volume (MiB). */
  sizeMb: number;
  workers: number;
  /**
   * Per cycle, whether the kill comes while the disk is still full (else after it was freed and
   * writes recovered); by default drawn (30%). The workers draw from the same generator, so the
   * draw depends on timing: a short run names its cycles to go through both paths every time.
   */
  killWhileFull?: readonly boolean[];
  /** Where the volume is mounted (created, and removed afterwards). */
  mountDir: string;
  /** The server to run (default: this tree's dist/src/main.js), to measure another build. */
  serverScript?: string;
  log?: (line: string) => void;
}

export interface DiskReport {
  /** Set when the run could not happen (not root, mount refused): the reason. */
  skipped?: string;
  cycles: number;
  kills: number;
  /** Restarts refused with exit code 2 because the disk was still full. */
  refusedStarts: number;
  acknowledged: { messages: number; reactions: number };
  /** Answers to writes by status (network errors of a killed server are not counted). */
  statuses: Record<string, number>;
  /** Free → /health ok again, without a restart (ms). */
  recoveryMs: number[];
  restartMs: number[];
  problems: string[];
}

/** mulberry32, so that a run can be repeated. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Mounts a tmpfs of `sizeMb` at `dir`; the reason when it cannot. */
export function mountVolume(dir: string, sizeMb: number): string | undefined {
  if (typeof process.getuid === 'function' && process.getuid() !== 0) return 'not running as root: mounting a tmpfs needs root';
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return `mount -t tmpfs refused: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`;
  }
}

export function unmountVolume(dir: string): void {
  try {
    execFileSync('umount', [dir], { stdio: 'pipe' });
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // left for the operator to see
  }
}

/** Fills the volume with a file until ENOSPC; returns the bytes written. */
function fill(path: string): number {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(256 * 1024, 7);
  let written = 0;
  try {
    for (;;) written += writeSync(fd, chunk);
  } catch {
    // ENOSPC: full. Top up the last bytes with small writes.
    const small = Buffer.alloc(4096, 7);
    try {
      for (;;) written += writeSync(fd, small);
    } catch {
      // full to the block
    }
  } finally {
    closeSync(fd);
  }
  return written;
}

interface Spawned {
  child: ChildProcess;
  ready: Promise<number>;
  exited: Promise<number | null>;
  stderr: string[];
  /** How it ended, once it has (for the report: a crash and a hang look alike from /health). */
  ending?: string;
}

function spawnServer(script: string, env: Record<string, string>, logPath: string): Spawned {
  const started = performance.now();
  // Its log (stderr) goes to the volume that fills up: logging must never block or kill it.
  const logFd = openSync(logPath, 'a');
  const child = spawn(process.execPath, [...TEST_NODE_ARGS, script], { cwd: REPO_ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', logFd] });
  closeSync(logFd);
  const stderr: string[] = [];
  const spawned: Spawned = { child, ready: Promise.resolve(0), exited: Promise.resolve(null), stderr };
  spawned.exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => {
    spawned.ending = `exit code ${code}, signal ${signal}`;
    resolve(code);
  }));
  const exited = spawned.exited;
  const ready = new Promise<number>((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      if (/Parley listening on \S+/.test(buffered)) resolve(performance.now() - started);
    });
    void exited.then((code) => reject(Object.assign(new Error(`server exited (${code})`), { exitCode: code })));
  });
  ready.catch(() => {});
  spawned.ready = ready;
  return spawned;
}

async function kill(server: Spawned): Promise<void> {
  server.child.kill('SIGKILL');
  await server.exited;
}

async function healthStatus(url: string): Promise<{ status: number; body: any } | undefined> {
  try {
    const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5000) });
    return { status: response.status, body: await response.json() };
  } catch {
    return undefined;
  }
}

export async function runDiskCycles(options: DiskCycleOptions): Promise<DiskReport> {
  const log = options.log ?? (() => {});
  const rand = random(options.seed);
  const report: DiskReport = { cycles: 0, kills: 0, refusedStarts: 0, acknowledged: { messages: 0, reactions: 0 }, statuses: {}, recoveryMs: [], restartMs: [], problems: [] };
  const problem = (text: string) => {
    if (report.problems.length < 200) report.problems.push(text);
  };
  const refusal = mountVolume(options.mountDir, options.sizeMb);
  if (refusal) return { ...report, skipped: refusal };
  const dataDir = join(options.mountDir, 'data');
  const filler = join(options.mountDir, 'filler');
  const logPath = join(options.mountDir, 'server.log');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const script = options.serverScript ?? 'dist/src/main.js';
  const env = { PARLEY_DATA_DIR: dataDir, PARLEY_PORT: String(port), PARLEY_DEMO: '1', PARLEY_RATE_LIMIT: '0', PARLEY_SYNC: '1', PARLEY_LOG_LEVEL: 'warn' };
  let server = spawnServer(script, env, logPath);
  let up = false;
  let stopping = false;
  try {
    await server.ready;
    up = true;
    const hamlet = await login(url, 'hamlet@example.com');
    const iago = await login(url, 'iago@example.com');
    const messages = new Map<number, string>();
    const reactions = new Set<string>();
    /** Reactions being added: one request per message at a time. */
    const reacting = new Set<string>();
    const contents = new Set<string>();
    let maxAcked = 0;
    let counter = 0;
    /** A write's answer: counted; anything but 200 or 503 is a problem. */
    const answered = (what: string, status: number, body: unknown) => {
      report.statuses[status] = (report.statuses[status] ?? 0) + 1;
      if (status !== 200 && status !== 503) problem(`${what} answered ${status}: ${JSON.stringify(body).slice(0, 300)}`);
      if (status === 503 && (body as { code?: string })?.code !== 'SERVER_NOT_READY') problem(`${what} answered 503 without SERVER_NOT_READY: ${JSON.stringify(body).slice(0, 300)}`);
    };
    const worker = async (w: number, api: Api) => {
      while (!stopping) {
        if (!up) {
          await sleep(5);
          continue;
        }
        try {
          const ids = [...messages.keys()];
          if (rand() < 0.75 || ids.length === 0) {
            const content = `d${report.cycles}-w${w}-${counter++}`;
            contents.add(content);
            const response = await api.post('/messages', { type: 'stream', to: 'Denmark', topic: `disk ${w}`, content });
            answered('a send', response.status, response.body);
            // Refused (the disk is full): a pause, not a spin of refusals that only costs CPU.
            if (response.status === 503) await sleep(20);
            if (response.status === 200) {
              const id = response.body.id as number;
              const known = messages.get(id);
              if (known !== undefined && known !== content) problem(`message id ${id} acknowledged twice: '${known}' and '${content}'`);
              messages.set(id, content);
              maxAcked = Math.max(maxAcked, id);
            }
          } else {
            const id = ids[Math.floor(rand() * ids.length)]!;
            const key = `${id}:octopus`;
            if (reactions.has(key) || reacting.has(key)) continue;
            reacting.add(key);
            try {
              const response = await iago.post(`/messages/${id}/reactions`, { emoji_name: 'octopus' });
              // Refused before a kill, it may still be there from an attempt cut off earlier: not a problem.
              if (response.body?.code === 'REACTION_ALREADY_EXISTS') continue;
              answered('a reaction', response.status, response.body);
              if (response.status === 200) reactions.add(key);
              if (response.status === 503) await sleep(20);
            } finally {
              reacting.delete(key);
            }
          }
        } catch {
          await sleep(5); // cut off by the kill: not acknowledged
        }
      }
    };
    const workers = Array.from({ length: options.workers }, (_, w) => worker(w, w % 2 === 0 ? hamlet : iago));

    for (let cycle = 0; cycle < options.cycles; cycle++) {
      report.cycles = cycle + 1;
      await sleep(300 + rand() * 1200);
      const filled = fill(filler);
      const failedBefore = report.statuses[503] ?? 0;
      const fullUntil = Date.now() + 800 + rand() * 1500;
      // While full: once a write was refused, /health must say so (nothing can recover without room).
      while (Date.now() < fullUntil) {
        await sleep(100);
        if ((report.statuses[503] ?? 0) === failedBefore) continue;
        const health = await healthStatus(url);
        if (health && health.status !== 503) problem(`cycle ${cycle + 1}: /health answered ${health.status} while the disk was full and writes were refused`);
      }
      const drawn = rand() < 0.3;
      const killWhileFull = options.killWhileFull?.[cycle] ?? drawn;
      if (!killWhileFull) {
        unlinkSync(filler);
        const freedAt = performance.now();
        for (;;) {
          const health = await healthStatus(url);
          if (health?.status === 200) break;
          if (performance.now() - freedAt > 60_000) {
            const log = existsSync(logPath) ? readFileSync(logPath, 'utf8').trim().split('\n').slice(-40).join(' | ') : 'no log';
            problem(`cycle ${cycle + 1}: /health not ok 60 s after the disk was freed: ${JSON.stringify(health?.body)}; server ${server.ending ?? 'running'}; its log ends: ${log}`);
            break;
          }
          await sleep(20);
        }
        report.recoveryMs.push(performance.now() - freedAt);
        await sleep(200 + rand() * 800); // writes resume without a restart
      }
      up = false;
      await kill(server);
      report.kills++;
      if (killWhileFull) {
        // A start on a full volume must refuse with exit code 2 and say how much is missing.
        const refused = spawnServer(script, env, logPath);
        const code = await refused.exited;
        if (code === 2) report.refusedStarts++;
        else problem(`cycle ${cycle + 1}: a start on a full disk exited with ${code}, not 2`);
        unlinkSync(filler);
      }
      server = spawnServer(script, env, logPath);
      try {
        report.restartMs.push(await server.ready);
      } catch (error) {
        problem(`cycle ${cycle + 1}: restart failed: ${(error as Error).message}`);
        throw error;
      }
      // No id is handed out again: the next message's id is above every acknowledged one.
      const probe = await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 'probe', content: `probe ${cycle}` });
      if (probe.status === 200 && probe.body.id <= maxAcked) problem(`cycle ${cycle + 1}: id ${probe.body.id} handed out again (acknowledged up to ${maxAcked})`);
      if (probe.status === 200) maxAcked = Math.max(maxAcked, probe.body.id);
      up = true;
      log(`cycle ${cycle + 1}/${options.cycles}: filled ${(filled / 1048576).toFixed(1)} MiB, ${killWhileFull ? 'killed while full' : `recovered in ${report.recoveryMs.at(-1)!.toFixed(0)} ms`}, restarted in ${report.restartMs.at(-1)!.toFixed(0)} ms; ${messages.size} messages acknowledged`);
    }
    stopping = true;
    await Promise.all(workers);

    // Everything acknowledged is there, once, with its id.
    const stored = new Map<number, string>();
    const storedReactions = new Map<number, number>();
    let anchor: string | number = 'oldest';
    for (;;) {
      const response = await iago.get('/messages', { anchor: String(anchor), include_anchor: anchor === 'oldest', num_before: 0, num_after: 1000, narrow: [['channel', 'Denmark']], apply_markdown: false });
      if (response.status !== 200) {
        problem(`reading messages failed: ${JSON.stringify(response.body)}`);
        break;
      }
      for (const m of response.body.messages as any[]) {
        if (stored.has(m.id)) problem(`message ${m.id} listed twice`);
        stored.set(m.id, m.content);
        storedReactions.set(m.id, (m.reactions as any[]).filter((r) => r.emoji_name === 'octopus').length);
      }
      if (response.body.found_newest || response.body.messages.length === 0) break;
      anchor = response.body.messages.at(-1).id;
    }
    const seen = new Map<string, number>();
    for (const content of stored.values()) if (contents.has(content)) seen.set(content, (seen.get(content) ?? 0) + 1);
    for (const [content, n] of seen) if (n > 1) problem(`'${content}' is stored ${n} times`);
    for (const [id, content] of messages) {
      const found = stored.get(id);
      if (found === undefined) problem(`acknowledged message ${id} ('${content}') is missing`);
      else if (found !== content) problem(`message ${id} holds '${found}', acknowledged as '${content}'`);
    }
    for (const key of reactions) {
      const id = Number(key.split(':')[0]);
      if (storedReactions.get(id) !== 1) problem(`acknowledged reaction on ${id} is there ${storedReactions.get(id) ?? 0} times`);
    }
    report.acknowledged = { messages: messages.size, reactions: reactions.size };
    return report;
  } finally {
    stopping = true;
    up = false;
    await kill(server);
    unmountVolume(options.mountDir);
  }
}
