/**
 * The main thread's side of the search index's writer (`search-writer-worker.ts`): one worker
 * thread for every index of the process, started with the first index opened and stopped with
 * the last one closed. Requests are answered in the order they were sent.
 */
import { Worker } from 'node:worker_threads';

/** One document for the index: `replace` removes what the index holds under its id first; no `content`: only removed. */
export interface WriterDoc {
  id: number;
  replace: boolean;
  content?: string;
  topic?: string;
  scope?: string;
}

export type WriterRequest = { seq: number; path: string } & (
  | { op: 'open' }
  | { op: 'index'; docs: WriterDoc[]; through?: number }
  | { op: 'checkpoint' }
  | { op: 'close' }
);

export interface WriterReply {
  seq: number;
  error?: string;
}

type Body = { op: 'open' } | { op: 'index'; docs: WriterDoc[]; through?: number } | { op: 'checkpoint' } | { op: 'close' };

interface SharedWorker {
  worker: Worker;
  /** Index files open in it. */
  users: number;
  waiting: Map<number, { resolve: () => void; reject: (error: Error) => void }>;
}

let shared: SharedWorker | undefined;
let nextSeq = 0;

function sharedWorker(): SharedWorker {
  if (shared) return shared;
  const worker = new Worker(new URL('./search-writer-worker.js', import.meta.url));
  const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  worker.on('message', (reply: WriterReply) => {
    const waiter = waiting.get(reply.seq);
    waiting.delete(reply.seq);
    if (waiting.size === 0) worker.unref();
    if (reply.error === undefined) waiter?.resolve();
    else waiter?.reject(new Error(reply.error));
  });
  const failAll = (error: Error) => {
    for (const waiter of waiting.values()) waiter.reject(error);
    waiting.clear();
    if (shared?.worker === worker) shared = undefined;
  };
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the search index writer stopped (${code})`)));
  // The worker keeps the process alive only while a request waits for it.
  worker.unref();
  shared = { worker, users: 0, waiting };
  return shared;
}

/** Writes one index file through the shared worker, started with the first request (a server that indexes nothing starts none). */
export class SearchWriter {
  private worker: SharedWorker | undefined;
  private closed = false;

  constructor(private readonly path: string) {}

  /** Resolves once the worker has done it (an `index` request: committed). */
  send(body: Body): Promise<void> {
    if (!this.worker) {
      this.worker = sharedWorker();
      this.worker.users++;
      void this.post({ op: 'open' }).catch(() => {});
    }
    return this.post(body);
  }

  private post(body: Body): Promise<void> {
    const { worker, waiting } = this.worker!;
    const seq = ++nextSeq;
    return new Promise<void>((resolve, reject) => {
      if (waiting.size === 0) worker.ref();
      waiting.set(seq, { resolve, reject });
      worker.postMessage({ ...body, seq, path: this.path } as WriterRequest);
    });
  }

  /** Closes the file; the worker stops when no index uses it any more. */
  async close(): Promise<void> {
    if (this.closed || !this.worker) return;
    this.closed = true;
    const mine = this.worker;
    try {
      await this.post({ op: 'close' });
    } finally {
      if (--mine.users === 0 && shared === mine) {
        shared = undefined;
        await mine.worker.terminate();
      }
    }
  }
}
