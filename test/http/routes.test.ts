/** The URL table: `npm run routes` prints exactly what a started server serves, and every route has a schema and a view. */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'tap';
import { SCHEMAS } from '../../schemas/registry.js';
import { emojiDataFile } from '../../src/queries/emoji-data.js';
import { demoClients, startTestServer } from '../helpers/server.js';

const CLI = fileURLToPath(new URL('../../src/routes-cli.js', import.meta.url));

test('the printed route list is the served route table', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.destroy());
  const [header, ...lines] = execFileSync(process.execPath, [CLI], { encoding: 'utf8' }).trimEnd().split('\n');
  t.same(header.split(/\s+/), ['METHOD', 'PATH', 'VIEW', 'SCHEMA', 'AUTH']);
  const printed = lines.map((line) => {
    const [method, path, view, schema, auth, ...rest] = line.split(/\s+/);
    return { method, path, view, schema, auth, rest };
  });

  await t.test('one printed line per served route, same method, path, schema and authentication', async (tt) => {
    const key = (r: { method: string; path: string; schema: string; auth: string }) => `${r.method} ${r.path} ${r.schema} ${r.auth}`;
    const served = server.routes.map((r) => key({ ...r, path: r.root ? r.path : '/api/v1' + r.path })).sort();
    tt.ok(served.length >= 39, 'the server serves the whole API');
    tt.same(printed.filter((r) => r.schema !== '-').map(key).sort(), served);
    tt.equal(new Set(served).size, served.length, 'no route twice');
  });

  await t.test('every route has a known schema and a named view', async (tt) => {
    const names = new Set(SCHEMAS.map((schema) => schema.$id));
    tt.same(printed.filter((r) => r.schema !== '-' && !names.has(r.schema)).map((r) => `${r.method} ${r.path}`), [], 'no route without a schema of schemas/');
    tt.same(printed.filter((r) => !/^[a-z]\w+$/.test(r.view) || r.rest.length > 0).map((r) => `${r.method} ${r.path}`), [], 'every view is a named function');
    const used = new Set(printed.map((r) => r.schema));
    tt.same([...names].filter((name) => !used.has(name)), [], 'no schema without a route');
  });

  await t.test('the pages and the paths the front answers itself are listed too, and answered', async (tt) => {
    const others = printed.filter((r) => r.schema === '-');
    const paths = new Set(others.map((r) => r.path));
    tt.ok(paths.has('/join/{key}') && paths.has('/health') && paths.has('/static/{file:path}'), 'the join page, the health check and the static files');
    for (const path of paths) {
      // A sample for each pattern's parameter; PUT is served by none, so the answer names the methods that are.
      const sample = path.replace('{key}', 'some-key').replace('{file:path}', emojiDataFile().path.slice('/static/'.length));
      const answer = await fetch(server.url + sample, { method: 'PUT' });
      const listed = others.filter((r) => r.path === path).map((r) => r.method);
      tt.equal(answer.status, 405, `${path} is answered`);
      tt.ok(listed.every((method) => answer.headers.get('allow')!.split(', ').includes(method)), `${path}: ${answer.headers.get('allow')}`);
    }
  });

  await t.test('path parameters reach the view typed as the pattern says', async (tt) => {
    const { iago } = demoClients(server);
    const own = await iago.get('/users/me');
    const id = own.body.user_id as number;
    const answer = await iago.get(`/users/${id}`);
    tt.equal(answer.status, 200);
    tt.equal((answer.body.user as { user_id: unknown }).user_id, id, '{user_id:int} arrives as the number');
  });
});
