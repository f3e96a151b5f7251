/**
 * `npm test` runs the test files in groups, one process per group, not one process per file.
 *
 * Each process tap starts pays for Node and tap themselves and for the module loader thread of
 * tap's process bookkeeping (@tapjs/processinfo, loaded into every test process even with
 * coverage off): about 2 s of CPU before a test runs. With 171 files on 2 cores that was two
 * minutes of the suite's eight. A group imports its files in turn into one process; their tests
 * run in order on tap's root, as they would alone. Any file still runs alone:
 * `npx tap dist/test/http/<name>.test.js`.
 *
 * A file that changes what the others share stays out of the shared groups: zulip-js's
 * dependency isomorphic-form-data replaces the global FormData, which breaks the uploads the
 * other files make with the platform's own.
 */
import { readdirSync } from 'node:fs';

/** The processes the HTTP files are dealt into: enough for tap's jobs to stay balanced. */
export const HTTP_GROUPS = 8;

/** HTTP files that change process-wide state (global FormData): their own group. */
const CHANGE_GLOBALS = new Set(['authentication.test.js', 'events-polling.test.js', 'zulip-js.test.js']);

/** A group: 'unit', 'zulip-js' (the files that change globals) or an HTTP group number from 1. */
export type Group = 'unit' | 'zulip-js' | number;

export function testFiles(room: string): string[] {
  return readdirSync(new URL(`../${room}/`, import.meta.url)).filter((name) => name.endsWith('.test.js')).sort();
}

/** The room and the files of a group: HTTP files other than those are dealt in name order. */
export function groupFiles(group: Group): { room: string; names: string[] } {
  if (group === 'unit') return { room: 'unit', names: testFiles('unit') };
  const http = testFiles('http');
  if (group === 'zulip-js') return { room: 'http', names: http.filter((name) => CHANGE_GLOBALS.has(name)) };
  const shared = http.filter((name) => !CHANGE_GLOBALS.has(name));
  return { room: 'http', names: shared.filter((_, position) => position % HTTP_GROUPS === group - 1) };
}

/** Imports a group's files in turn: each registers its tests on tap's root, which runs them in order. */
export async function runGroup(group: Group): Promise<void> {
  const { room, names } = groupFiles(group);
  for (const name of names) await import(new URL(`../${room}/${name}`, import.meta.url).href);
}
