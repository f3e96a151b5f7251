/**
 * The house's rooms, checked from the code's own imports: which room may import which, no
 * cycles, no key strings outside the store, and nothing of the HTTP layer below it.
 */
import { test } from 'tap';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));
/** The endpoint schemas live at the top level, beside src/, and are a room of their own. */
const SCHEMAS = fileURLToPath(new URL('../../../schemas/', import.meta.url));

/** Each room and the rooms it may import (itself always). Top-level files are the composition root. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  shared: [],
  // Schemas are typed by the HTTP layer's schema contract (a type-only import).
  schemas: ['http'],
  domain: ['shared'],
  store: ['domain', 'shared'],
  http: ['domain', 'shared'],
  events: ['store', 'domain', 'shared'],
  actors: ['store', 'domain', 'shared'],
  queries: ['actors', 'store', 'events', 'domain', 'shared', 'services'],
  actions: ['queries', 'actors', 'store', 'events', 'domain', 'shared', 'services'],
  api: ['actions', 'queries', 'domain', 'http', 'shared', 'schemas', 'services'],
  ops: ['http', 'events', 'store', 'domain', 'shared', 'services', 'config'],
  // Cluster mode (docs/cluster.md): beside the server, on the store; never imported by the embedded path.
  cluster: ['store', 'domain', 'shared', 'config', 'config-values', 'server', 'organizations'],
};
/** Top-level modules that are not the composition root, and what they may import. */
const TOP_LEVEL: Record<string, readonly string[]> = {
  services: ['actors', 'store', 'events', 'domain', 'shared', 'config'],
  config: ['domain', 'config-values'],
  'config-values': [],
  log: [],
  'demo-organization': ['domain'],
  // The admin CLI and start-up write through actions/, never through api/.
  cli: ['actions', 'queries', 'actors', 'store', 'events', 'domain', 'shared', 'services', 'config', 'wiring', 'log', 'bootstrap', 'ops', 'http', 'config-values', 'cli-commands', 'organization-admin', 'admin-hosts'],
  // The organization commands (CLI and control socket), where they run, and the CLI's commands on one organization.
  'organization-admin': ['actions', 'domain', 'services', 'store', 'config'],
  'admin-hosts': ['actions', 'organization-admin', 'domain', 'services', 'store', 'config', 'wiring'],
  'cli-commands': ['actions', 'domain', 'ops', 'services', 'store'],
  bootstrap: ['actions', 'store', 'domain', 'services', 'config', 'demo-organization'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The room of a file: `schemas` for the top-level schemas/, its folder under src/, or its own name for top-level files. */
function roomOf(file: string): string {
  if (!relative(SCHEMAS, file).startsWith('..')) return 'schemas';
  const parts = relative(SRC, file).split('/');
  return parts.length > 1 ? parts[0]! : parts[0]!.replace(/\.ts$/, '');
}

const files = [...sourceFiles(SRC), ...sourceFiles(SCHEMAS)];
const imports = new Map<string, string[]>();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const targets: string[] = [];
  for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
    targets.push(normalize(join(dirname(file), match[1]!)).replace(/\.js$/, '.ts'));
  }
  imports.set(file, targets);
}

test('every import goes down the house, never up', async (t) => {
  const wrong: string[] = [];
  for (const [file, targets] of imports) {
    const from = roomOf(file);
    const allowed = MAY_IMPORT[from] ?? TOP_LEVEL[from];
    if (!allowed) continue; // main, server, wiring: the composition root
    for (const target of targets) {
      const to = roomOf(target);
      if (to !== from && !allowed.includes(to)) wrong.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
    }
  }
  t.same(wrong, [], 'imports against the direction of the house');
});

test('no import cycle', async (t) => {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const target of imports.get(file) ?? []) {
      if (!imports.has(target)) continue;
      if (state.get(target) === 'open') cycles.push(stack.slice(stack.indexOf(target)).concat(target).map((f) => relative(SRC, f)).join(' → '));
      else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  t.same(cycles, []);
});

test('key strings stay in the store', async (t) => {
  const leaks: string[] = [];
  for (const file of files) {
    if (roomOf(file) === 'store') continue;
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (/\bkeys\.[A-Za-z]|'\\xff'/.test(line)) leaks.push(`${relative(SRC, file)}:${i + 1}: ${line.trim()}`);
    });
  }
  t.same(leaks, []);
});

test('views and queries never write: every write goes through actions/', async (t) => {
  // services.write(…), a destructured `write` of the services, or a transaction built or committed by hand.
  const writes = /\bservices\s*\.\s*(write|commit)\s*\(|\{[^}]*\b(write|commit)\b[^}]*\}\s*=\s*services\b|new Transaction\(/;
  const found: string[] = [];
  for (const file of files) {
    const room = roomOf(file);
    if (room !== 'api' && room !== 'queries') continue;
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (writes.test(line)) found.push(`${relative(SRC, file)}:${i + 1}: ${line.trim()}`);
    });
  }
  t.same(found, [], 'writes outside actions/');
  // The check itself sees a write when there is one.
  t.ok(writes.test('await services.write((tx) => change(tx));'));
  t.ok(writes.test('const { write } = services;'));
});
