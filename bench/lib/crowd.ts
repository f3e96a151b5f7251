/**
 * Simulated people in one process: each with a registered queue and a parked long-poll, acting on
 * average once every 10 s (exponential gaps) with the mix of crowd-actions.ts, presence every
 * 60 s and typing 2 s before each post. One scheduler loop (a heap and a 5 ms tick) and one pool
 * of kept-alive connections serve every person; per step it counts, per action, the latencies and
 * errors, and per post the deliveries expected against the message events its people received.
 */
import { HttpPool } from './http-pool.js';
import { pickAction, plan, postTarget, postText, presence, registerText, typingText, type ActionKind, type MixedAction, type Person, type PostTarget } from './crowd-actions.js';
import { Poll } from './crowd-poll.js';
import { random } from './text.js';

export interface CrowdPerson {
  index: number;
  userId: number;
  authorization: string;
  channels: number[];
  partners: number[];
  partnerIds: number[];
}

export interface StepPlan {
  /** People with an index below this act (and have queues). */
  active: number;
  warmMs: number;
  measureMs: number;
  /** Per channel id, how many active people are subscribed: the deliveries a post there should make. */
  expectedByChannel: Record<number, number>;
  /** Mean gap between a person's actions (default 10 s). */
  meanGapMs?: number;
}

export interface StepStats {
  /** Milliseconds per request, of requests started in the measured window. */
  latencies: Partial<Record<ActionKind, number[]>>;
  errors: Partial<Record<ActionKind | 'poll', number>>;
  errorSamples: string[];
  /** Actions drawn that the person had nothing to act on (nothing unread, nothing to react to or to edit). */
  skipped: Partial<Record<MixedAction, number>>;
  /** [message id, deliveries expected] of every post acknowledged in the step. */
  posts: Array<[number, number]>;
  /** [message id, message events received for it] over every poll of this process. */
  received: Array<[number, number]>;
  pollAnswers: number;
  pollBytes: number;
  /** This process's CPU seconds during the measured window, and the window's length. */
  cpuSeconds: number;
  measuredSeconds: number;
  connections: number;
}

const ACT = 0;
const PRESENCE = 1;
const POST = 2;
const MEAN_GAP_MS = 10_000;
const PRESENCE_MS = 60_000;
const TYPING_BEFORE_POST_MS = 2000;

/** A binary min-heap of (time, item). */
class Schedule {
  private readonly times: number[] = [];
  private readonly items: number[] = [];

  get size(): number {
    return this.times.length;
  }

