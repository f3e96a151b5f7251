/**
 * Zulip's API documentation examples (tools/zulip-python-examples: zerver/openapi/python_examples.py's
 * calls and checks for the operations of issue 24, with Zulip's Python client) against a real
 * server: every example must succeed and its answer must match Zulip's OpenAPI schema. Runs with
 * Debian's python3 and the vendored client, offline.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'tap';
import { openapiPath } from '../helpers/openapi.js';
import { startTestServer } from '../helpers/server.js';

const TOOL = fileURLToPath(new URL('../../../tools/zulip-python-examples/', import.meta.url));
/** Debian's python3 (with python3-requests, -distro, -typing-extensions, -yaml), as tools/zulip-python-examples/run.sh uses it. */
const PYTHON = process.env.PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');

function pythonReady(): string | undefined {
  const probe = spawnSync(PYTHON, ['-c', 'import requests, distro, typing_extensions, yaml'], { encoding: 'utf8' });
  if (probe.error) return `${PYTHON} not found`;
  return probe.status === 0 ? undefined : `${PYTHON} lacks a module the client needs: ${probe.stderr.trim().split('\n').at(-1)}`;
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

const openapi = openapiPath();
const unavailable = pythonReady() ?? (openapi ? undefined : 'zulip-openapi.yaml not found (set PARLEY_OPENAPI)');

test("Zulip's documentation examples pass against Parley", { skip: unavailable ?? false }, async (t) => {
  const server = await startTestServer({ PARLEY_BIG_BLUE_BUTTON_URL: 'https://bbb.example.com/bigbluebutton/', PARLEY_BIG_BLUE_BUTTON_SECRET: 'examples-secret' });
  t.teardown(() => server.destroy());
  const env = { ...process.env, PYTHONPATH: process.env.PYTHON_ZULIP_API ?? `${TOOL}vendor`, PYTHONDONTWRITEBYTECODE: '1' };
  const { code, out } = await run([`${TOOL}examples.py`, server.url, openapi!], env);
  const lines = out.trim().split('\n');
  const results = lines.filter((line) => /^(ok {4}|FAILED) /.test(line));
  t.ok(results.length >= 50, `the examples ran (${results.length} results)\n${out.slice(-2000)}`);
  for (const line of results) t.ok(line.startsWith('ok'), line);
  t.equal(code, 0, lines.at(-1) ?? 'no output');
});
