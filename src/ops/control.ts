/**
 * The local control channel: HTTP on a unix socket inside the data directory, through which
 * `npm run cli -- backup` asks a running server (which holds LevelDB's lock) for a backup, and
 * the organization commands (create, list, deactivate) are run by it (`POST /command`).
 * It is never reachable from the network; who may use it is decided by filesystem permissions:
 * the socket is created owner-only (mode 0600), like the data it gives access to.
 */
import { lstatSync, unlinkSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Logger } from 'pino';
import { ApiError } from '../domain/errors.js';
import { BackupTargetError, type BackupResult } from '../store/backup.js';
import { DirectoryError } from '../store/directories.js';

export const CONTROL_SOCKET = 'control.sock';
/** sun_path holds 108 bytes, its terminating NUL included. */
const MAX_SOCKET_PATH = 107;

export interface ControlHandlers {
  /** Writes a backup of the store (or of the organization at that subdomain) to the absolute path `dir`. */
  backup(dir: string, organization?: string): Promise<BackupResult>;
  /** Runs an administration command; resolves with the lines the operator reads (an ApiError is a refusal). */
  command?(name: string, options: Record<string, string>): Promise<string[]>;
}

/** The control socket of a data directory: the absolute path, or the relative one if only that fits (or undefined). */
export function controlSocketPath(dataDir: string): string | undefined {
  const absolute = join(resolve(dataDir), CONTROL_SOCKET);
  if (Buffer.byteLength(absolute) <= MAX_SOCKET_PATH) return absolute;
  const shorter = relative(process.cwd(), absolute);
  return Buffer.byteLength(shorter) <= MAX_SOCKET_PATH ? shorter : undefined;
}

export interface ControlChannel {
  close(): Promise<void>;
}

/**
 * Listens on the data directory's control socket. Call it only while holding the store's lock:
 * a socket file left by a crashed server is then known to be stale and is replaced. A channel
 * that cannot open is logged, not fatal: the chat server matters more than its online backups.
 */
export async function openControlChannel(dataDir: string, handlers: ControlHandlers, logger: Logger): Promise<ControlChannel> {
  const path = controlSocketPath(dataDir);
  try {
    if (path === undefined) throw new Error(`the path of ${join(resolve(dataDir), CONTROL_SOCKET)} is too long for a unix socket`);
    removeStaleSocket(path);
    return await listen(path, dataDir, handlers, logger);
  } catch (error) {
    logger.error({ err: error }, 'control socket unavailable: online backups are off');
    return { close: async () => undefined };
  }
}

function listen(path: string, dataDir: string, handlers: ControlHandlers, logger: Logger): Promise<ControlChannel> {
  let busy = false;
  // Commands run one at a time: a creation checks its subdomain, then writes, with awaits between.
  let commands: Promise<unknown> = Promise.resolve();
  const server: Server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/command' && handlers.command) {
      const run = (commands = commands.then(() => runCommand(req, res, handlers.command!, logger)));
      return void run;
    }
    if (req.method !== 'POST' || req.url !== '/backup') return reply(res, 404, { result: 'error', msg: 'Unknown control request (POST /backup {"dir": ...}, POST /command {"command": ...})' });
    if (busy) return reply(res, 409, { result: 'error', msg: 'A backup is already running' });
    busy = true;
    readJson(req)
      .then((body) => {
        const dir = (body as { dir?: unknown } | undefined)?.dir;
        if (typeof dir !== 'string' || !isAbsolute(dir)) throw new BackupTargetError('"dir" must be an absolute path');
        const inside = relative(resolve(dataDir), dir);
        if (!inside.startsWith('..') && !isAbsolute(inside)) throw new BackupTargetError('the backup cannot go inside the data directory');
        const organization = (body as { organization?: unknown }).organization;
        return handlers.backup(dir, typeof organization === 'string' ? organization : undefined);
      })
      .then(
        (result) => reply(res, 200, { result: 'success', msg: '', ...result }),
        (error: unknown) => {
          // The target's fault (not empty, not writable): told as a refusal, naming the path.
          const refused = error instanceof BackupTargetError || error instanceof DirectoryError;
          if (!refused) logger.error({ err: error }, 'backup failed');
          reply(res, refused ? 400 : 500, { result: 'error', msg: (error as Error).message });
        },
      )
      .finally(() => {
        busy = false;
      });
  });
  return new Promise((done, reject) => {
    server.once('error', reject);
    // The socket is created by the synchronous bind inside listen(): a umask set around the call
    // makes it owner-only from the start, with no window in which others could connect.
    const umask = process.umask(0o177);
    try {
      server.listen(path, () => {
        server.off('error', reject);
        done({
          close: () =>
            new Promise<void>((closed) => {
              // Closing the server unlinks the socket file; a backup in flight still gets its answer.
              server.close(() => closed());
              server.closeIdleConnections();
            }),
        });
      });
    } finally {
      process.umask(umask);
    }
  });
}

