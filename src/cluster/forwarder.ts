/**
 * A cluster node's public port: every request is forwarded to the node serving its organization
 * (found by the Host header, as the server finds it, and the owner's address in the lease), this
 * node included, so that any proxy in front needs no knowledge of owners (docs/cluster.md). While
 * an organization has no owner (a takeover under way) the request waits for one, up to a limit.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KV } from '@nats-io/kv';
import { subdomainOfHost } from '../domain/organization-hosts.js';
import { DEFAULT_MAX_UPLOAD_MIB } from '../domain/uploads.js';
import type { Database } from '../store/database.js';
import { Organization } from '../store/organization.js';
import { RETRY_ELSEWHERE_HEADER } from '../store/replicated-log.js';
import { leaseKeyOf, type LeaseValue } from './streams.js';

/** How long a request waits for an organization to have a reachable owner before it is answered 503. */
const OWNER_WAIT_MS = 20_000;
/** How long an owner read from the lease bucket is trusted without reading it again. */
const OWNER_FRESH_MS = 500;
const MIB = 1024 * 1024;
/** Room above the largest upload for the multipart envelope and form fields (the owner applies the exact limits). */
const BODY_HEADROOM_BYTES = MIB;

/**
 * The largest body the forwarder reads (it holds a body whole before forwarding it): Zulip's
 * upload size or the server's body limit, whichever is larger, plus headroom.
 */
export function forwardedBodyLimit(serverBodyLimitBytes: number): number {
  return Math.max(serverBodyLimitBytes, DEFAULT_MAX_UPLOAD_MIB * MIB) + BODY_HEADROOM_BYTES;
}

export interface ForwarderParts {
  rootUrl: string;
  db: Database;
  leases: KV;
  host: string;
  port: number;
  /** The server's body limit (PARLEY_BODY_LIMIT): see forwardedBodyLimit. */
  bodyLimitBytes: number;
}

export interface Forwarder {
  port: number;
  close(): Promise<void>;
}

export async function startForwarder(parts: ForwarderParts): Promise<Forwarder> {
  const owners = new OwnerCache(parts);
  const limit = forwardedBodyLimit(parts.bodyLimitBytes);
  const server = createServer((req, res) => void forward(req, res, owners, parts.rootUrl, limit));
  // Long polls are held for minutes by the owner: the forwarder must not cut them.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(parts.port, parts.host, () => resolve());
  });
  return { port: (server.address() as AddressInfo).port, close: () => closeServer(server) };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** The owners of organizations as the lease bucket says, read again when stale or found unreachable. */
class OwnerCache {
  private readonly known = new Map<number, { url: string; at: number }>();

  constructor(private readonly parts: ForwarderParts) {}

  /** The owner's address, or undefined while the organization has none. */
  async ownerOf(realm: number): Promise<string | undefined> {
    const cached = this.known.get(realm);
    if (cached && performance.now() - cached.at < OWNER_FRESH_MS) return cached.url;
    const entry = await this.parts.leases.get(leaseKeyOf(realm)).catch(() => null);
    if (!entry || entry.operation !== 'PUT') {
      this.known.delete(realm);
      return undefined;
    }
    const { url } = JSON.parse(entry.string()) as LeaseValue;
    this.known.set(realm, { url, at: performance.now() });
    return url;
  }

  forget(realm: number): void {
    this.known.delete(realm);
  }

  /** Hosts found to name an organization: a subdomain's id never changes, so each is parsed and read once (bounded). */
  private readonly realms = new Map<string, number>();

  async realmOf(host: string): Promise<number | undefined> {
    const known = this.realms.get(host);
    if (known !== undefined) return known;
    const subdomain = subdomainOfHost(this.parts.rootUrl, host);
    const realm = subdomain === undefined ? undefined : await Organization.idBySubdomain(this.parts.db, subdomain);
    if (realm === undefined) return undefined;
    if (this.realms.size >= 10_000) this.realms.clear();
    this.realms.set(host, realm);
    return realm;
  }
}

