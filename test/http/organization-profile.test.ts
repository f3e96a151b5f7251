/**
 * The organization's name and description: set by its operator from the CLI (there is no
 * placeholder text once it is empty), reported by GET /server_settings.
 */
import { test } from 'tap';
import { runCli } from '../helpers/process.js';
import { startTestServer } from '../helpers/server.js';

test('the organization\'s name and description are set from the CLI; a new one has no placeholder', async (t) => {
  const server = await startTestServer({ PARLEY_DEMO: '0' });
  let current = server;
  t.teardown(() => current.destroy());
  const before = (await fetch(`${server.url}/api/v1/server_settings`).then((r) => r.json())) as Record<string, unknown>;
  t.equal(before.realm_description, '', 'a new organization has no description (no placeholder text)');
  await server.stop();
  const env = { PARLEY_DATA_DIR: server.dataDir };
  const set = await runCli(['organization', '--name', 'Elsinore Works', '--description', 'Castle <staff> & guards'], env);
  t.equal(set.code, 0, set.stderr);
  t.match(set.stdout, 'name: Elsinore Works\ndescription: Castle <staff> & guards');
  const tooLong = await runCli(['organization', '--name', 'x'.repeat(41)], env);
  t.equal(tooLong.code, 2);
  t.match(tooLong.stderr, /too long/);
  const restarted = (current = await server.restart({ PARLEY_DEMO: '0' }));
  const after = (await fetch(`${restarted.url}/api/v1/server_settings`).then((r) => r.json())) as Record<string, unknown>;
  t.equal(after.realm_name, 'Elsinore Works');
  t.equal(after.realm_description, '<p>Castle &lt;staff&gt; &amp; guards</p>');
});
