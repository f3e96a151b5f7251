/**
 * Data exports through HTTP: requested by an administrator, made outside the request into a
 * tar.gz of Zulip's export files, listed, downloaded by administrators only, deleted; the
 * `realm_export` events on another administrator's queue; kept across a restart.
 */
import { test } from 'tap';
import { gunzipSync } from 'node:zlib';
import { Api } from '../helpers/client.js';
import { delay, ofType, register, take, waitFor, IAGO } from '../helpers/events.js';
import { error, send } from '../helpers/messages.js';
import { world } from '../helpers/world.js';

/** The files of a tar archive: name → contents (ustar, as node-tar writes it). */
function untar(archive: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let offset = 0;
  while (offset + 512 <= archive.length) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const field = (from: number, length: number) => header.subarray(from, from + length).toString('utf8').replace(/\0.*$/s, '');
    const name = (field(345, 155) ? field(345, 155) + '/' : '') + field(0, 100);
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1);
    if (type === '0' || type === '') files.set(name, archive.subarray(offset + 512, offset + 512 + size));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

test('data exports', async (t) => {
  t.test('POST /export/realm makes a tarball in Zulip\'s format, outside the request', async (t) => {
    const w = await world(t);
    await send(w.hamlet, 'Verona', 'exported', 'public words');
    await send(w.iago, 'core team', 'secret', 'private words');
    const queue = await register(w.desdemona, { event_types: ['realm_export'] });
    t.same(error(await w.hamlet.post('/export/realm')), [400, 'BAD_REQUEST', 'Must be an organization administrator']);
    t.same(error(await w.iago.post('/export/realm', { export_type: 7 })), [400, 'BAD_REQUEST', 'Invalid export_type']);
    const requested = await w.iago.post('/export/realm');
    t.equal(requested.status, 200, JSON.stringify(requested.body));
    const id = requested.body.id;
    t.type(id, 'number');
    const first = ofType(await take(queue), 'realm_export');
    t.equal(first[0]?.exports[0]?.id, id, 'the administrators hear of the request');
    // The made export is announced once its write is durable: wait for that event, not for memory.
    let done: any;
    const deadline = Date.now() + 60_000;
    while (!done && Date.now() < deadline) {
      const event = ofType(await take(queue), 'realm_export').at(-1);
      done = event?.exports.find((e: any) => e.id === id && !e.pending);
      if (!done) await delay(50);
    }
    t.same([done.pending, done.acting_user_id, done.export_type, done.deleted_timestamp, done.failed_timestamp], [false, IAGO, 1, null, null]);
    t.match(done.export_url, new RegExp(`^${w.server.url}/user_avatars/exports/\\d+/[0-9a-f]+/zulip-export-[0-9a-f]+\\.tar\\.gz$`));
    const listed = await w.iago.get('/export/realm');
    t.same(listed.body.exports.map((e: any) => [e.id, e.pending, e.export_url]), [[id, false, done.export_url]]);
    t.same(error(await w.hamlet.get('/export/realm')), [400, 'BAD_REQUEST', 'Must be an organization administrator']);

    const auth = (api: Api) => ({ authorization: api.authorization! });
    t.equal((await fetch(done.export_url, { headers: auth(w.hamlet) })).status, 403, 'members may not download it');
    const download = await fetch(done.export_url, { headers: auth(w.desdemona) });
    t.equal(download.status, 200);
    const files = untar(gunzipSync(Buffer.from(await download.arrayBuffer())));
    const names = [...files.keys()].map((n) => n.replace(/^zulip-export-[0-9a-f]+\//, ''));
    for (const name of ['realm.json', 'messages-000001.json', 'attachment.json', 'uploads/records.json']) t.ok(names.includes(name), name);
    const get = (name: string) => JSON.parse([...files].find(([n]) => n.endsWith(`/${name}`))![1].toString());
    const realm = get('realm.json');
    t.ok(realm.zerver_userprofile.some((u: any) => u.delivery_email === 'hamlet@example.com'));
    t.ok(realm.zerver_stream.some((s: any) => s.name === 'Verona'));
    const contents = get('messages-000001.json').zerver_message.map((m: any) => m.content);
    t.ok(contents.includes('public words'), 'public channels are exported');
    t.notOk(contents.includes('private words'), 'a public export leaves private channels out');
    t.ok(get('messages-000001.json').zerver_usermessage.length > 0);

    const restarted = await w.server.restart();
    t.teardown(() => restarted.destroy());
    const desdemona = new Api(restarted.url, w.desdemona.email, w.desdemona.apiKey);
    t.same((await desdemona.get('/export/realm')).body.exports.map((e: any) => e.id), [id], 'kept across a restart');
    t.equal((await fetch(done.export_url.replace(w.server.url, restarted.url), { headers: auth(desdemona) })).status, 200);
    const queue2 = await register(desdemona, { event_types: ['realm_export'] });
    t.equal((await desdemona.delete(`/export/realm/${id}`)).status, 200);
    const deleted = ofType(await take(queue2), 'realm_export')[0].exports[0];
    t.same([deleted.id, typeof deleted.deleted_timestamp, deleted.export_url], [id, 'number', null]);
    t.same(error(await desdemona.delete(`/export/realm/${id}`)), [400, 'BAD_REQUEST', 'Export already deleted']);
    t.same(error(await desdemona.delete('/export/realm/999')), [400, 'BAD_REQUEST', 'Invalid data export ID']);
    t.equal((await fetch(done.export_url.replace(w.server.url, restarted.url), { headers: auth(desdemona) })).status, 404, 'the file is gone');
  });

  t.test('GET /export/realm/consents and the weekly limit', async (t) => {
    const w = await world(t);
    t.equal((await w.hamlet.patch('/settings', { allow_private_data_export: true })).status, 200);
    const consents = await w.iago.get('/export/realm/consents');
    t.equal(consents.status, 200);
    const hamlet = consents.body.export_consents.find((c: any) => c.user_id === w.org.users.byEmail('hamlet@example.com')!.id);
    t.same(hamlet, { user_id: hamlet.user_id, consented: true });
    t.ok(consents.body.export_consents.every((c: any) => c.user_id === hamlet.user_id || c.consented === false));
    t.same(error(await w.hamlet.get('/export/realm/consents')), [400, 'BAD_REQUEST', 'Must be an organization administrator']);
    for (let i = 0; i < 5; i++) t.equal((await w.iago.post('/export/realm', { export_type: 2 })).status, 200);
    t.same(error(await w.iago.post('/export/realm')), [400, 'BAD_REQUEST', 'Exceeded rate limit.']);
    await waitFor(() => (w.org.realm.exports ?? []).every((e) => e.status === 'succeeded'), 'the exports are made', 60_000);
  });
});
