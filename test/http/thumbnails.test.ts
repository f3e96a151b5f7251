/**
 * Image thumbnails through HTTP, as Zulip 9+ makes them: made with sharp after the upload is
 * durable (the upload does not wait for them), referenced from the rendered message with the
 * image's dimensions, served at their own URL to whoever may read the image, remade on demand.
 */
import { rmSync, existsSync } from 'node:fs';
import sharp from 'sharp';
import { test } from 'tap';
import { animatedGif, png } from '../helpers/images.js';
import { world } from '../helpers/world.js';
import { fetchRaw, uploaded } from '../helpers/uploads.js';
import { CORE_TEAM, VERONA, send } from '../helpers/messages.js';



const pathOf = (url: string) => url.slice('/user_uploads/'.length);
const renderedOf = async (api: Parameters<typeof fetchRaw>[0], id: number) => (await api.get(`/messages/${id}`)).body.message.content as string;

test('an uploaded image is thumbnailed and previewed as Zulip does', async (t) => {
  const { hamlet, othello, server } = await world(t);
  const image = await uploaded(hamlet, 'photo.png', await png(1200, 800), 'image/png');
  const path = pathOf(image.url);
  const record = server.services.attachments.byPathId(path)!;
  t.same(record.image, { width: 1200, height: 800, frames: 1 }, 'the size is read from the image at upload');
  // Made off the request path: the thumbnail appears on disk without anyone asking for it.
  await server.services.thumbnails.idle();
  t.ok(existsSync(server.services.files.thumbnailPath(record.sha256, '840x560.webp')));

  const id = await send(hamlet, VERONA, 'photos', `[photo](${image.url})`);
  const thumbnail = `/user_uploads/thumbnail/${path}/840x560.webp`;
  t.equal(
    await renderedOf(othello, id),
    `<p><a href="${image.url}">photo</a></p>\n<div class="message_inline_image"><a href="${image.url}" title="photo"><img data-original-dimensions="1200x800" src="${thumbnail}"></a></div>`,
  );
  const got = await fetchRaw(othello, thumbnail);
  t.equal(got.status, 200);
  t.equal(got.headers.get('content-type'), 'image/webp');
  const metadata = await sharp(got.bytes).metadata();
  t.same([metadata.format, metadata.width, metadata.height], ['webp', 840, 560], 'fits 840x560, proportions kept');
});

test('a small image is not enlarged; an animated one gets an animated thumbnail', async (t) => {
  const { hamlet, server } = await world(t);
  const small = await uploaded(hamlet, 'small.png', await png(100, 50), 'image/png');
  const smallThumb = await fetchRaw(hamlet, `/user_uploads/thumbnail/${pathOf(small.url)}/840x560.webp`);
  t.same([(await sharp(smallThumb.bytes).metadata()).width, (await sharp(smallThumb.bytes).metadata()).height], [100, 50]);
  const gif = await uploaded(hamlet, 'moving.gif', await animatedGif(60, 40, 3), 'image/gif');
  t.same(server.services.attachments.byPathId(pathOf(gif.url))!.image, { width: 60, height: 40, frames: 3 });
  const id = await send(hamlet, VERONA, 'gifs', `[moving](${gif.url})`);
  t.match(await renderedOf(hamlet, id), `<img data-animated="true" data-original-dimensions="60x40" src="/user_uploads/thumbnail/${pathOf(gif.url)}/840x560-anim.webp">`);
  const animated = await fetchRaw(hamlet, `/user_uploads/thumbnail/${pathOf(gif.url)}/840x560-anim.webp`);
  t.equal(animated.status, 200);
  t.equal((await sharp(animated.bytes, { animated: true }).metadata()).pages, 3);
  t.equal((await fetchRaw(hamlet, `/user_uploads/thumbnail/${pathOf(small.url)}/840x560-anim.webp`)).status, 404, 'no animated thumbnail of a still image');
  t.equal((await fetchRaw(hamlet, `/user_uploads/thumbnail/${pathOf(small.url)}/100x100.png`)).status, 404, 'an unknown format');
});

test('what is not an image gets no preview and no thumbnail', async (t) => {
  const { hamlet, server } = await world(t);
  const fake = await uploaded(hamlet, 'fake.png', 'not really a png', 'image/png');
  t.equal(server.services.attachments.byPathId(pathOf(fake.url))!.image, undefined);
  const text = await uploaded(hamlet, 'notes.txt', 'hello');
  const id = await send(hamlet, VERONA, 'files', `[fake](${fake.url}) [notes](${text.url})`);
  t.equal(await renderedOf(hamlet, id), `<p><a href="${fake.url}">fake</a> <a href="${text.url}">notes</a></p>`);
  t.equal((await fetchRaw(hamlet, `/user_uploads/thumbnail/${pathOf(fake.url)}/840x560.webp`)).status, 404);
});

test('a thumbnail is served only to those who may read the image', async (t) => {
  const { iago, desdemona, hamlet } = await world(t);
  const image = await uploaded(iago, 'private.png', await png(300, 300), 'image/png');
  await send(iago, CORE_TEAM, 'pictures', `[private](${image.url})`);
  const thumbnail = `/user_uploads/thumbnail/${pathOf(image.url)}/840x560.webp`;
  t.equal((await fetchRaw(desdemona, thumbnail)).status, 200);
  t.equal((await fetchRaw(hamlet, thumbnail)).status, 403);
  t.equal((await fetchRaw(hamlet, thumbnail, { anonymous: true })).status, 401);
});

test('a thumbnail lost (or never made before a restart) is made when asked for', async (t) => {
  const { hamlet, server } = await world(t);
  const image = await uploaded(hamlet, 'again.png', await png(900, 900), 'image/png');
  await server.services.thumbnails.idle();
  const record = server.services.attachments.byPathId(pathOf(image.url))!;
  const restarted = await server.restart();
  t.teardown(() => restarted.destroy());
  rmSync(restarted.services.files.thumbnailPath(record.sha256, '840x560.webp'));
  const got = await fetchRaw(hamlet, `/user_uploads/thumbnail/${pathOf(image.url)}/840x560.webp`);
  t.equal(got.status, 200);
  t.same([(await sharp(got.bytes).metadata()).width, (await sharp(got.bytes).metadata()).height], [560, 560]);
});

test('register lists the thumbnail formats made', async (t) => {
  const { hamlet } = await world(t);
  const state = await hamlet.post('/register', { fetch_event_types: ['realm'] });
  t.same(state.body.server_thumbnail_formats, [
    { name: '840x560-anim.webp', max_width: 840, max_height: 560, format: 'webp', animated: true },
    { name: '840x560.webp', max_width: 840, max_height: 560, format: 'webp', animated: false },
  ]);
});
