/**
 * Crash cycles against the real server process: a mixed load (channel and direct sends,
 * reactions, stars, read flags) and a polling event queue, `kill -9` at random moments
 * (recovery included), restart, and at the end a check that every acknowledged write and
 * event is there exactly once and that no message id was handed out twice.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { login } from './client.js';
import { freePort, tempDataDir, TEST_NODE_ARGS, childEnv } from './temp.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface CrashOptions {
  cycles: number;
  seed: number;
  /** Load time before each kill is drawn from this range (ms). */
  loadMs: [number, number];
  /**
   * Each cycle's load also goes on until this many writes were acknowledged in it, however
   * slow the machine is, so that every kill falls on a server that was working.
   */
  minWritesPerCycle?: number;
  /** Chance that a restart is itself killed before its ready line. */
  recoveryKillChance: number;
  workers: number;
  log?: (line: string) => void;
}

export interface CrashReport {
  seed: number;
  cycles: number;
  kills: number;
  /** Kills that hit a server before it printed its ready line. */
  recoveryKills: number;
  acknowledged: { messages: number; reactions: number; stars: number; reads: number; events: number };
  /** Spawn → ready line of each restart after a crash (ms). */
  restartMs: number[];
  /** Spawn → ready line after a graceful stop, same data (ms). */
  cleanStartMs: number;
  problems: string[];
}

/** mulberry32: a small seeded generator, so that a run can be repeated. */
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

interface Spawned {
  child: ChildProcess;
  spawnedAt: number;
  /** Resolves with spawn → ready in ms; rejects if the process exits first. */
  ready: Promise<number>;
  exited: Promise<void>;
  stderr: string[];
}

function spawnServer(env: Record<string, string>): Spawned {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [...TEST_NODE_ARGS, 'dist/src/main.js'], { cwd: REPO_ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<number>((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      if (/Parley listening on \S+/.test(buffered)) resolve(performance.now() - spawnedAt);
    });
    void exited.then(() => reject(new Error(`server exited before its ready line (${child.exitCode ?? child.signalCode}): ${stderr.join('').slice(-2000)}`)));
  });
  ready.catch(() => {});
  return { child, spawnedAt, ready, exited, stderr };
}

async function kill(server: Spawned): Promise<void> {
  server.child.kill('SIGKILL');
  await server.exited;
}

interface Sent {
  content: string;
  /** `channel` messages go to Denmark (hamlet), `dm` from othello to iago. */
  kind: 'channel' | 'dm';
}

