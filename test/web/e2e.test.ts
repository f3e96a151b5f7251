/**
 * The web client end to end, in Debian's Chromium against a real server on a fresh data directory:
 * two people in two browser contexts; one sends and the other sees it live; unread counts drop when
 * read; an image is uploaded and displayed; an edit and a reaction appear on the other side; search
 * finds a message; the server restarts and both pages carry on.
 */
import { test } from 'tap';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../src/demo-organization.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { browserMissing, launchChromium, signedIn } from '../helpers/browser.js';
import { png } from '../helpers/images.js';

/**
 * What these tests read in the page (the root project has no DOM typings). Checks run as functions:
 * the page's CSP forbids evaluating strings.
 */
declare const document: {
  title: string;
  querySelector(selector: string): { value?: string; complete?: boolean; naturalWidth?: number } | null;
  querySelectorAll(selector: string): Iterable<{ getAttribute(name: string): string | null }>;
};

/** Waits are for what the page shows, never fixed sleeps; this bounds each on a loaded machine. */
const WAIT = { timeout: 60_000 };

const missing = browserMissing();

test('the web client, two people live', { skip: missing ?? false }, async (t) => {
  let server: TestServer = await startTestServer();
  t.teardown(() => server.destroy());
  const chromium = await launchChromium();
  t.teardown(() => chromium.close());
  const errors: string[] = [];
  const watch = (page: Page, who: string) => page.on('pageerror', (e) => errors.push(`${who}: ${e.message}`));

  const iago = await signedIn(chromium.browser, server.url, 'iago@example.com', DEMO_PASSWORD);
  const hamlet = await signedIn(chromium.browser, server.url, 'hamlet@example.com', DEMO_PASSWORD);
  watch(iago.page, 'iago');
  watch(hamlet.page, 'hamlet');
  const channelLink = (page: Page, name: string) => page.locator('nav.sidebar a.channel', { hasText: name });
  const veronaLink = (page: Page) => channelLink(page, 'Verona');
  const A = iago.page;
  const B = hamlet.page;

  await t.test('signed in stays signed in across a reload, at the address shown', async (t) => {
    await B.locator('nav.sidebar a.channel', { hasText: 'Denmark' }).click();
    await B.waitForURL(/\/channel\/3$/, WAIT);
    await B.reload();
    // The heading names the channel once registered (before, the page knows only its id).
    await B.locator('h1.narrow-title', { hasText: '#Denmark' }).waitFor(WAIT);
    t.pass('the reloaded page shows the same channel');
    t.notOk(await B.getByLabel('Password').count(), 'no sign-in form');
  });


  await t.test('one sends, the other sees it live, unread counts drop when read', async (t) => {
    await A.locator('nav.sidebar a.channel', { hasText: 'Verona' }).click();
    // The channel (and the compose box's destination) is shown with its messages, once they are fetched.
    await A.locator('h1.narrow-title', { hasText: '#Verona' }).waitFor(WAIT);
    await A.getByLabel('Topic', { exact: true }).fill('browsers');
    await A.getByLabel('Message', { exact: true }).fill('Hello from the browser, zebra-crossing');
    await A.getByLabel('Message', { exact: true }).press('Enter');
    await A.locator('article.message', { hasText: 'zebra-crossing' }).waitFor(WAIT);

    // Hamlet reads Denmark: Verona shows one unread message, and so does the tab title.
    await veronaLink(B).locator('.count', { hasText: '1' }).waitFor(WAIT);
    await B.waitForFunction(() => document.title.startsWith('(1)'), undefined, WAIT);
    await B.locator('nav.sidebar a.channel', { hasText: 'Verona' }).click();
    await B.locator('article.message', { hasText: 'zebra-crossing' }).waitFor(WAIT);
    await veronaLink(B).locator('.count').waitFor({ state: 'detached', ...WAIT });
    await B.waitForFunction(() => !document.title.startsWith('('), undefined, WAIT);
    t.pass('the message arrived live and became read when shown');
    // The echo was replaced, not doubled.
    t.equal(await A.locator('article.message', { hasText: 'zebra-crossing' }).count(), 1, 'the sender sees it once');
  });

  await t.test('an uploaded image is displayed on the other side', async (t) => {
    const image = await png(120, 80);
    await A.getByLabel('Attach files').setInputFiles({ name: 'swatch.png', mimeType: 'image/png', buffer: image });
    await A.waitForFunction(() => document.querySelector('textarea[aria-label="Message"]')?.value?.includes('/user_uploads/'), undefined, WAIT);
    await A.getByLabel('Message', { exact: true }).press('Enter');
    const shown = B.locator('article.message img[data-upload]').first();
    await shown.waitFor(WAIT);
    // Loaded: the browser decoded it (a refused or broken image has no natural width).
    await B.waitForFunction(() => {
      const img = document.querySelector('article.message img[data-upload]');
      return img !== null && img.complete === true && (img.naturalWidth ?? 0) > 0;
    }, undefined, WAIT);
    const src = (await shown.getAttribute('src')) ?? '';
    t.match(src, /^\/user_uploads\/temporary\//, 'shown through a short-lived URL');
    const keys = await B.evaluate(() => [...document.querySelectorAll('img, a')].map((e) => e.getAttribute('src') ?? e.getAttribute('href') ?? ''));
    t.notOk(keys.some((url) => /api_key|@example\.com/.test(url)), 'no credential in any URL of the page');
  });

  await t.test('an edit and a reaction appear on the other side', async (t) => {
    // Found by its id: while it is being edited its text is in a text box, not in the article's text.
    const id = await A.locator('article.message', { hasText: 'zebra-crossing' }).getAttribute('data-message-id');
    const mine = A.locator(`article.message[data-message-id="${id}"]`);
    await mine.hover();
    await mine.getByRole('button', { name: 'Edit message' }).click();
    const editor = mine.locator('textarea');
    await editor.waitFor(WAIT);
    await editor.fill('Hello from the browser, zebra-crossing, edited');
    await mine.getByRole('button', { name: 'Save' }).click();
    const theirs = B.locator('article.message', { hasText: 'zebra-crossing, edited' });
    await theirs.waitFor(WAIT);
    t.equal(await theirs.locator('.edited').count(), 1, 'marked as edited');

    await theirs.hover();
    await theirs.getByRole('button', { name: 'Add reaction' }).click();
    await B.getByLabel('Search emoji').fill('tada');
    await B.getByLabel('Search emoji').press('Enter');
    await A.locator('article.message', { hasText: 'zebra-crossing' }).getByRole('button', { name: 'tada: 1' }).waitFor(WAIT);
    t.pass('the reaction arrived');
  });

  await t.test('search finds a message', async (t) => {
    await A.getByRole('search').getByRole('searchbox').fill('zebra');
    await A.getByRole('search').getByRole('searchbox').press('Enter');
    await A.waitForURL(/\/search\//, WAIT);
    await A.locator('article.message', { hasText: 'zebra-crossing' }).waitFor(WAIT);
    t.equal(await A.locator('article.message').count(), 1, 'only the matching message');
    await A.locator('nav.sidebar a.channel', { hasText: 'Verona' }).click();
  });

  await t.test('after a server restart both pages carry on', async (t) => {
    server = await server.restart();
    await A.getByLabel('Message', { exact: true }).fill('After the restart, quokka');
    await A.getByLabel('Message', { exact: true }).press('Enter');
    await B.locator('article.message', { hasText: 'quokka' }).waitFor(WAIT);
    await A.locator('article.message:not(.pending)', { hasText: 'quokka' }).waitFor(WAIT);
    t.equal(await B.locator('article.message', { hasText: 'quokka' }).count(), 1, 'delivered once');
    t.equal(await B.locator('article.message', { hasText: 'zebra-crossing' }).count(), 1, 'earlier messages neither lost nor doubled');
  });

  await t.test('sign out returns to the sign-in page', async (t) => {
    await B.getByRole('button', { name: 'Sign out' }).click();
    await B.getByLabel('Password').waitFor(WAIT);
    await B.reload();
    await B.getByLabel('Password').waitFor(WAIT);
    t.pass('signed out, and still after a reload');
  });

  t.same(errors, [], 'no uncaught errors in either page');
});
