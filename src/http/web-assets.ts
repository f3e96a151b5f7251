/**
 * The web client's files (built by Vite into dist/public, precompressed there): read once at start,
 * served from memory at `/` with the encoding the browser takes, long cache lifetimes for hashed
 * files, `no-cache` for index.html, and index.html for the client's own routes (SPA fallback).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

/** What the front writes for a web request. */
export interface WebAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The request headers that choose the answer. */
export interface WebRequestHeaders {
  accept: string;
  acceptEncoding: string;
  ifNoneMatch: string;
}

interface WebFile {
  raw: Buffer;
  br: Buffer | undefined;
  gz: Buffer | undefined;
  type: string;
  etag: string;
  immutable: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Paths that belong to the server: never answered with the client's page. */
const SERVER_PREFIXES = ['/api/', '/json/', '/user_uploads/', '/static/', '/health', '/metrics', '/join/'];

/**
 * The client's page is locked down: scripts and styles only from here, no framing, no Referer
 * sent on (message links carry no secrets, but a page should not leak where its reader is).
 * Images may come from elsewhere (avatars, links' previews); uploads come from here or blob:.
 */
const PAGE_SECURITY: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https:; media-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};

/** Vite puts content hashes in the names of everything below assets/. */
const HASHED_DIR = 'assets/';

export class WebAssets {
  private constructor(private readonly files: Map<string, WebFile>) {}

  /** Reads the built client from `dir`; undefined when it was not built (the API still serves). */
  static load(dir: string): WebAssets | undefined {
    if (!existsSync(join(dir, 'index.html'))) return undefined;
    const files = new Map<string, WebFile>();
    for (const path of walk(dir)) {
      const ext = extname(path);
      if (ext === '.br' || ext === '.gz') continue;
      const name = relative(dir, path).split(sep).join('/');
      const raw = readFileSync(path);
      files.set('/' + name, {
        raw,
        br: readIfThere(path + '.br'),
        gz: readIfThere(path + '.gz'),
        type: TYPES[ext] ?? 'application/octet-stream',
        etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 22)}"`,
        immutable: name.startsWith(HASHED_DIR),
      });
    }
    return new WebAssets(files);
  }

  /** The answer for a GET of `path` outside the API, or undefined (the front answers 404). */
  answer(path: string, headers: WebRequestHeaders): WebAnswer | undefined {
    let file = this.files.get(path);
    if (!file || path === '/index.html') {
      if (!isClientRoute(path, headers.accept)) return undefined;
      file = this.files.get('/index.html')!;
    }
    const out: Record<string, string> = {
      'Content-Type': file.type,
      ETag: file.etag,
      Vary: 'Accept-Encoding',
      'Cache-Control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...(file.type.startsWith('text/html') ? PAGE_SECURITY : { 'X-Content-Type-Options': 'nosniff' }),
    };
    if (headers.ifNoneMatch.split(',').some((tag) => tag.trim() === file.etag)) return { status: 304, headers: out, body: Buffer.alloc(0) };
    const encoding = chooseEncoding(headers.acceptEncoding, file);
    if (encoding) out['Content-Encoding'] = encoding;
    const body = encoding === 'br' ? file.br! : encoding === 'gzip' ? file.gz! : file.raw;
    return { status: 200, headers: out, body };
  }
}

/** A browser navigating to one of the client's own addresses (`/`, `/channel/3/…`), not a missing file. */
export function isClientRoute(path: string, accept: string): boolean {
  if (path === '/' || path === '/index.html') return true;
  if (!accept.includes('text/html')) return false;
  if (SERVER_PREFIXES.some((prefix) => path.startsWith(prefix))) return false;
  if (path.startsWith('/' + HASHED_DIR)) return false;
  const last = path.slice(path.lastIndexOf('/') + 1);
  return !/\.[a-z0-9]{1,12}$/i.test(last);
}

/** `br` when taken and made, else `gzip`, else none (q=0 refuses). */
export function chooseEncoding(acceptEncoding: string, file: { br: Buffer | undefined; gz: Buffer | undefined }): 'br' | 'gzip' | undefined {
  const taken = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const refused = params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
    if (name && !refused) taken.add(name.trim());
  }
  if (file.br && taken.has('br')) return 'br';
  if (file.gz && (taken.has('gzip') || taken.has('*'))) return 'gzip';
  return undefined;
}

function readIfThere(path: string): Buffer | undefined {
  return existsSync(path) ? readFileSync(path) : undefined;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}