async function forward(req: IncomingMessage, res: ServerResponse, owners: OwnerCache, rootUrl: string, limit: number): Promise<void> {
  try {
    // The body is read whole first, so that a request can be sent again to a new owner when the
    // old one refused the connection (nothing of it was processed then).
    const body = await readBody(req, limit);
    if (body === undefined) return refuseTooLarge(req, res, limit);
    const realm = await owners.realmOf(req.headers.host ?? new URL(rootUrl).host);
    if (realm === undefined) return answer(res, 404, 'NONEXISTENT_SUBDOMAIN', 'There is no organization at this address.');
    const deadline = performance.now() + OWNER_WAIT_MS;
    while (performance.now() < deadline) {
      const owner = await owners.ownerOf(realm);
      if (owner !== undefined) {
        const sent = await send(req, res, body, owner);
        if (sent) return;
        owners.forget(realm);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    answer(res, 503, 'SERVER_NOT_READY', 'No node serves this organization right now; try again.');
  } catch (error) {
    if (!res.headersSent) answer(res, 502, 'BAD_GATEWAY', `Forwarding failed: ${(error as Error).message}`);
    else res.destroy();
  }
}

/** The request's body, or undefined (nothing kept) once it is larger than `limit`. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  if (Number(req.headers['content-length'] ?? 0) > limit) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      chunks.length = 0;
      req.off('data', onData);
      resolve(undefined);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * How much of a refused body is read and dropped before the 413 is sent: a client still sending
 * when the connection closes sees a reset instead of the answer (the HTTP front does the same,
 * for the same reason: http/body-drain.ts). Past this, the connection is answered and closed.
 */
const DRAIN_LIMIT_BYTES = 256 * 1024 * 1024;

/** 413 in Zulip's envelope, as the server's own body reader answers, once the client has sent its body. */
function refuseTooLarge(req: IncomingMessage, res: ServerResponse, limit: number): void {
  const refuse = () => {
    if (res.headersSent) return;
    res.setHeader('connection', 'close');
    answer(res, 413, 'BAD_REQUEST', `Request body too large (limit: ${limit} bytes)`);
  };
  if (req.readableEnded) return refuse();
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained <= DRAIN_LIMIT_BYTES) return;
    refuse();
    req.destroy();
  });
  req.on('end', refuse);
  req.resume();
}

/** Sends the request to `owner` and streams the answer back; false when the owner could not be reached (try another). */
function send(req: IncomingMessage, res: ServerResponse, body: Buffer, owner: string): Promise<boolean> {
  const target = new URL(req.url ?? '/', owner);
  const headers = { ...req.headers, 'x-forwarded-for': forwardedFor(req), 'content-length': String(body.length) };
  delete headers['transfer-encoding'];
  return new Promise((resolve, reject) => {
    const upstream = httpRequest({ hostname: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers }, (answer) => {
      if (notServedThere(answer)) {
        answer.resume();
        return resolve(false);
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('end', () => resolve(true));
      answer.on('error', reject);
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      // Refused or unreachable, so nothing was sent: the owner is gone; ask the leases again. A
      // connection cut later (ECONNRESET) may have been processed: never sent twice, it is a 502.
      if (!res.headersSent && (error.code === 'ECONNREFUSED' || error.code === 'EHOSTUNREACH')) resolve(false);
      else reject(error);
    });
    // The client went away (a long poll abandoned): so does the forwarded request.
    res.on('close', () => upstream.destroy());
    upstream.end(body);
  });
}

/** Whether the node asked does not serve the organization (any more) and changed nothing: the request goes to the owner the leases name next. */
function notServedThere(answer: IncomingMessage): boolean {
  return answer.headers[RETRY_ELSEWHERE_HEADER] !== undefined;
}

function forwardedFor(req: IncomingMessage): string {
  const previous = req.headers['x-forwarded-for'];
  const peer = req.socket.remoteAddress ?? '';
  return previous ? `${Array.isArray(previous) ? previous.join(', ') : previous}, ${peer}` : peer;
}

function answer(res: ServerResponse, status: number, code: string, msg: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ result: 'error', code, msg }));
}
