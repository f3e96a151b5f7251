/**
 * Zulip's API description (shared/reference/zulip-openapi.yaml) read for tests: the client-facing
 * operations a server at our feature level must route, and example values for their path
 * parameters.
 *
 * The selection rule, written down once:
 * - every operation (path × method) of the document, except
 * - documentation-only ones: entries that describe something other than an endpoint of the
 *   server (`/real-time`, the events guide; `/rest-error-handling`, the error guide;
 *   `/zulip-outgoing-webhook`, the payload Zulip POSTs to a bot's own server);
 * - development-only ones: `/dev_fetch_api_key` (Zulip's development environment only);
 * - server-to-server ones: `/remotes/…` (what a push bouncer serves to other servers);
 * - and those newer than our feature level: an operation whose description's "Changes" note says
 *   "New in Zulip X.Y (feature level N)" with N above FEATURE_LEVEL. Deprecated operations stay in:
 *   clients still call them.
 */
import { existsSync } from 'node:fs';
import { parse } from 'yaml';
import { ZULIP_FEATURE_LEVEL as FEATURE_LEVEL } from '../../src/domain/versions.js';

/**
 * The project's shared/ folder lies beside the repository (a clone's `../shared`); a git worktree
 * kept one level deeper finds it one level up. PARLEY_OPENAPI names the file outright.
 */
export function openapiPath(): string | undefined {
  const repo = new URL('../../../', import.meta.url);
  const candidates = [process.env.PARLEY_OPENAPI, ...['../shared/', '../../shared/'].map((up) => new URL(`${up}reference/zulip-openapi.yaml`, repo).pathname)];
  return candidates.find((path): path is string => path !== undefined && existsSync(path));
}

const DOCUMENTATION_ONLY = new Set(['/real-time', '/rest-error-handling', '/zulip-outgoing-webhook']);
const DEVELOPMENT_ONLY = new Set(['/dev_fetch_api_key']);
const SERVER_TO_SERVER_PREFIX = '/remotes/';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export interface Operation {
  method: string;
  /** The path as the document writes it, parameters in braces. */
  path: string;
  operationId: string;
  /** The feature level its "New in" note names, if any. */
  newInLevel: number | undefined;
  /** The path with every parameter replaced by its documented example (or `1`). */
  examplePath: string;
}

type Json = Record<string, unknown>;

function resolve(document: Json, value: unknown): Json {
  const ref = (value as Json | undefined)?.$ref;
  if (typeof ref !== 'string') return (value ?? {}) as Json;
  return ref.replace(/^#\//, '').split('/').reduce<Json>((node, key) => node[key] as Json, document);
}

/** The feature level of the operation's first "New in Zulip X.Y (feature level N)" note. */
export function newInLevel(description: string): number | undefined {
  const match = /New in Zulip [^()]*\(feature level (\d+)\)/.exec(description);
  return match ? Number(match[1]) : undefined;
}

function examplePath(document: Json, path: string, parameters: unknown[]): string {
  const examples = new Map<string, string>();
  for (const raw of parameters) {
    const parameter = resolve(document, raw);
    if (parameter.in === 'path' && parameter.example !== undefined) examples.set(String(parameter.name), String(parameter.example));
  }
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURI(examples.get(name) ?? '1'));
}

/** Why an operation is left out, or undefined if a client-facing server at FEATURE_LEVEL must route it. */
export function exclusion(operation: Pick<Operation, 'path' | 'newInLevel'>): string | undefined {
  if (DOCUMENTATION_ONLY.has(operation.path)) return 'documentation only';
  if (DEVELOPMENT_ONLY.has(operation.path)) return 'development only';
  if (operation.path.startsWith(SERVER_TO_SERVER_PREFIX)) return 'server to server';
  if (operation.newInLevel !== undefined && operation.newInLevel > FEATURE_LEVEL) return `newer than ${FEATURE_LEVEL}`;
  return undefined;
}

/** Every operation the document describes. */
export function allOperations(source: string): Operation[] {
  const document = parse(source) as Json;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      const parameters = [...((item.parameters as unknown[]) ?? []), ...((operation.parameters as unknown[]) ?? [])];
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: String(operation.operationId ?? ''),
        newInLevel: newInLevel(String(operation.description ?? '')),
        examplePath: examplePath(document, path, parameters),
      });
    }
  }
  return operations;
}

/** The client-facing operations at or below FEATURE_LEVEL (see the rule above). */
export function clientOperations(source: string): Operation[] {
  return allOperations(source).filter((operation) => exclusion(operation) === undefined);
}
