/**
 * Custom emoji through HTTP: POST /realm/emoji/{name} (Zulip's name rules, who may add, the image
 * checked and resized with sharp), GET /realm/emoji and register's `realm_emoji`, DELETE
 * (deactivates; authors and administrators only), the `realm_emoji` event on another queue, the
 * image served, `:name:` in messages, `realm_emoji` reactions, and a restart.
 */
import sharp from 'sharp';
import { test } from 'tap';
import type { Api } from '../helpers/client.js';
import { setRealm, world } from '../helpers/world.js';
import { fetchRaw } from '../helpers/uploads.js';
import { animatedGif, png } from '../helpers/images.js';
import { register, take } from '../helpers/events.js';
import { VERONA, send } from '../helpers/messages.js';

const error = (response: { status: number; body: any }) => [response.status, response.body.code, response.body.msg];



/** POST /realm/emoji/{name} with the given files (one image by default). */
async function addEmoji(api: Api, name: string, files?: { name: string; data: Buffer; type?: string }[]) {
  const form = new FormData();
  for (const file of files ?? [{ name: 'emoji.png', data: await png(100, 100), type: 'image/png' }]) {
    form.append('file', new Blob([file.data], file.type ? { type: file.type } : {}), file.name);
  }
  const response = await fetch(`${api.baseUrl}/api/v1/realm/emoji/${encodeURIComponent(name)}`, { method: 'POST', headers: { authorization: api.authorization! }, body: form });
  return { status: response.status, body: await response.json() as any };
}

