/** Every test file is in exactly one of the groups npm test runs (test/helpers/test-groups.ts). */
import { test } from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { groupFiles, HTTP_GROUPS, testFiles, type Group } from '../helpers/test-groups.js';

const root = new URL('../../../', import.meta.url);

test('the groups of npm test run every unit and HTTP test file exactly once', (t) => {
  const groups: Group[] = ['unit', 'zulip-js', ...Array.from({ length: HTTP_GROUPS }, (_, i) => i + 1)];
  const seen = new Map<string, number>();
  for (const group of groups) {
    const { room, names } = groupFiles(group);
    t.ok(names.length > 0, `group ${group} has files`);
    for (const name of names) seen.set(`${room}/${name}`, (seen.get(`${room}/${name}`) ?? 0) + 1);
  }
  const all = [...testFiles('unit').map((name) => `unit/${name}`), ...testFiles('http').map((name) => `http/${name}`)];
  t.same([...seen.keys()].sort(), all.sort(), 'every file is in a group');
  t.same([...seen.values()].filter((count) => count !== 1), [], 'and in one only');
  t.end();
});

test('tap runs each group file, and not the grouped files again', (t) => {
  const include = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')).tap as { include: string[] }).include;
  t.ok(include.includes('dist/test/groups/*.js'));
  t.notOk(include.some((pattern) => pattern.startsWith('dist/test/http') || pattern.startsWith('dist/test/unit') || pattern.startsWith('dist/test/**')));
  const files = readdirSync(new URL('test/groups/', root)).filter((name) => name.endsWith('.ts')).sort();
  const expected = ['http-zulip-js.ts', 'unit.ts', ...Array.from({ length: HTTP_GROUPS }, (_, i) => `http-${i + 1}.ts`)].sort();
  t.same(files, expected, 'a file for each group');
  for (const file of files) {
    const text = readFileSync(new URL(`test/groups/${file}`, root), 'utf8');
    const group = file === 'unit.ts' ? "'unit'" : file === 'http-zulip-js.ts' ? "'zulip-js'" : file.slice(5, -3);
    t.match(text, `await runGroup(${group});`, `${file} runs its own group`);
  }
  t.end();
});
