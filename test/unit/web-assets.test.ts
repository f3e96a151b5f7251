/** Serving the web client's files: encodings chosen, cache lifetimes, validators, and which paths fall back to the page. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { test } from 'tap';
import { WebAssets, chooseEncoding, isClientRoute } from '../../src/http/web-assets.js';

const HTML = 'text/html,application/xhtml+xml,*/*;q=0.8';

test('encodings', async (t) => {
  const both = { br: Buffer.from('b'), gz: Buffer.from('g') };
  t.equal(chooseEncoding('gzip, deflate, br', both), 'br');
  t.equal(chooseEncoding('gzip', both), 'gzip');
  t.equal(chooseEncoding('br;q=0, gzip', both), 'gzip', 'q=0 refuses');
  t.equal(chooseEncoding('', both), undefined);
  t.equal(chooseEncoding('br', { br: undefined, gz: both.gz }), undefined, 'only what was made');
});

test('client routes', async (t) => {
  t.ok(isClientRoute('/', ''), 'the root always');
  t.ok(isClientRoute('/channel/3/topic/x', HTML));
  t.notOk(isClientRoute('/channel/3', '*/*'), 'not for API-like requests (fetch, curl)');
  for (const path of ['/api/v1/users', '/json/x', '/user_uploads/1/a', '/static/x', '/health', '/assets/old-1234.js', '/robots.txt']) {
    t.notOk(isClientRoute(path, HTML), path);
  }
});

test('answers from a built directory', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-web-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  t.equal(WebAssets.load(dir), undefined, 'nothing built: nothing served');
  mkdirSync(join(dir, 'assets'));
  const js = Buffer.from('console.log("hello");'.repeat(20));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title>');
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), js);
  writeFileSync(join(dir, 'assets', 'index-abc123.js.br'), brotliCompressSync(js));
  writeFileSync(join(dir, 'assets', 'index-abc123.js.gz'), gzipSync(js));
  const assets = WebAssets.load(dir)!;
  const none = { accept: '*/*', acceptEncoding: '', ifNoneMatch: '' };

  const script = assets.answer('/assets/index-abc123.js', { ...none, acceptEncoding: 'gzip, br' })!;
  t.equal(script.status, 200);
  t.equal(script.headers['Content-Encoding'], 'br');
  t.same(script.body, brotliCompressSync(js));
  t.equal(script.headers['Cache-Control'], 'public, max-age=31536000, immutable', 'hashed files are cached for a year');
  t.equal(script.headers['Content-Type'], 'text/javascript; charset=utf-8');
  t.same(assets.answer('/assets/index-abc123.js', none)!.body, js, 'plain when no encoding is taken');

  const page = assets.answer('/', none)!;
  t.equal(page.headers['Cache-Control'], 'no-cache', 'the page is revalidated every time');
  t.match(page.headers['Content-Security-Policy'], /script-src 'self'/);
  t.equal(assets.answer('/', { ...none, ifNoneMatch: page.headers.ETag! })!.status, 304, 'unchanged: 304');
  t.equal(assets.answer('/dm/1,2', { ...none, accept: HTML })!.headers['Content-Type'], 'text/html; charset=utf-8', 'client routes get the page');
  t.equal(assets.answer('/assets/gone-999.js', { ...none, accept: HTML }), undefined, 'a missing file is not the page');
});