/** One command: its refusal (an ApiError) is told as a 400, anything else is logged and a 500. */
function runCommand(req: IncomingMessage, res: ServerResponse, command: NonNullable<ControlHandlers['command']>, logger: Logger): Promise<void> {
  return readJson(req)
    .then((body) => {
      const { command: name, options } = (body ?? {}) as { command?: unknown; options?: unknown };
      if (typeof name !== 'string') throw new ApiError('BAD_REQUEST', '"command" must be a string');
      const given = typeof options === 'object' && options !== null ? (options as Record<string, unknown>) : {};
      const strings = Object.fromEntries(Object.entries(given).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
      return command(name, strings);
    })
    .then(
      (lines) => reply(res, 200, { result: 'success', msg: '', lines }),
      (error: unknown) => {
        const refused = error instanceof ApiError || error instanceof BackupTargetError;
        if (!refused) logger.error({ err: error }, 'control command failed');
        reply(res, refused ? 400 : 500, { result: 'error', msg: (error as Error).message });
      },
    );
}

function removeStaleSocket(path: string): void {
  try {
    if (!lstatSync(path).isSocket()) throw new Error(`${path} exists and is not a socket`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  unlinkSync(path);
}

function reply(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((done, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 64 * 1024) req.destroy(new BackupTargetError('request too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        done(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
      } catch {
        reject(new BackupTargetError('the request body must be JSON'));
      }
    });
    req.on('error', reject);
  });
}

/** No server answers on the control socket (none running, or it crashed and left the file). */
export class ControlUnavailable extends Error {}

/** Asks the server running on `dataDir` for a backup into `dir` (made absolute here, against this process's cwd). */
export function requestBackup(dataDir: string, dir: string, organization?: string): Promise<BackupResult> {
  return ask<BackupResult>(dataDir, '/backup', { dir: resolve(dir), organization });
}

/** Asks the server running on `dataDir` to run an administration command; resolves with its lines. */
export async function requestCommand(dataDir: string, command: string, options: Record<string, string | undefined>): Promise<string[]> {
  return (await ask<{ lines: string[] }>(dataDir, '/command', { command, options })).lines;
}

function ask<T>(dataDir: string, path: string, fields: Record<string, unknown>): Promise<T> {
  const body = JSON.stringify(fields);
  const socketPath = controlSocketPath(dataDir);
  if (socketPath === undefined) return Promise.reject(new ControlUnavailable('the data directory path is too long for a unix socket'));
  return new Promise((done, reject) => {
    const req = request(
      { socketPath, method: 'POST', path, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          let answer: Record<string, unknown>;
          try {
            answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
          } catch {
            return reject(new Error(`the server answered ${res.statusCode} without JSON`));
          }
          if (res.statusCode === 200) done(answer as unknown as T);
          else reject(new Error(String(answer.msg)));
        });
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'ENOENT' || error.code === 'ECONNREFUSED' ? new ControlUnavailable(error.message) : error);
    });
    req.end(body);
  });
}
