/**
 * Black-box tests of channel folders: creating (administrators only), listing in order with or
 * without the archived ones, renaming, describing, archiving (not while a channel is in it),
 * reordering, the `channel_folder` events on another queue, register's `channel_folders`, and a restart.
 */
import { test } from 'tap';
import type { Api } from '../helpers/client.js';
import { clientFor } from '../helpers/server.js';
import { register, take } from '../helpers/events.js';
import { error, VERONA } from '../helpers/messages.js';
import { IAGO } from '../helpers/demo-ids.js';
import { world } from '../helpers/world.js';

const bad = (msg: string) => [400, 'BAD_REQUEST', msg];
const create = async (api: Api, name: string, description = '') => {
  const response = await api.post('/channel_folders/create', { name, description });
  if (response.status !== 200) throw new Error(JSON.stringify(response.body));
  return response.body.channel_folder_id as number;
};
const names = async (api: Api, params = {}) => (await api.get('/channel_folders', params)).body.channel_folders.map((f: { name: string }) => f.name);

test('channel folders', async (t) => {
  t.test('create, list and change, with events everyone gets', async (t) => {
    const { iago, hamlet, polonius } = await world(t);
    const watcher = await register(polonius, { event_types: ['channel_folder'] });
    const first = await create(iago, '  Frontend ', 'Channels for **frontend** work');
    const folders = (await hamlet.get('/channel_folders')).body.channel_folders;
    t.match(folders, [{ id: first, name: 'Frontend', description: 'Channels for **frontend** work', rendered_description: '<p>Channels for <strong>frontend</strong> work</p>', creator_id: IAGO, is_archived: false, order: 0 }]);
    t.equal(typeof folders[0].date_created, 'number');
    const second = await create(iago, 'Backend');
    t.same(error(await hamlet.post('/channel_folders/create', { name: 'Mine', description: '' })), bad('Must be an organization administrator'));
    t.same(error(await iago.post('/channel_folders/create', { name: 'frontend', description: '' })), bad('Channel folder name already in use'));
    t.same(error(await iago.post('/channel_folders/create', { name: '   ', description: '' })), bad("Channel folder name can't be empty."));
    t.same(error(await iago.post('/channel_folders/create', { name: 'x'.repeat(61), description: '' })), bad('name is too long (limit: 60 characters)'));
    t.equal((await iago.patch(`/channel_folders/${second}`, { name: 'Server side', description: 'APIs' })).status, 200);
    t.same(error(await iago.patch('/channel_folders/999', { name: 'x' })), bad('Invalid channel folder ID'));
    t.same(error(await iago.patch(`/channel_folders/${second}`, { name: 'FRONTEND' })), bad('Channel folder name already in use'));
    t.equal((await iago.patch(`/streams/${VERONA}`, { folder_id: first })).status, 200);
    t.same(error(await iago.patch(`/channel_folders/${first}`, { is_archived: true })), bad('You need to remove all the channels from this folder to archive it.'));
    t.equal((await iago.patch(`/channel_folders/${second}`, { is_archived: true })).status, 200);
    t.same(await names(hamlet), ['Frontend']);
    t.same(await names(hamlet, { include_archived: true }), ['Frontend', 'Server side']);
    t.same(error(await iago.patch('/channel_folders', { order: [second] })), bad('Invalid order mapping.'));
    t.same(error(await iago.patch('/channel_folders', { order: [second, second] })), bad('Invalid order mapping.'));
    t.same(error(await hamlet.patch('/channel_folders', { order: [second, first] })), bad('Must be an organization administrator'));
    t.equal((await iago.patch('/channel_folders', { order: [second, first] })).status, 200);
    t.same(await names(hamlet, { include_archived: true }), ['Server side', 'Frontend']);
    const events = await take(watcher);
    t.same(events.map((e) => [e.op, e.channel_folder?.name ?? e.data ?? e.order]), [
      ['add', 'Frontend'],
      ['add', 'Backend'],
      ['update', { name: 'Server side' }],
      ['update', { description: 'APIs', rendered_description: '<p>APIs</p>' }],
      ['update', { is_archived: true }],
      ['reorder', [second, first]],
    ]);
    const state = (await hamlet.post('/register', { fetch_event_types: ['channel_folders'] })).body.channel_folders;
    t.same(state.map((f: { name: string }) => f.name), ['Server side', 'Frontend'], 'register lists archived folders too, in order');
  });

  t.test('after a restart', async (t) => {
    const w = await world(t);
    const id = await create(w.iago, 'Kept', 'Still here');
    const restarted = await w.server.restart();
    t.teardown(() => restarted.destroy());
    const hamlet = clientFor(restarted, 'hamlet@example.com');
    t.match((await hamlet.get('/channel_folders')).body.channel_folders, [{ id, name: 'Kept', description: 'Still here' }]);
    t.ok(await create(clientFor(restarted, 'iago@example.com'), 'Next') > id, 'ids are not reused');
  });
});
