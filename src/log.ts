/**
 * The structured logger: JSON lines on stderr, quiet (warnings and errors) unless asked. Its
 * destination never blocks nor throws: lines wait in a bounded buffer and are written off the
 * event loop; a line that cannot be written (a full disk, a closed pipe, a buffer full because
 * the reader stalls) is dropped and counted (`droppedLogLines`, the metric
 * `parley_log_lines_dropped_total`). A server that cannot log goes on serving.
 */
import { write, writeSync } from 'node:fs';
import { pino, type Logger } from 'pino';

/** Lines held at most while the destination is slow (bytes); more are dropped. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** Wait before writing again after EAGAIN (a non-blocking pipe that is full). */
const RETRY_MS = 20;

export class DroppingDestination {
  /** Lines dropped since start: not written because the destination failed or was too slow. */
  dropped = 0;
  /** The last write error, for whoever reports the count. */
  lastError: string | undefined;
  private lines: string[] = [];
  private bytes = 0;
  private writing = false;

  constructor(
    private readonly fd: number,
    private readonly maxBufferedBytes = MAX_BUFFERED_BYTES,
  ) {}

  /** pino's destination contract: take the line, never throw, never wait. */
  write(line: string): boolean {
    if (this.bytes + line.length > this.maxBufferedBytes) {
      this.dropped++;
      return true;
    }
    this.lines.push(line);
    this.bytes += line.length;
    if (!this.writing) this.next();
    return true;
  }

  private next(): void {
    if (this.lines.length === 0) {
      this.writing = false;
      return;
    }
    this.writing = true;
    const count = this.lines.length;
    const chunk = Buffer.from(this.lines.join(''));
    this.lines = [];
    this.bytes = 0;
    this.send(chunk, count);
  }

  /** Writes `chunk` (holding `count` lines) to the end, then the next lines. */
  private send(chunk: Buffer, count: number): void {
    write(this.fd, chunk, 0, chunk.length, null, (error, written) => {
      if (error) {
        if (error.code === 'EAGAIN') {
          setTimeout(() => this.send(chunk, count), RETRY_MS).unref();
          return;
        }
        this.dropped += count;
        this.lastError = error.message;
      } else if (written < chunk.length) {
        this.send(chunk.subarray(written), count);
        return;
      }
      this.next();
    });
  }

  /** At exit: what is still buffered is written synchronously, or dropped. */
  flushSync(): void {
    if (this.lines.length === 0) return;
    const count = this.lines.length;
    const chunk = this.lines.join('');
    this.lines = [];
    this.bytes = 0;
    try {
      writeSync(this.fd, chunk);
    } catch {
      this.dropped += count;
    }
  }
}

const destinations = new WeakMap<Logger, DroppingDestination>();

export function createLogger(level: string, fd = 2): Logger {
  const destination = new DroppingDestination(fd);
  process.once('exit', () => destination.flushSync());
  const logger = pino({ level, base: undefined }, destination);
  destinations.set(logger, destination);
  return logger;
}

/** Lines the logger dropped (0 for a logger not made by `createLogger`). */
export function droppedLogLines(logger: Logger): number {
  return destinations.get(logger)?.dropped ?? 0;
}