test('POST /realm/emoji/{emoji_name}', async (t) => {
  t.test('adds an emoji that everyone hears of and sees in GET /realm/emoji', async (t) => {
    const { hamlet, othello, org } = await world(t);
    const queue = await register(othello, { event_types: ['realm_emoji'] });
    t.equal((await addEmoji(hamlet, 'green_tick')).status, 200);
    const listed = (await othello.get('/realm/emoji')).body.emoji;
    const [id] = Object.keys(listed);
    t.match(listed[id], { id, name: 'green_tick', deactivated: false, author_id: org.users.byEmail('hamlet@example.com')!.id, still_url: null });
    t.match(listed[id].source_url, new RegExp(`^/user_avatars/${org.id}/emoji/images/[0-9a-f]{8}\\.png$`));
    t.match(await take(queue), [{ type: 'realm_emoji', op: 'update', realm_emoji: { [id]: { name: 'green_tick' } } }]);
    const state = await othello.post('/register', { fetch_event_types: ['realm_emoji'] });
    t.same(state.body.realm_emoji, listed, 'register reports the same');
    const image = await fetchRaw(othello, listed[id].source_url, { anonymous: true });
    t.equal(image.status, 200, 'served without credentials, as Zulip');
    t.equal(image.headers.get('content-type'), 'image/png');
    const metadata = await sharp(image.bytes).metadata();
    t.same([metadata.width, metadata.height], [64, 64], 'resized to 64x64');
  });

  t.test('an animated emoji keeps its frames and gets a still', async (t) => {
    const { hamlet } = await world(t);
    t.equal((await addEmoji(hamlet, 'dance', [{ name: 'dance.gif', data: await animatedGif(), type: 'image/gif' }])).status, 200);
    const [emoji] = Object.values((await hamlet.get('/realm/emoji')).body.emoji) as any[];
    t.match(emoji.still_url, /\/emoji\/images\/still\/[0-9a-f]{8}\.png$/);
    const animated = await fetchRaw(hamlet, emoji.source_url);
    t.equal((await sharp(animated.bytes, { animated: true }).metadata()).pages, 2);
    const still = await fetchRaw(hamlet, emoji.still_url);
    t.same([still.status, still.headers.get('content-type')], [200, 'image/png']);
  });

  t.test('names follow Zulip\'s rules', async (t) => {
    const { hamlet, iago } = await world(t);
    t.same(error(await addEmoji(hamlet, 'Bad Name')), [400, 'BAD_REQUEST', 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.']);
    t.same(error(await addEmoji(hamlet, 'ends_')), [400, 'BAD_REQUEST', 'Emoji names must end with either a letter or digit.']);
    t.same(error(await addEmoji(hamlet, ' ')), [400, 'BAD_REQUEST', 'Emoji name is missing']);
    t.equal((await addEmoji(hamlet, 'two words')).status, 200, 'spaces become underscores');
    t.ok(Object.values((await hamlet.get('/realm/emoji')).body.emoji).some((e: any) => e.name === 'two_words'));
    t.same(error(await addEmoji(hamlet, 'two_words')), [400, 'BAD_REQUEST', 'A custom emoji with this name already exists.']);
    t.same(error(await addEmoji(hamlet, 'tada')), [400, 'BAD_REQUEST', 'Only administrators can override built-in emoji.']);
    t.equal((await addEmoji(iago, 'tada')).status, 200, 'an administrator may');
  });

  t.test('the file must be one image of at most 5 MiB', async (t) => {
    const { hamlet } = await world(t);
    t.same(error(await addEmoji(hamlet, 'none', [])), [400, 'BAD_REQUEST', 'You must upload exactly one file.']);
    const image = await png(10, 10);
    t.same(error(await addEmoji(hamlet, 'two', [{ name: 'a.png', data: image }, { name: 'b.png', data: image }])), [400, 'BAD_REQUEST', 'You must upload exactly one file.']);
    t.same(error(await addEmoji(hamlet, 'text', [{ name: 'a.txt', data: Buffer.from('hello'), type: 'text/plain' }])), [400, 'BAD_REQUEST', 'Invalid image format']);
    t.same(error(await addEmoji(hamlet, 'broken', [{ name: 'a.png', data: Buffer.from('not a png'), type: 'image/png' }])), [400, 'BAD_IMAGE', 'Could not decode image; did you upload an image file?']);
    t.same(error(await addEmoji(hamlet, 'huge', [{ name: 'a.png', data: Buffer.alloc(5 * 1024 * 1024 + 1), type: 'image/png' }])), [400, 'BAD_REQUEST', 'Uploaded file is larger than the allowed limit of 5 MiB']);
    t.same((await hamlet.get('/realm/emoji')).body.emoji, {}, 'nothing was added');
  });

  t.test('who may add: can_add_custom_emoji_group', async (t) => {
    const { hamlet, iago, polonius, server, org } = await world(t);
    t.same(error(await addEmoji(polonius, 'guest_emoji')), [400, 'BAD_REQUEST', 'Insufficient permission'], 'guests are not members');
    await setRealm(server, { can_add_custom_emoji_group: org.realm.systemGroups['role:administrators'] });
    t.same(error(await addEmoji(hamlet, 'member_emoji')), [400, 'BAD_REQUEST', 'Insufficient permission']);
    t.equal((await addEmoji(iago, 'admin_emoji')).status, 200);
  });
});

test('DELETE /realm/emoji/{emoji_name} deactivates', async (t) => {
  const { hamlet, othello, iago } = await world(t);
  await addEmoji(hamlet, 'mine');
  await addEmoji(hamlet, 'also_mine');
  const queue = await register(othello, { event_types: ['realm_emoji'] });
  t.same(error(await othello.delete('/realm/emoji/mine')), [400, 'BAD_REQUEST', 'Must be an organization administrator or emoji author']);
  t.same(error(await othello.delete('/realm/emoji/nothing')), [404, 'BAD_REQUEST', "Emoji 'nothing' does not exist"]);
  t.equal((await hamlet.delete('/realm/emoji/mine')).status, 200, 'the author');
  t.equal((await iago.delete('/realm/emoji/also_mine')).status, 200, 'an administrator');
  const events = await take(queue);
  t.equal(events.length, 2);
  const listed = Object.values((await othello.get('/realm/emoji')).body.emoji) as any[];
  t.same(listed.map((e) => [e.name, e.deactivated]), [['mine', true], ['also_mine', true]], 'still listed, deactivated');
  t.same(error(await hamlet.delete('/realm/emoji/mine')), [404, 'BAD_REQUEST', "Emoji 'mine' does not exist"]);
  t.equal((await addEmoji(othello, 'mine')).status, 200, 'the name is free again');
});

test('custom emoji in messages and reactions', async (t) => {
  const { hamlet, othello, server } = await world(t);
  t.equal((await addEmoji(hamlet, 'company_logo')).status, 200);
  const [emoji] = Object.values((await hamlet.get('/realm/emoji')).body.emoji) as any[];
  const id = await send(hamlet, VERONA, 'emoji', 'hello :company_logo: and :nope:');
  const rendered = (await othello.get(`/messages/${id}`)).body.message.content;
  t.equal(rendered, `<p>hello <img alt=":company_logo:" class="emoji" src="${emoji.source_url}" title="company logo"> and :nope:</p>`);

  const queue = await register(othello, { event_types: ['reaction'] });
  t.equal((await othello.post(`/messages/${id}/reactions`, { emoji_name: 'company_logo' })).status, 200, 'by name: the custom emoji');
  t.match(await take(queue), [{ type: 'reaction', op: 'add', emoji_name: 'company_logo', emoji_code: emoji.id, reaction_type: 'realm_emoji' }]);
  t.equal((await hamlet.post(`/messages/${id}/reactions`, { emoji_name: 'company_logo', emoji_code: emoji.id, reaction_type: 'realm_emoji' })).status, 200);
  t.same(error(await hamlet.post(`/messages/${id}/reactions`, { emoji_name: 'other', emoji_code: emoji.id, reaction_type: 'realm_emoji' })), [400, 'REACTION_ALREADY_EXISTS', 'Reaction already exists.']);
  const third = await send(hamlet, VERONA, 'emoji', 'again');
  t.same(error(await hamlet.post(`/messages/${third}/reactions`, { emoji_name: 'other', emoji_code: emoji.id, reaction_type: 'realm_emoji' })), [400, 'BAD_REQUEST', 'Invalid custom emoji name.']);
  t.same(error(await hamlet.post(`/messages/${third}/reactions`, { emoji_name: 'company_logo', emoji_code: '999', reaction_type: 'realm_emoji' })), [400, 'BAD_REQUEST', 'Invalid custom emoji.']);
  t.equal((await othello.delete(`/messages/${id}/reactions`, { emoji_name: 'company_logo' })).status, 200, 'removed by name');

  const statuses = await register(othello, { event_types: ['user_status'] });
  t.equal((await hamlet.post('/users/me/status', { status_text: 'branding', emoji_name: 'company_logo' })).status, 200, 'a custom emoji in a status');
  t.match(await take(statuses), [{ type: 'user_status', user_id: 4, emoji_name: 'company_logo', emoji_code: emoji.id, reaction_type: 'realm_emoji' }]);
  t.same(error(await hamlet.post('/users/me/status', { emoji_name: 'company_logo', emoji_code: '999', reaction_type: 'realm_emoji' })), [400, 'BAD_REQUEST', 'Invalid custom emoji.']);

  await hamlet.delete('/realm/emoji/company_logo');
  t.same(error(await hamlet.post(`/messages/${third}/reactions`, { emoji_name: 'company_logo', emoji_code: emoji.id, reaction_type: 'realm_emoji' })), [400, 'BAD_REQUEST', 'This custom emoji has been deactivated.']);
  t.equal((await othello.post(`/messages/${id}/reactions`, { emoji_name: 'company_logo', emoji_code: emoji.id, reaction_type: 'realm_emoji' })).status, 200, 'a vote on an existing reaction still counts');
  const after = await send(hamlet, VERONA, 'emoji', 'now :company_logo:');
  t.equal((await othello.get(`/messages/${after}`)).body.message.content, '<p>now :company_logo:</p>', 'a deactivated emoji is text in new messages');

  const restarted = await server.restart();
  t.teardown(() => restarted.destroy());
  const again = Object.values((await hamlet.get('/realm/emoji')).body.emoji) as any[];
  t.same(again.map((e) => [e.name, e.deactivated]), [['company_logo', true]], 'kept across a restart');
  t.equal((await fetchRaw(hamlet, emoji.source_url, { anonymous: true })).status, 200, 'its image too');
});