export async function runCrashCycles(options: CrashOptions): Promise<CrashReport> {
  const log = options.log ?? (() => {});
  const rand = random(options.seed);
  const between = ([low, high]: [number, number]) => low + rand() * (high - low);
  const dataDir = tempDataDir();
  const port = await freePort();
  const env = {
    PARLEY_DATA_DIR: dataDir,
    PARLEY_PORT: String(port),
    PARLEY_DEMO: '1',
    PARLEY_RATE_LIMIT: '0',
    PARLEY_SYNC: '1',
    PARLEY_HEARTBEAT_SECONDS: '2',
    PARLEY_LOG_LEVEL: 'error',
    PARLEY_DRAIN_SECONDS: '0',
  };
  const report: CrashReport = {
    seed: options.seed,
    cycles: 0,
    kills: 0,
    recoveryKills: 0,
    acknowledged: { messages: 0, reactions: 0, stars: 0, reads: 0, events: 0 },
    restartMs: [],
    cleanStartMs: 0,
    problems: [],
  };
  const problem = (text: string) => {
    if (report.problems.length < 200) report.problems.push(text);
  };

  let server = spawnServer(env);
  await server.ready;
  let up = true;
  try {
    const url = `http://127.0.0.1:${port}`;
    const hamlet = await login(url, 'hamlet@example.com');
    const othello = await login(url, 'othello@example.com');
    const iago = await login(url, 'iago@example.com');
    const iagoId = (await iago.get('/users/me')).body.user_id as number;

    const registered = await iago.post('/register', { event_types: ['message', 'reaction', 'update_message_flags', 'restart'] });
    if (registered.status !== 200) throw new Error(`register failed: ${JSON.stringify(registered.body)}`);
    const queueId = registered.body.queue_id as string;

    // --- what was acknowledged ---------------------------------------------------------
    const messages = new Map<number, Sent>();
    const reactions = new Set<string>(); // `${messageId}:${emoji}`
    const stars = new Set<number>();
    const reads = new Set<number>();
    const sentContents = new Set<string>();
    let writesAcknowledged = 0;
    const acknowledge = (id: number, sent: Sent) => {
      writesAcknowledged++;
      const known = messages.get(id);
      if (known && known.content !== sent.content) problem(`message id ${id} acknowledged twice: '${known.content}' and '${sent.content}'`);
      messages.set(id, sent);
    };

    // --- the event queue, polled as a client would ----------------------------------------
    let lastEventId = registered.body.last_event_id as number;
    const eventIds = new Set<number>();
    const messageEvents = new Map<number, number>(); // message id → times delivered
    const reactionEvents = new Map<string, number>();
    const starEvents = new Set<number>();
    let restartEvents = 0;
    /** Notes each delivered event once, and any event delivered twice as a problem. */
    const recordEvents = (events: any[]) => {
      for (const event of events) {
        if (event.id <= lastEventId || eventIds.has(event.id)) problem(`event ${event.id} (${event.type}) delivered again`);
        eventIds.add(event.id);
        lastEventId = Math.max(lastEventId, event.id);
        if (event.type === 'message') messageEvents.set(event.message.id, (messageEvents.get(event.message.id) ?? 0) + 1);
        else if (event.type === 'reaction' && event.op === 'add' && event.user_id === iagoId) {
          const key = `${event.message_id}:${event.emoji_name}`;
          reactionEvents.set(key, (reactionEvents.get(key) ?? 0) + 1);
        } else if (event.type === 'update_message_flags' && event.op === 'add' && event.flag === 'starred') {
          for (const id of event.messages as number[]) starEvents.add(id);
        } else if (event.type === 'restart') restartEvents++;
      }
    };
    let stopping = false;
    const poller = (async () => {
      while (!stopping) {
        if (!up) {
          await sleep(10);
          continue;
        }
        let response;
        try {
          response = await iago.get('/events', { queue_id: queueId, last_event_id: lastEventId, dont_block: stopping });
        } catch {
          await sleep(5); // the server died under the poll
          continue;
        }
        if (response.status !== 200) {
          problem(`poll answered ${response.status}: ${JSON.stringify(response.body)}`);
          await sleep(100);
          continue;
        }
        recordEvents(response.body.events as any[]);
      }
    })();

    // --- the load ---------------------------------------------------------------------------
    const EMOJI = ['smile', 'heart', 'octopus', 'tada', 'rocket'];
    let counter = 0;
    const ackedIds = () => [...messages.keys()];
    const worker = async (w: number) => {
      while (!stopping) {
        if (!up) {
          await sleep(5);
          continue;
        }
        const roll = rand();
        try {
          if (roll < 0.45) {
            const content = `c${report.cycles}-w${w}-${counter++} channel`;
            sentContents.add(content);
            const response = await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: `crash ${w}`, content });
            if (response.status === 200) acknowledge(response.body.id, { content, kind: 'channel' });
          } else if (roll < 0.7) {
            const content = `c${report.cycles}-w${w}-${counter++} direct`;
            sentContents.add(content);
            const response = await othello.post('/messages', { type: 'direct', to: [iagoId], content });
            if (response.status === 200) acknowledge(response.body.id, { content, kind: 'dm' });
          } else {
            const ids = ackedIds();
            if (ids.length === 0) {
              await sleep(1);
              continue;
            }
            const id = ids[Math.floor(rand() * ids.length)];
            if (roll < 0.85) {
              const emoji = EMOJI[Math.floor(rand() * EMOJI.length)];
              const key = `${id}:${emoji}`;
              if (reactions.has(key)) {
                await sleep(0);
                continue;
              }
              const response = await iago.post(`/messages/${id}/reactions`, { emoji_name: emoji });
              if (response.status === 200) {
                reactions.add(key);
                writesAcknowledged++;
              }
            } else {
              const flag = roll < 0.93 ? 'starred' : 'read';
              const response = await iago.post('/messages/flags', { messages: [id], op: 'add', flag });
              if (response.status === 200) {
                (flag === 'starred' ? stars : reads).add(id);
                writesAcknowledged++;
              }
            }
          }
        } catch {
          // Cut off by the kill: not acknowledged, so anything goes.
        }
      }
    };
    const workers = Array.from({ length: options.workers }, (_, w) => worker(w));

    // --- the cycles -----------------------------------------------------------------------
    for (let cycle = 0; cycle < options.cycles; cycle++) {
      report.cycles = cycle + 1;
      const writesBefore = writesAcknowledged;
      await sleep(between(options.loadMs));
      // Bounded, so that a server that stopped acknowledging fails the run with a reason, not at tap's timeout.
      const writesUntil = Date.now() + 60_000;
      while (writesAcknowledged - writesBefore < (options.minWritesPerCycle ?? 0) && Date.now() < writesUntil) await sleep(10);
      if (writesAcknowledged - writesBefore < (options.minWritesPerCycle ?? 0)) problem(`cycle ${cycle + 1}: only ${writesAcknowledged - writesBefore} writes acknowledged in 60 s`);
      up = false;
      await kill(server);
      report.kills++;
      for (;;) {
        server = spawnServer(env);
        if (rand() < options.recoveryKillChance) {
          // Kill it while it recovers, before it can answer (if it is not ready already).
          const outcome = await Promise.race([server.ready.then(() => 'ready', () => 'exited'), sleep(between([0, 400])).then(() => 'timer')]);
          if (outcome === 'timer') {
            await kill(server);
            report.kills++;
            report.recoveryKills++;
            continue;
          }
        }
        const ms = await server.ready;
        report.restartMs.push(ms);
        break;
      }
      up = true;
      log(`cycle ${cycle + 1}/${options.cycles}: restarted in ${report.restartMs.at(-1)!.toFixed(0)} ms; ${messages.size} messages acknowledged so far`);
    }

    // --- settle: stop the load, let the queue catch up ---------------------------------------
    await sleep(200);
    stopping = true;
    await Promise.all(workers);
    await poller;
    for (let quiet = 0; quiet < 3; ) {
      const response = await iago.get('/events', { queue_id: queueId, last_event_id: lastEventId, dont_block: true });
      if (response.status !== 200) {
        problem(`final poll answered ${response.status}: ${JSON.stringify(response.body)}`);
        break;
      }
      const events = response.body.events as any[];
      if (events.length === 0) {
        quiet++;
        await sleep(50);
        continue;
      }
      recordEvents(events);
    }

    // --- read everything back -----------------------------------------------------------------
    const stored = new Map<number, { content: string; reactions: string[]; flags: string[] }>();
    const contentCount = new Map<string, number>();
    for (const narrow of [[['channel', 'Denmark']], [['dm', 'othello@example.com']]]) {
      let anchor: string | number = 'oldest';
      for (;;) {
        const response = await iago.get('/messages', { anchor: String(anchor), include_anchor: anchor === 'oldest', num_before: 0, num_after: 1000, narrow });
        if (response.status !== 200) {
          problem(`reading messages failed: ${JSON.stringify(response.body)}`);
          break;
        }
        const page = response.body.messages as any[];
        for (const m of page) {
          if (stored.has(m.id)) problem(`message ${m.id} listed twice`);
          const content = String(m.content).replace(/^<p>|<\/p>$/g, '');
          stored.set(m.id, { content, reactions: (m.reactions as any[]).filter((r) => r.user_id === iagoId).map((r) => r.emoji_name), flags: m.flags });
          if (sentContents.has(content)) contentCount.set(content, (contentCount.get(content) ?? 0) + 1);
        }
        if (response.body.found_newest || page.length === 0) break;
        anchor = page.at(-1).id;
      }
    }
    for (const [id, sent] of messages) {
      const found = stored.get(id);
      if (!found) problem(`acknowledged message ${id} ('${sent.content}') is missing`);
      else if (found.content !== sent.content) problem(`message ${id} holds '${found.content}', acknowledged as '${sent.content}'`);
      if ((messageEvents.get(id) ?? 0) !== 1) problem(`acknowledged message ${id} was delivered to the queue ${messageEvents.get(id) ?? 0} times`);
    }
    for (const [content, n] of contentCount) if (n > 1) problem(`'${content}' is stored ${n} times`);
    for (const key of reactions) {
      const [id, emoji] = key.split(':');
      const found = stored.get(Number(id));
      const n = found?.reactions.filter((e) => e === emoji).length ?? 0;
      if (n !== 1) problem(`acknowledged reaction ${emoji} on ${id} is there ${n} times`);
      if ((reactionEvents.get(key) ?? 0) !== 1) problem(`acknowledged reaction ${key} was delivered to the queue ${reactionEvents.get(key) ?? 0} times`);
    }
    for (const id of stars) {
      if (!stored.get(id)?.flags.includes('starred')) problem(`acknowledged star on ${id} is missing`);
      if (!starEvents.has(id)) problem(`acknowledged star on ${id} never reached the queue`);
    }
    for (const id of reads) if (!stored.get(id)?.flags.includes('read')) problem(`acknowledged read flag on ${id} is missing`);
    const starts = report.restartMs.length;
    if (restartEvents < starts || restartEvents > starts + report.recoveryKills) {
      problem(`${restartEvents} restart events for ${starts} restarts (${report.recoveryKills} killed while recovering)`);
    }
    report.acknowledged = { messages: messages.size, reactions: reactions.size, stars: stars.size, reads: reads.size, events: eventIds.size };

    // --- a clean start of the same data, for comparison ------------------------------------------
    up = false;
    server.child.kill('SIGTERM');
    await server.exited;
    server = spawnServer(env);
    report.cleanStartMs = await server.ready;
    return report;
  } finally {
    up = false;
    await kill(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Median and maximum of a list of durations. */
export function spread(values: readonly number[]): { median: number; max: number; mean: number } {
  if (values.length === 0) return { median: 0, max: 0, mean: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], max: sorted.at(-1)!, mean: sorted.reduce((a, b) => a + b, 0) / sorted.length };
}