  push(time: number, item: number): void {
    let i = this.times.length;
    this.times.push(time);
    this.items.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.times[parent]! <= time) break;
      this.times[i] = this.times[parent]!;
      this.items[i] = this.items[parent]!;
      i = parent;
    }
    this.times[i] = time;
    this.items[i] = item;
  }

  peek(): number {
    return this.times[0]!;
  }

  pop(): number {
    const top = this.items[0]!;
    const lastTime = this.times.pop()!;
    const lastItem = this.items.pop()!;
    const n = this.times.length;
    if (n === 0) return top;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && this.times[child + 1]! < this.times[child]!) child++;
      if (this.times[child]! >= lastTime) break;
      this.times[i] = this.times[child]!;
      this.items[i] = this.items[child]!;
      i = child;
    }
    this.times[i] = lastTime;
    this.items[i] = lastItem;
    return top;
  }

  clear(): void {
    this.times.length = 0;
    this.items.length = 0;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Crowd {
  private readonly people: Person[];
  private readonly polls: Array<Poll | undefined>;
  private readonly pool: HttpPool;
  private readonly schedule = new Schedule();
  private readonly next: () => number;
  private readonly targets = new Map<number, PostTarget>();
  private phase: 'idle' | 'warm' | 'measure' = 'idle';
  private stats = Crowd.emptyStats();
  private received = new Map<number, number>();
  private expected: Record<number, number> = {};
  private active = 0;
  private meanGapMs = MEAN_GAP_MS;
  private inFlight = 0;
  private lastAnswerAt = 0;
  private tick: NodeJS.Timeout | undefined;

  constructor(
    private readonly port: number,
    people: readonly CrowdPerson[],
    seed: number,
    maxConnections = 256,
  ) {
    this.people = people.map((p) => ({ ...p, queueId: undefined, channel: 0, oldest: 0, unread: [], newestReceived: 0, reacted: undefined, own: 0, ownAt: 0, presenceId: -1 }));
    this.polls = new Array(people.length);
    this.pool = new HttpPool(port, maxConnections);
    this.next = random(seed);
  }

  private static emptyStats(): StepStats {
    return { latencies: {}, errors: {}, errorSamples: [], skipped: {}, posts: [], received: [], pollAnswers: 0, pollBytes: 0, cpuSeconds: 0, measuredSeconds: 0, connections: 0 };
  }

  private fail(kind: ActionKind | 'poll', reason: string): void {
    this.stats.errors[kind] = (this.stats.errors[kind] ?? 0) + 1;
    if (this.stats.errorSamples.length < 10) this.stats.errorSamples.push(`${kind}: ${reason}`);
  }

  /** Sends one request; times it (when started in the measured window) and counts a failure. */
  private send(kind: ActionKind, text: string, onAnswer?: (body: string) => void): Promise<void> {
    const recording = this.phase === 'measure';
    const started = performance.now();
    this.inFlight++;
    return new Promise((resolve) => {
      this.pool.request(text, (error, answer) => {
        this.inFlight--;
        if (error || !answer) this.fail(kind, error?.message ?? 'no answer');
        else if (answer.status !== 200) this.fail(kind, `${answer.status} ${answer.body.slice(0, 200)}`);
        else {
          if (recording) (this.stats.latencies[kind] ??= []).push(Math.round((performance.now() - started) * 100) / 100);
          onAnswer?.(answer.body);
        }
        resolve();
      });
    });
  }

  /** Registers a queue and parks a poll for every person below `active` who has none yet. */
  async prepare(active: number, concurrency = 8): Promise<{ registerMs: number[]; errors: StepStats['errors']; errorSamples: string[] }> {
    this.stats = Crowd.emptyStats();
    this.phase = 'measure';
    const waiting = [...this.people.keys()].filter((local) => this.people[local]!.index < active && !this.people[local]!.queueId);
    let taken = 0;
    const worker = async () => {
      while (taken < waiting.length) {
        const local = waiting[taken++]!;
        const who = this.people[local]!;
        await this.send('register', registerText(who), (body) => {
          who.queueId = /"queue_id":"([^"]+)"/.exec(body)?.[1];
        });
        if (!who.queueId) continue;
        this.polls[local] = new Poll(this.port, who.authorization, who.queueId, {
          message: (id) => this.onMessage(who, id),
          answered: (bytes) => {
            this.stats.pollAnswers++;
            this.stats.pollBytes += bytes;
            this.lastAnswerAt = performance.now();
          },
          failed: (reason) => this.fail('poll', reason),
        });
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    this.phase = 'idle';
    return { registerMs: this.stats.latencies.register ?? [], errors: this.stats.errors, errorSamples: this.stats.errorSamples };
  }

  private onMessage(person: Person, id: number): void {
    this.received.set(id, (this.received.get(id) ?? 0) + 1);
    if (id > person.newestReceived) person.newestReceived = id;
    if (person.unread.length < 200) person.unread.push(id);
  }

  private gap(): number {
    return -Math.log(1 - this.next()) * this.meanGapMs;
  }

  private fire(item: number, now: number): void {
    const local = item >> 2;
    const kind = item & 3;
    const person = this.people[local]!;
    if (kind === PRESENCE) {
      const report = presence(person);
      void this.send('presence', report.text, report.onAnswer);
      this.schedule.push(now + PRESENCE_MS, item);
      return;
    }
    if (kind === POST) {
      const target = this.targets.get(local);
      this.targets.delete(local);
      if (target) this.post(person, target);
      return;
    }
    this.schedule.push(now + this.gap(), item);
    const action = pickAction(this.next());
    if (action === 'post') {
      if (this.targets.has(local)) return; // still typing the previous one
      const target = postTarget(person, this.next);
      this.targets.set(local, target);
      void this.send('typing', typingText(person, target));
      this.schedule.push(now + TYPING_BEFORE_POST_MS, (local << 2) | POST);
      return;
    }
    const planned = plan(action, person, this.next, now);
    if (!planned) {
      this.stats.skipped[action] = (this.stats.skipped[action] ?? 0) + 1;
      return;
    }
    void this.send(action, planned.text, planned.onAnswer);
  }

  private post(person: Person, target: PostTarget): void {
    const expected = 'channel' in target ? (this.expected[target.channel] ?? 0) : 1 + (person.partners[target.partner]! < this.active ? 1 : 0);
    void this.send('post', postText(person, target, this.next), (body) => {
      const id = Number(/"id":(\d+)/.exec(body)?.[1]);
      if (!id) return this.fail('post', `no id in ${body.slice(0, 100)}`);
      this.stats.posts.push([id, expected]);
      person.own = id;
      person.ownAt = performance.now();
    });
  }

  /** Acts for a warm-up and a measured window, stops, waits for answers and deliveries to settle, and reports. */
  async run(step: StepPlan): Promise<StepStats> {
    this.stats = Crowd.emptyStats();
    this.received = new Map();
    this.expected = step.expectedByChannel;
    this.active = step.active;
    this.meanGapMs = step.meanGapMs ?? MEAN_GAP_MS;
    this.targets.clear();
    const start = performance.now();
    for (const [local, person] of this.people.entries()) {
      if (person.index >= step.active || !person.queueId) continue;
      this.schedule.push(start + this.gap(), local << 2);
      this.schedule.push(start + this.next() * PRESENCE_MS, (local << 2) | PRESENCE);
    }
    this.phase = 'warm';
    this.tick = setInterval(() => {
      const now = performance.now();
      while (this.schedule.size && this.schedule.peek() <= now) this.fire(this.schedule.pop(), now);
    }, 5);
    await sleep(step.warmMs);
    this.phase = 'measure';
    const cpuBefore = process.cpuUsage();
    const measureStart = performance.now();
    await sleep(step.measureMs);
    const cpu = process.cpuUsage(cpuBefore);
    this.stats.cpuSeconds = (cpu.user + cpu.system) / 1e6;
    this.stats.measuredSeconds = (performance.now() - measureStart) / 1000;
    this.phase = 'idle';
    clearInterval(this.tick);
    this.schedule.clear();
    this.targets.clear();
    await this.settle();
    this.stats.received = [...this.received];
    this.stats.connections = this.pool.size;
    return this.stats;
  }

  /**
   * Until every request is answered and no poll has been answered for a second (at most 30 s).
   * When this process holds every active person it also waits until each post's deliveries are
   * all in: on a loaded machine a poll's answer can come after a second of quiet.
   */
  private async settle(): Promise<void> {
    const deadline = performance.now() + 30_000;
    const everyoneHere = this.people.filter((p) => p.index < this.active).length === this.active;
    const allIn = () => !everyoneHere || this.stats.posts.every(([id, expected]) => (this.received.get(id) ?? 0) >= expected);
    while (performance.now() < deadline && (this.inFlight > 0 || performance.now() - this.lastAnswerAt < 1000 || !allIn())) await sleep(50);
  }

  close(): void {
    clearInterval(this.tick);
    for (const poll of this.polls) poll?.stop();
    this.pool.close();
  }
}
