/** The web client as Parley serves it (the built dist/public): the page at / and client routes, assets precompressed, the API untouched. */
import { existsSync } from 'node:fs';
import { test } from 'tap';
import { WEB_BUILD } from '../helpers/browser.js';
import { world } from '../helpers/world.js';

test('the web client is served at /', { skip: existsSync(WEB_BUILD) ? false : 'the web client is not built (npm run build:web)' }, async (t) => {
  const { server } = await world(t);
  const page = await fetch(`${server.url}/`, { headers: { Accept: 'text/html', 'Accept-Encoding': 'br' } });
  t.equal(page.status, 200);
  t.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  t.equal(page.headers.get('cache-control'), 'no-cache');
  t.match(page.headers.get('content-security-policy'), /default-src 'self'/);
  const html = await page.text();
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  t.ok(script, 'the page names its hashed script');

  const asset = await fetch(`${server.url}${script}`, { headers: { 'Accept-Encoding': 'gzip' } });
  t.equal(asset.status, 200);
  t.equal(asset.headers.get('content-encoding'), 'gzip', 'precompressed');
  t.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  t.ok((await asset.text()).length > 1000, 'decoded by the client');

  const route = await fetch(`${server.url}/channel/1/topic/plans`, { headers: { Accept: 'text/html' } });
  t.equal(route.status, 200, 'a client route gets the page (a reload keeps the address)');
  t.equal(await route.text(), html);

  const head = await fetch(`${server.url}/`, { method: 'HEAD', headers: { Accept: 'text/html' } });
  t.equal(head.status, 200);

  const unknown = await fetch(`${server.url}/elsewhere`);
  t.equal(unknown.status, 404, 'without Accept: text/html an unknown path is still the API\'s 404');
  t.equal(((await unknown.json()) as { code: string }).code, 'NOT_FOUND');
  const missingAsset = await fetch(`${server.url}/assets/nothing-123.js`, { headers: { Accept: 'text/html' } });
  t.equal(missingAsset.status, 404);
  const post = await fetch(`${server.url}/`, { method: 'POST' });
  t.equal(post.status, 404, 'only GET and HEAD reach the client\'s files');
});
