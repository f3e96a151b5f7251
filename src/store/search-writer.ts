/**
 * The main thread's side of the search index's writer: a small index is written here, in the
 * request's own turn (its merges are short, and a server that indexes a few messages starts no
 * thread); a large one through one worker thread for every large index of the process
 * (`search-writer-worker.ts`), started with the first request and stopped with the last index
 * closed. Requests are done in the order they were sent.
 */
import { Worker } from 'node:worker_threads';
import { handleRequest, type IndexFile, type WriterBody, type WriterReply, type WriterRequest } from './search-writer-file.js';

export type { WriterDoc } from './search-writer-file.js';

interface SharedWorker {
  worker: Worker;
  /** Index files open in it. */
  users: number;
  waiting: Map<number, { resolve: () => void; reject: (error: Error) => void }>;
  /** Why the thread stopped, once it has: nothing posted to it would ever be answered. */
  failure?: Error;
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
  const entry: SharedWorker = { worker, users: 0, waiting };
  const failAll = (error: Error) => {
    entry.failure ??= error;
    if (shared === entry) shared = undefined;
    for (const waiter of waiting.values()) waiter.reject(error);
    waiting.clear();
  };
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the search index writer stopped (${code})`)));
  // The worker keeps the process alive only while a request waits for it.
  worker.unref();
  shared = entry;
  return entry;
}

/** The shared writer thread, if one runs (tests stop it to show that writers carry on). */
export function sharedWriterThread(): Worker | undefined {
  return shared?.worker;
}

/** Writes one index file: on this thread (`inline`) or through the shared worker, started with the first request. */
export class SearchWriter {
  private worker: SharedWorker | undefined;
  /** The inline writer's open file (keyed by path, as the worker keeps them). */
  private readonly inlineFiles = new Map<string, IndexFile>();
  private closed = false;

  constructor(
    private readonly path: string,
    readonly inline: boolean,
  ) {}

  /** Resolves once it is done (an `index` request: committed). */
  send(body: WriterBody): Promise<void> {
    if (this.inline) {
      try {
        if (!this.inlineFiles.has(this.path)) handleRequest(this.inlineFiles, { op: 'open', seq: 0, path: this.path });
        handleRequest(this.inlineFiles, { ...body, seq: 0, path: this.path });
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
    // A thread that stopped (crashed, or ran out of memory) answers nothing: the next request
    // starts another and opens the file there again; the caller retries what was refused.
    if (this.worker?.failure) this.worker = undefined;
    if (!this.worker) {
      this.worker = sharedWorker();
      this.worker.users++;
      void this.post({ op: 'open' }).catch(() => {});
    }
    return this.post(body);
  }

  private post(body: WriterBody): Promise<void> {
    const { worker, waiting, failure } = this.worker!;
    if (failure) return Promise.reject(failure);
    const seq = ++nextSeq;
    return new Promise<void>((resolve, reject) => {
      if (waiting.size === 0) worker.ref();
      waiting.set(seq, { resolve, reject });
      worker.postMessage({ ...body, seq, path: this.path } satisfies WriterRequest);
    });
  }

  /** Closes the file; the worker stops when no index uses it any more. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.inline) {
      if (this.inlineFiles.has(this.path)) handleRequest(this.inlineFiles, { op: 'close', seq: 0, path: this.path });
      return;
    }
    if (!this.worker) return;
    const mine = this.worker;
    try {
      if (!mine.failure) await this.post({ op: 'close' });
    } finally {
      if (--mine.users === 0 && shared === mine) {
        shared = undefined;
        // An unreferenced thread does not keep the process alive: one closing would let it end
        // before the await below returns.
        mine.worker.ref();
        await mine.worker.terminate();
      }
    }
  }
}
