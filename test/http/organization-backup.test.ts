/**
 * Backup and restore of one organization beside another that is left as it was, and the CLI on a
 * stopped server's data directory (organizations, `--organization` on every command).
 */
import { t as root, test } from 'tap';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Api } from '../helpers/client.js';
import { fetchRaw, uploaded } from '../helpers/uploads.js';
import { anonymous, cli, createOrganization, hostOf } from '../helpers/organization-cli.js';
import { startTestServer, tempDataDir } from '../helpers/server.js';

// Every step runs the CLI in a process of its own (and servers restart): more than the suite's default on a busy machine.
root.setTimeout(5 * 60_000);

test('backup of one organization and its restore beside another, which stays as it was', async (t) => {
  const server = await startTestServer();
  let current = server;
  const scratch = tempDataDir();
  t.teardown(async () => {
    await current.destroy();
    rmSync(scratch, { recursive: true, force: true });
  });
  const red = await createOrganization(t, server, 'red', 'Red team', 'owner@teams.example.com');
  const blue = await createOrganization(t, server, 'blue', 'Blue team', 'owner@teams.example.com');
  const redOwner = anonymous(server, 'red').as(red.email, red.apiKey);
  const blueOwner = anonymous(server, 'blue').as(blue.email, blue.apiKey);
  const bytes = Buffer.from('red\'s report, kept in its backup\n'.repeat(40));
  const file = (await uploaded(redOwner, 'report.txt', bytes, 'text/plain')).url;
  t.equal((await redOwner.post('/messages', { type: 'stream', to: 'general', topic: 'files', content: `[report](${file})` })).status, 200);
  t.equal((await blueOwner.post('/messages', { type: 'stream', to: 'general', topic: 'news', content: 'blue before the backup' })).status, 200);

  const made = await cli(server, 'backup', join(scratch, 'red'), '--organization', 'red');
  t.equal(made.code, 0, made.stderr);
  t.match(made.stdout, /\(organization 'red'\) written .* from the running server: \d+ entries .* and 1 uploaded file/);

  // After the backup: red loses its message and file, blue gets a new message.
  const redMessages = async (api: Api) => (await api.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0 })).body.messages.map((m: { content: string }) => m.content);
  const [attachment] = (await redOwner.get('/attachments')).body.attachments;
  t.equal((await redOwner.delete(`/attachments/${attachment.id}`)).status, 200, 'red\'s file is deleted');
  t.equal((await fetchRaw(redOwner, file)).status, 404, 'and no longer served');
  const [message] = (await redOwner.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 })).body.messages;
  t.equal((await redOwner.delete(`/messages/${message.id}`)).status, 200);
  t.equal((await redOwner.post('/messages', { type: 'stream', to: 'general', topic: 'later', content: 'red after the backup' })).status, 200);
  t.equal((await blueOwner.post('/messages', { type: 'stream', to: 'general', topic: 'news', content: 'blue after the backup' })).status, 200);

  const busy = await cli(server, 'restore', join(scratch, 'red'), '--organization', 'red');
  t.equal(busy.code, 2, 'a restore needs the server stopped');
  t.match(busy.stderr, /must be stopped first/);
  await server.stop();
  const restored = await cli(server, 'restore', join(scratch, 'red'), '--organization', 'red');
  t.equal(restored.code, 0, restored.stderr);
  t.match(restored.stdout, /restored organization \d+ 'red' .* 1 uploaded file copied/);

  const server2 = (current = await server.restart());
  const red2 = new Api(server2.url, red.email, red.apiKey, hostOf(server2, 'red'));
  const blue2 = new Api(server2.url, blue.email, blue.apiKey, hostOf(server2, 'blue'));
  const redNow = await redMessages(red2);
  t.ok(redNow.some((content: string) => content.includes('report.txt') || content.includes('report')), 'red\'s message is back');
  t.notOk(redNow.some((content: string) => content.includes('red after the backup')), 'what red wrote after the backup is gone');
  const fetched = await fetchRaw(red2, file);
  t.equal(fetched.status, 200, 'red\'s file is served again');
  t.ok(fetched.bytes.equals(bytes), 'with its bytes');
  const blueNow = await redMessages(blue2);
  t.ok(blueNow.some((content: string) => content.includes('blue after the backup')), 'blue keeps what it wrote after red\'s backup');
  t.equal((await blue2.get('/users/me')).status, 200);

  // Into another server whose organization 2 is not red: refused, nothing changed (ids are not renumbered).
  const other = await startTestServer();
  let otherNow = other;
  t.teardown(() => otherNow.destroy());
  const green = await createOrganization(t, other, 'green', 'Green team', 'owner@teams.example.com');
  await other.stop();
  const clash = await cli(other, 'restore', join(scratch, 'red'), '--organization', 'red');
  t.equal(clash.code, 2);
  t.match(clash.stderr, /organization 2 'green' holds its id/);
  const otherAgain = (otherNow = await other.restart());
  t.equal((await new Api(otherAgain.url, green.email, green.apiKey, hostOf(otherAgain, 'green')).get('/users/me')).status, 200, 'green is as it was');
});

test('with the server stopped, the CLI works on the data directory: organizations, and --organization on every command', async (t) => {
  const server = await startTestServer();
  let current = server;
  t.teardown(() => current.destroy());
  await server.stop();
  const red = await createOrganization(t, server, 'red', 'Red team', 'owner@teams.example.com');
  const listed = await cli(server, 'list-organizations');
  t.match(listed.stdout, /\tred\thttp:\/\/red\.localhost:\d+\tRed team\t1\tno\n/, 'listed from the data directory');
  const added = await cli(server, 'create-user', '--organization', 'red', '--email', 'ann@teams.example.com', '--name', 'Ann', '--password', 'ann-password-1');
  t.equal(added.code, 0, added.stderr);
  const rootUsers = await cli(server, 'list-users');
  t.notMatch(rootUsers.stdout, /ann@teams\.example\.com/, 'the root organization did not get her');
  t.match((await cli(server, 'list-users', '--organization', 'red')).stdout, /ann@teams\.example\.com\tAnn\tmember/);
  t.equal((await cli(server, 'list-users', '--organization', 'nowhere')).code, 2, 'an unknown organization is refused');
  t.equal((await cli(server, 'deactivate-organization', '--organization', 'red')).code, 0);

  const started = (current = await server.restart());
  const ann = await anonymous(started, 'red').post('/fetch_api_key', { username: 'ann@teams.example.com', password: 'ann-password-1' });
  t.same([ann.status, ann.body.code], [401, 'REALM_DEACTIVATED'], 'deactivated on the data directory, refused once served');
  t.equal((await cli(started, 'reactivate-organization', '--organization', 'red')).code, 0);
  const again = await anonymous(started, 'red').post('/fetch_api_key', { username: 'ann@teams.example.com', password: 'ann-password-1' });
  t.equal(again.status, 200, JSON.stringify(again.body));
  t.equal((await new Api(started.url, red.email, red.apiKey, hostOf(started, 'red')).get('/users/me')).status, 200, 'the owner made offline signs in');
});
