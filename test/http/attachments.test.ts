/**
 * Attachments through HTTP: a message linking an upload claims it, edits and deletions let go
 * of it (`detached_uploads`), access to a file follows the messages that link it (a file linked
 * only from a private channel stays with that channel's readers), GET and DELETE /attachments,
 * the `attachment` events on another queue, the organization's quota, and a restart.
 */
import { existsSync } from 'node:fs';
import { test } from 'tap';
import { setRealm, world } from '../helpers/world.js';
import { fetchRaw, upload, uploaded } from '../helpers/uploads.js';
import { register, take } from '../helpers/events.js';
import { CORE_TEAM, VERONA, error, send } from '../helpers/messages.js';

const pathOf = (url: string) => url.slice('/user_uploads/'.length);
const readable = async (api: Parameters<typeof fetchRaw>[0], url: string) => (await fetchRaw(api, url)).status;

test('claiming uploads from messages', async (t) => {
  t.test('a message linking its author\'s upload claims it, and its readers may read the file', async (t) => {
    const { hamlet, othello } = await world(t);
    const file = await uploaded(hamlet, 'plan.txt', 'the plan');
    const queue = await register(hamlet, { event_types: ['attachment'] });
    t.equal(await readable(othello, file.url), 403, 'not shared yet');
    const id = await send(hamlet, VERONA, 'plans', `See [plan.txt](${file.url})`);
    const events = await take(queue);
    t.match(events, [{ type: 'attachment', op: 'update', attachment: { path_id: pathOf(file.url), messages: [{ id }] } }]);
    const list = (await hamlet.get('/attachments')).body;
    t.equal(list.attachments.length, 1);
    t.same(list.attachments[0].messages.map((m: { id: number }) => m.id), [id]);
    t.type(list.attachments[0].messages[0].date_sent, 'number');
    t.equal(list.upload_space_used, 8);
    t.equal(await readable(othello, file.url), 200, 'a reader of the message reads the file');
  });

  t.test('a file linked only from a private channel is not readable by outsiders', async (t) => {
    const { iago, desdemona, hamlet, othello, polonius } = await world(t);
    const file = await uploaded(iago, 'secret.txt', 'core team only');
    await send(iago, CORE_TEAM, 'internal', `[secret](${file.url})`);
    t.equal(await readable(desdemona, file.url), 200, 'a subscriber of the channel');
    for (const [name, api] of [['hamlet', hamlet], ['othello', othello], ['polonius', polonius]] as const) {
      const answer = await fetchRaw(api, file.url);
      t.same([answer.status, answer.bytes.toString()], [403, '<p>You are not authorized to view this file.</p>'], `${name} may not read it`);
      t.equal((await api.get(file.url)).status, 403, `${name} gets no short-lived URL`);
    }
    // Linking it elsewhere does not share it when the author may not read it.
    await send(hamlet, VERONA, 'leak', `[secret](${file.url})`);
    t.equal(await readable(othello, file.url), 403, 'a link by someone without access claims nothing');
    // Someone who may read it can share it, as in Zulip.
    await send(desdemona, VERONA, 'shared', `[secret](${file.url})`);
    t.equal(await readable(othello, file.url), 200, 'shared by a reader: now readable from Verona');
  });

  t.test('an edit that removes the link answers detached_uploads and takes access away', async (t) => {
    const { hamlet, othello } = await world(t);
    const file = await uploaded(hamlet, 'draft.txt', 'draft');
    const id = await send(hamlet, VERONA, 'drafts', `[draft](${file.url})`);
    const queue = await register(hamlet, { event_types: ['attachment'] });
    const edited = await hamlet.patch(`/messages/${id}`, { content: 'never mind' });
    t.equal(edited.status, 200);
    t.match(edited.body.detached_uploads, [{ path_id: pathOf(file.url), name: 'draft.txt', messages: [] }]);
    t.match(await take(queue), [{ type: 'attachment', op: 'update', attachment: { messages: [] } }]);
    t.equal(await readable(othello, file.url), 403);
    const relinked = await hamlet.patch(`/messages/${id}`, { content: `again: [draft](${file.url})` });
    t.same(relinked.body.detached_uploads, []);
    t.equal(await readable(othello, file.url), 200, 'an edit that adds the link claims it');
  });

  t.test('deleting the last message linking a file deletes the file', async (t) => {
    const { hamlet, server } = await world(t);
    const file = await uploaded(hamlet, 'gone.txt', 'gone soon');
    const first = await send(hamlet, VERONA, 'a', `[x](${file.url})`);
    const second = await send(hamlet, VERONA, 'b', `[x](${file.url})`);
    const queue = await register(hamlet, { event_types: ['attachment'] });
    t.equal((await hamlet.delete(`/messages/${first}`)).status, 200);
    t.match(await take(queue), [{ op: 'update', attachment: { messages: [{ id: second }] } }]);
    t.equal((await hamlet.delete(`/messages/${second}`)).status, 200);
    t.match(await take(queue), [{ op: 'remove', attachment: { id: Number } , upload_space_used: 0 }]);
    t.same((await hamlet.get('/attachments')).body.attachments, []);
    t.equal(await readable(hamlet, file.url), 404);
    t.same(await server.services.files.storedHashes(), []);
  });
});

