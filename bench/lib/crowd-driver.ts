/**
 * Runs the simulated people of the `mixed` scenario in one or more load-generator processes
 * (crowd-worker.ts, forked: they inherit the runner's core) and merges what they report.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CrowdPerson, StepPlan, StepStats } from './crowd.js';
import type { WorkerCommand } from './crowd-worker.js';
import type { ActionKind } from './crowd-actions.js';

const WORKER = fileURLToPath(new URL('./crowd-worker.js', import.meta.url));

class Worker {
  private readonly child: ChildProcess;
  private pending: { resolve: (reply: unknown) => void; reject: (error: Error) => void } | undefined;

  constructor() {
    this.child = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: ['--max-old-space-size=2048'] });
    this.child.on('message', (message: { ok: boolean; reply?: unknown; error?: string }) => {
      const pending = this.pending;
      this.pending = undefined;
      if (message.ok) pending?.resolve(message.reply);
      else pending?.reject(new Error(`load-generator process: ${message.error}`));
    });
    this.child.on('exit', (code) => this.pending?.reject(new Error(`load-generator process exited with ${code}`)));
  }

  ask<T>(command: WorkerCommand): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending = { resolve: resolve as (reply: unknown) => void, reject };
      this.child.send(command);
    });
  }

  get pid(): number {
    return this.child.pid!;
  }
}

/** Merged figures of every load-generator process for one step. */
export interface CrowdStep {
  latencies: Partial<Record<ActionKind, number[]>>;
  errors: Partial<Record<ActionKind | 'poll', number>>;
  errorSamples: string[];
  skipped: StepStats['skipped'];
  posts: number;
  deliveriesExpected: number;
  deliveriesReceived: number;
  /** Posts whose deliveries differ from the expected count (received − expected summed per post, both ways). */
  missing: number;
  extra: number;
  pollAnswers: number;
  pollBytes: number;
  /** CPU seconds of the load-generator processes in the measured window, and its length. */
  clientCpuSeconds: number;
  measuredSeconds: number;
  connections: number;
}

export class CrowdDriver {
  private constructor(private readonly workers: Worker[]) {}

  /** Spreads `people` over `processes` load generators (person i to process i mod n). */
  static async start(port: number, people: readonly CrowdPerson[], processes: number): Promise<CrowdDriver> {
    const workers = Array.from({ length: processes }, () => new Worker());
    await Promise.all(workers.map((worker, w) => worker.ask({ type: 'init', port, people: people.filter((_, i) => i % processes === w), seed: 1000 + w })));
    return new CrowdDriver(workers);
  }

  get pids(): number[] {
    return this.workers.map((w) => w.pid);
  }

  /** Registers queues and parks polls for the people below `active` who have none. */
  async prepare(active: number): Promise<{ registerMs: number[]; errors: number; errorSamples: string[] }> {
    const replies = await Promise.all(this.workers.map((w) => w.ask<{ registerMs: number[]; errors: Record<string, number>; errorSamples: string[] }>({ type: 'prepare', active })));
    return {
      registerMs: replies.flatMap((r) => r.registerMs),
      errors: replies.reduce((sum, r) => sum + Object.values(r.errors).reduce((a, b) => a + b, 0), 0),
      errorSamples: replies.flatMap((r) => r.errorSamples),
    };
  }

  async run(step: StepPlan): Promise<CrowdStep> {
    const replies = await Promise.all(this.workers.map((w) => w.ask<StepStats>({ type: 'run', step })));
    const merged: CrowdStep = { latencies: {}, errors: {}, errorSamples: [], skipped: {}, posts: 0, deliveriesExpected: 0, deliveriesReceived: 0, missing: 0, extra: 0, pollAnswers: 0, pollBytes: 0, clientCpuSeconds: 0, measuredSeconds: 0, connections: 0 };
    const received = new Map<number, number>();
    for (const reply of replies) {
      for (const [kind, values] of Object.entries(reply.latencies) as Array<[ActionKind, number[]]>) (merged.latencies[kind] ??= []).push(...values);
      for (const [kind, count] of Object.entries(reply.errors) as Array<[ActionKind, number]>) merged.errors[kind] = (merged.errors[kind] ?? 0) + count;
      for (const [kind, count] of Object.entries(reply.skipped) as Array<[keyof StepStats['skipped'], number]>) merged.skipped[kind] = (merged.skipped[kind] ?? 0) + count;
      merged.errorSamples.push(...reply.errorSamples);
      for (const [id, count] of reply.received) received.set(id, (received.get(id) ?? 0) + count);
      merged.pollAnswers += reply.pollAnswers;
      merged.pollBytes += reply.pollBytes;
      merged.clientCpuSeconds += reply.cpuSeconds;
      merged.measuredSeconds = Math.max(merged.measuredSeconds, reply.measuredSeconds);
      merged.connections += reply.connections;
    }
    for (const reply of replies) {
      for (const [id, expected] of reply.posts) {
        const got = received.get(id) ?? 0;
        merged.posts++;
        merged.deliveriesExpected += expected;
        merged.deliveriesReceived += got;
        if (got < expected) merged.missing += expected - got;
        if (got > expected) merged.extra += got - expected;
      }
    }
    return merged;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.ask({ type: 'close' }).catch(() => undefined)));
  }
}