test('GET and DELETE /attachments', async (t) => {
  t.test('lists only the caller\'s files, newest first', async (t) => {
    const { hamlet, othello } = await world(t);
    await uploaded(hamlet, 'one.txt', '1');
    await uploaded(hamlet, 'two.txt', '22');
    await uploaded(othello, 'three.txt', '333');
    const list = (await hamlet.get('/attachments')).body;
    t.same(list.attachments.map((a: { name: string }) => a.name), ['two.txt', 'one.txt']);
    t.equal(list.upload_space_used, 6, 'the whole organization\'s space');
    t.same(Object.keys(list.attachments[0]).sort(), ['create_time', 'id', 'messages', 'name', 'path_id', 'size']);
  });

  t.test('the owner deletes a file: gone from disk, a remove event; others are told it is invalid', async (t) => {
    const { hamlet, othello, server } = await world(t);
    const file = await uploaded(hamlet, 'x.txt', 'x');
    const copy = await uploaded(hamlet, 'y.txt', 'x');
    const [attachment] = (await hamlet.get('/attachments')).body.attachments.filter((a: { name: string }) => a.name === 'x.txt');
    const queue = await register(hamlet, { event_types: ['attachment'] });
    t.same(error(await othello.delete(`/attachments/${attachment.id}`)), [400, 'BAD_REQUEST', 'Invalid attachment']);
    t.same(error(await hamlet.delete('/attachments/999999')), [400, 'BAD_REQUEST', 'Invalid attachment']);
    t.equal((await hamlet.delete(`/attachments/${attachment.id}`)).status, 200);
    t.same(await take(queue), [{ type: 'attachment', op: 'remove', attachment: { id: attachment.id }, upload_space_used: 1, id: queue.last }]);
    t.equal(await readable(hamlet, file.url), 404);
    t.equal(await readable(hamlet, copy.url), 200, 'the same bytes under another attachment stay');
    const sha = server.services.attachments.byPathId(pathOf(copy.url))!.sha256;
    t.ok(existsSync(server.services.files.blobPath(sha)));
    const [other] = (await hamlet.get('/attachments')).body.attachments;
    t.equal((await hamlet.delete(`/attachments/${other.id}`)).status, 200);
    t.notOk(existsSync(server.services.files.blobPath(sha)), 'the last attachment of the bytes takes them');
  });
});

test('the organization\'s upload quota', async (t) => {
  const { hamlet, othello, server } = await world(t);
  await setRealm(server, { upload_quota_mib: 1 });
  const state = await hamlet.post('/register', { fetch_event_types: ['realm'] });
  t.equal(state.body.realm_upload_quota_mib, 1);
  t.equal((await upload(hamlet, { name: 'a.bin', data: Buffer.alloc(600 * 1024, 1) })).status, 200);
  const over = await upload(othello, { name: 'b.bin', data: Buffer.alloc(600 * 1024, 2) });
  t.same(error(over), [400, 'REALM_UPLOAD_QUOTA', "Upload would exceed your organization's upload quota."]);
  t.equal(server.services.attachments.usedBytes, 600 * 1024, 'the refused upload left nothing');
  t.same((await server.services.files.storedHashes()).length, 1);
  t.equal((await upload(othello, { name: 'c.bin', data: Buffer.alloc(400 * 1024, 3) })).status, 200, 'what fits still goes');
});

test('attachments and their links survive a restart', async (t) => {
  const { hamlet, othello, server } = await world(t);
  const file = await uploaded(hamlet, 'kept.txt', 'kept');
  const id = await send(hamlet, VERONA, 'kept', `[kept](${file.url})`);
  const restarted = await server.restart();
  t.teardown(() => restarted.destroy());
  const [attachment] = (await hamlet.get('/attachments')).body.attachments;
  t.same(attachment.messages.map((m: { id: number }) => m.id), [id]);
  t.equal(await readable(othello, file.url), 200);
});
