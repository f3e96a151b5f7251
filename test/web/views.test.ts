/**
 * The web client's views beside the feed, end to end in Debian's Chromium against a real server:
 * the Inbox and Recent conversations (from the sidebar and by Zulip's hash addresses), muting and
 * following a topic, the message cursor and its keys, drafts and scheduled messages browsed and
 * changed, and the main screens at a phone's 360 px and at 200 % zoom. One server, one browser.
 */
import { test, type Test } from 'tap';
import type { Locator, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../src/demo-organization.js';
import { clientFor, startTestServer, type TestServer } from '../helpers/server.js';
import { browserMissing, launchChromium, signedIn, type LaunchedBrowser } from '../helpers/browser.js';
import type { Api } from '../helpers/client.js';
import { localInputValue } from '../../web/src/state/drafts.js';

/** What these tests read in the page (the root project has no DOM typings); checks run as functions (the CSP forbids strings). */
interface Box {
  scrollWidth: number;
  clientWidth: number;
  value?: string;
  getAttribute(name: string): string | null;
}
declare const document: {
  title: string;
  activeElement: Box | null;
  querySelector(selector: string): Box | null;
  documentElement: Box;
};
declare const window: { innerWidth: number };

const WAIT = { timeout: 60_000 };
const missing = browserMissing();

/** Nothing wider than its box: the page, the main column, the feed, a page of the main column, the top bar. */
async function overflows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const wide: string[] = [];
    if (document.documentElement.scrollWidth > window.innerWidth + 1) wide.push('page');
    for (const selector of ['main', 'main .feed', 'main .page', 'main .compose', 'header.topbar']) {
      const el = document.querySelector(selector);
      if (el && el.scrollWidth > el.clientWidth + 1) wide.push(selector);
    }
    return wide;
  });
}

/** The compose box and its send button lie inside the viewport. */
async function composeReachable(page: Page): Promise<boolean> {
  const size = page.viewportSize()!;
  for (const control of [page.getByLabel('Message', { exact: true }), page.getByRole('button', { name: 'Send', exact: true })]) {
    const box = await control.boundingBox();
    if (!box || box.x < 0 || box.y < 0 || box.x + box.width > size.width + 1 || box.y + box.height > size.height + 1) return false;
  }
  return true;
}

type Screen = { viewport: { width: number; height: number }; deviceScaleFactor: number };

/** What the parts of the test share: one server, one browser, Iago's page, Othello writing through the API. */
interface Views {
  server: TestServer;
  chromium: LaunchedBrowser;
  A: Page;
  errors: string[];
  iagoApi: Api;
  othello: Api;
  verona: number;
  denmark: number;
  say: (to: string, topic: string, content: string) => Promise<unknown>;
  side: (label: string) => Locator;
}

async function views(server: TestServer, chromium: LaunchedBrowser): Promise<Views> {
  const errors: string[] = [];
  const othello = clientFor(server, 'othello@example.com');
  const iagoApi = clientFor(server, 'iago@example.com');
  const channelId = async (name: string) => (await iagoApi.get('/get_stream_id', { stream: name })).body.stream_id as number;
  const { page: A } = await signedIn(chromium.browser, server.url, 'iago@example.com', DEMO_PASSWORD);
  A.on('pageerror', (e) => errors.push(`iago: ${e.message}`));
  return {
    server, chromium, A, errors, iagoApi, othello,
    verona: await channelId('Verona'),
    denmark: await channelId('Denmark'),
    say: (to, topic, content) => othello.post('/messages', { type: 'stream', to, topic, content }),
    side: (label) => A.locator('nav.sidebar a.nav-link', { hasText: label }).first(),
  };
}

test('the web client\'s views: Inbox, Recent, muted topics, the cursor, drafts, scheduled, small screens', { skip: missing ?? false }, async (t) => {
  const server: TestServer = await startTestServer();
  t.teardown(() => server.destroy());
  const chromium = await launchChromium();
  t.teardown(() => chromium.close());
  const c = await views(server, chromium);

  await t.test('the Inbox: unread conversations grouped by channel and topic, and direct messages, with counts', (t) => inbox(t, c));
  await t.test('Recent conversations, by Zulip\'s hash address; participated and unread filters', (t) => recent(t, c));
  await t.test('muting a topic dims it in the sidebar and keeps it out of the combined feed, live; following', (t) => muting(t, c));
  await t.test('the message cursor: j / k and arrows select, focus follows, r replies, Esc leaves, n goes to the next unread topic', (t) => cursor(t, c));
  await t.test('drafts: kept while writing, listed, restored into the compose box, deleted', (t) => drafts(t, c));
  await t.test('scheduled messages: listed, time and text changed, deleted', (t) => scheduled(t, c));
  // A phone, and a 1280 × 800 window at 200 % zoom (640 × 400 CSS pixels, each two device pixels).
  await t.test('the main screens at a phone 360 px wide: nothing wider than the screen, compose reachable', (t) =>
    smallScreen(t, c, 'a phone 360 px wide', { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2 }, 'hamlet@example.com'));
  await t.test('the main screens at 200 % zoom: nothing wider than the screen, compose reachable', (t) =>
    smallScreen(t, c, '200 % zoom', { viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 }, 'desdemona@example.com'));

  t.same(c.errors, [], 'no uncaught errors in any page');
});

/** The Inbox from the sidebar: messages arrive live, grouped and counted; a topic read leaves it; the filter. */
async function inbox(t: Test, c: Views): Promise<void> {
  const { A, side, say, othello, verona } = c;
  const row = (text: string) => A.locator('.inbox-row', { hasText: text });
  // Sent once the Inbox is shown: the combined feed would show them, and so mark them read; here they arrive live.
  await side('Inbox').click();
  await A.waitForURL(/\/inbox$/, WAIT);
  await say('Verona', 'gossip', 'rumour-one');
  await say('Verona', 'plans', 'plan-alpha');
  await say('Denmark', 'castle', 'ghost-sighting');
  await othello.post('/messages', { type: 'direct', to: JSON.stringify(['iago@example.com']), content: 'private-word' });
  // Each of the four arrives by its own event, perhaps in a later poll than the one before it: wait
  // for the last two sent (the Inbox may show 'plans' before they are in), then count.
  await row('plans').waitFor(WAIT);
  await A.locator('.inbox-group[aria-label="#Denmark"] .inbox-row', { hasText: 'castle' }).waitFor(WAIT);
  await A.locator('.inbox-group[aria-label="Direct messages"] .inbox-row', { hasText: 'Othello' }).waitFor(WAIT);
  t.equal(await row('plans').locator('.count').textContent(), '1', 'a topic and its count');
  t.equal(await A.locator('.inbox-group[aria-label="#Verona"] .inbox-row').count(), 2, 'Verona\'s two topics under it');
  t.equal(await A.locator('.inbox-group[aria-label="#Denmark"] .inbox-row', { hasText: 'castle' }).count(), 1);
  t.equal(await A.locator('.inbox-group[aria-label="Direct messages"] .inbox-row', { hasText: 'Othello' }).count(), 1, 'the direct message conversation');
  await row('plans').getByRole('link').click();
  await A.waitForURL(new RegExp(`/channel/${verona}/topic/plans$`), WAIT);
  await A.locator('article.message', { hasText: 'plan-alpha' }).waitFor(WAIT);
  await side('Inbox').click();
  await row('gossip').waitFor(WAIT);
  await row('plans').waitFor({ state: 'detached', ...WAIT });
  t.pass('a topic read leaves the Inbox');
  await A.getByLabel('Filter conversations').fill('cast');
  await row('gossip').waitFor({ state: 'detached', ...WAIT });
  t.equal(await row('castle').count(), 1, 'the filter keeps what matches');
  await A.getByLabel('Filter conversations').fill('');
  await A.locator('h1#inbox-title').click();
  // The first conversation is the direct message one (channels and their topics follow; they stay unread for the tests below).
  await A.keyboard.press('j');
  const focused = await A.evaluate(() => document.activeElement?.getAttribute('href'));
  t.match(focused, /^\/dm\//, 'j moves the focus to the first conversation');
  await A.keyboard.press('Enter');
  await A.waitForURL((url) => url.pathname === focused, WAIT);
  t.pass('Enter opens the focused one');
}

/** Recent conversations by Zulip's hash address: who took part, the unread and participated filters. */
async function recent(t: Test, c: Views): Promise<void> {
  const { A } = c;
  await A.goto('/#recent');
  await A.waitForURL(/\/recent$/, WAIT);
  const recent = (text: string) => A.locator('.recent-row', { hasText: text });
  await recent('gossip').waitFor(WAIT);
  t.match(await recent('gossip').locator('.recent-people').textContent(), /Othello/, 'who took part');
  t.equal(await recent('castle').count(), 1);
  t.equal(await A.locator('.recent-where', { hasText: 'Othello' }).count(), 1, 'the direct message conversation');
  await A.getByRole('button', { name: 'Unread', exact: true }).click();
  await recent('plans').waitFor({ state: 'detached', ...WAIT });
  t.equal(await recent('castle').count(), 1, 'unread: the read topic goes, the unread ones stay');
  await A.getByRole('button', { name: 'Unread', exact: true }).click();
  await A.getByRole('button', { name: 'Participated' }).click();
  await recent('castle').waitFor({ state: 'detached', ...WAIT });
  t.equal(await A.locator('.recent-where', { hasText: '#' }).count(), 0, 'participated: no channel topic Iago has not written in');
  t.equal(await A.locator('.recent-where', { hasText: 'Othello' }).count(), 1, 'the direct message conversation stays');
}

/** Muting a topic from its header: dimmed in the sidebar, out of the combined feed (live too), kept after a reload; following. */
async function muting(t: Test, c: Views): Promise<void> {
  const { A, side, say } = c;
  await side('Verona').click();
  await A.locator('article.message', { hasText: 'rumour-one' }).waitFor(WAIT);
  await A.getByRole('button', { name: 'Mute topic gossip', exact: true }).first().click();
  await A.locator('nav.sidebar .topics li.muted', { hasText: 'gossip' }).waitFor(WAIT);
  t.equal(await A.locator('nav.sidebar .topics li.muted', { hasText: 'plans' }).count(), 0, 'only that topic is dimmed');
  await side('Combined feed').click();
  // A switch shows its narrow once the page is fetched (Verona's messages stay until then).
  await A.locator('h1.narrow-title', { hasText: 'Combined feed' }).waitFor(WAIT);
  await A.locator('article.message', { hasText: 'plan-alpha' }).waitFor(WAIT);
  t.equal(await A.locator('article.message', { hasText: 'rumour-one' }).count(), 0, 'the muted topic is not in the combined feed');
  await say('Verona', 'gossip', 'rumour-two');
  await say('Verona', 'plans', 'plan-beta');
  await A.locator('article.message', { hasText: 'plan-beta' }).waitFor(WAIT);
  t.equal(await A.locator('article.message', { hasText: 'rumour-two' }).count(), 0, 'nor are its new messages');
  await A.reload();
  await side('Verona').click();
  await A.getByRole('button', { name: 'Unmute topic gossip', exact: true }).first().waitFor(WAIT);
  t.pass('muted still after a reload (kept by the server)');
  await A.getByRole('button', { name: 'Follow topic plans', exact: true }).first().click();
  await A.getByRole('button', { name: 'Unfollow topic plans', exact: true }).first().waitFor(WAIT);
  t.equal(await A.getByRole('button', { name: 'Unfollow topic plans', exact: true }).first().getAttribute('aria-pressed'), 'true', 'followed');
}

/** The message cursor and its keys; n twice. */
async function cursor(t: Test, c: Views): Promise<void> {
  const { A, side, say, iagoApi, denmark } = c;
  // In Verona (where the last test left the page): every message has a topic.
  await A.locator('article.message', { hasText: 'plan-beta' }).waitFor(WAIT);
  await A.locator('h1.narrow-title').click();
  const selected = async () => Number(await A.locator('article.message.selected').getAttribute('data-message-id'));
  // A key moves the cursor; wait until another message is selected and focus has followed it (fails on the timeout if never).
  const move = async (key: string, from?: number) => {
    await A.keyboard.press(key);
    await A.waitForFunction((before) => {
      const chosen = document.querySelector('article.message.selected');
      return chosen !== null && chosen.getAttribute('data-message-id') !== before && document.activeElement === chosen;
    }, String(from), WAIT);
    return selected();
  };
  const first = await move('k');
  const second = await move('k', first);
  t.ok(second < first, 'k selects the message before, focused');
  t.equal(await A.locator('article.message.selected').getAttribute('aria-current'), 'true', 'marked for assistive technology');
  t.equal(await move('ArrowDown', second), first, 'the down arrow selects the next one, focused');
  t.equal(await move('ArrowUp', first), second, 'the up arrow the one before, focused');
  await A.keyboard.press('r');
  await A.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Message', undefined, WAIT);
  const message = (await iagoApi.get(`/messages/${second}`)).body.message as { subject: string };
  t.equal(await A.getByLabel('Topic', { exact: true }).inputValue(), message.subject, 'r: the reply goes to the selected message\'s topic');
  await A.keyboard.press('Escape');
  t.not(await A.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Message', 'Esc leaves the compose box');

  // Everything else was read in the combined feed but the muted topic's newest message: two new topics, oldest first.
  await say('Denmark', 'watch', 'night-watch');
  await say('Denmark', 'succession', 'crown-question');
  await side('Denmark').locator('.count', { hasText: '2' }).waitFor(WAIT);
  await side('Verona').locator('.count').waitFor({ state: 'detached', ...WAIT });
  await A.keyboard.press('n');
  await A.waitForURL(new RegExp(`/channel/${denmark}/topic/watch$`), WAIT);
  await A.locator('article.message', { hasText: 'night-watch' }).waitFor(WAIT);
  await A.locator('h1.narrow-title').click();
  await A.keyboard.press('n');
  await A.waitForURL(new RegExp(`/channel/${denmark}/topic/succession$`), WAIT);
  t.pass('n: the oldest unread topic, then the next one (the muted topic with unread messages skipped)');
}

/** A draft kept while writing, listed, restored and sent; another deleted. */
async function drafts(t: Test, c: Views): Promise<void> {
  const { A, iagoApi, othello, verona } = c;
  const drafts = A.locator('nav.sidebar a.page-link', { hasText: 'Drafts' });
  await A.goto(`/channel/${verona}/topic/plans`);
  await A.getByLabel('Message', { exact: true }).fill('draft-kept-here');
  await drafts.locator('.tally', { hasText: '1' }).waitFor(WAIT);
  await A.getByLabel('Message', { exact: true }).fill('');
  await drafts.click();
  await A.waitForURL(/\/drafts$/, WAIT);
  const item = A.locator('.saved-item.draft', { hasText: 'draft-kept-here' });
  await item.waitFor(WAIT);
  t.match(await item.locator('.saved-where').textContent(), /#Verona › plans/, 'where it goes');
  await item.getByRole('button', { name: /^Restore/ }).click();
  await A.waitForURL(new RegExp(`/channel/${verona}/topic/plans$`), WAIT);
  t.equal(await A.getByLabel('Message', { exact: true }).inputValue(), 'draft-kept-here', 'restored into the compose box');
  await A.getByLabel('Message', { exact: true }).press('Enter');
  await A.locator('article.message:not(.pending)', { hasText: 'draft-kept-here' }).waitFor(WAIT);
  await drafts.locator('.tally').waitFor({ state: 'detached', ...WAIT });
  t.same((await iagoApi.get('/drafts')).body.drafts, [], 'sent: the draft is gone on the server');

  const othelloId = (await othello.get('/users/me')).body.user_id as number;
  await iagoApi.post('/drafts', { drafts: JSON.stringify([{ type: 'private', to: [othelloId], topic: '', content: 'dm-draft', timestamp: Math.floor(Date.now() / 1000) }]) });
  await drafts.click();
  const dm = A.locator('.saved-item.draft', { hasText: 'dm-draft' });
  await dm.waitFor(WAIT);
  await dm.getByRole('button', { name: /^Delete/ }).click();
  await dm.waitFor({ state: 'detached', ...WAIT });
  t.same((await iagoApi.get('/drafts')).body.drafts, [], 'deleted on the server');
}

/** A scheduled message listed, its text and time changed, deleted (each checked on the server). */
async function scheduled(t: Test, c: Views): Promise<void> {
  const { A, iagoApi, verona } = c;
  const at = Math.floor(Date.now() / 1000) + 3600;
  await iagoApi.post('/scheduled_messages', { type: 'stream', to: verona, topic: 'plans', content: 'later-on', scheduled_delivery_timestamp: at });
  await A.locator('nav.sidebar a.page-link', { hasText: 'Scheduled messages' }).click();
  await A.waitForURL(/\/scheduled$/, WAIT);
  await A.locator('.saved-item', { hasText: 'later-on' }).waitFor(WAIT);
  // By its id: while edited, its text is in a text box, not in the item's text.
  const id = await A.locator('.saved-item', { hasText: 'later-on' }).getAttribute('data-scheduled-id');
  const item = A.locator(`.saved-item[data-scheduled-id="${id}"]`);
  await item.getByRole('button', { name: /^Edit/ }).click();
  await item.getByLabel('Scheduled message text').fill('later-on, changed');
  const when = localInputValue(at + 3600);
  await item.getByLabel('Send at').fill(when);
  await item.getByRole('button', { name: 'Save' }).click();
  await A.locator('.saved-item', { hasText: 'later-on, changed' }).locator('.saved-actions').waitFor(WAIT);
  const [stored] = (await iagoApi.get('/scheduled_messages')).body.scheduled_messages as { content: string; scheduled_delivery_timestamp: number }[];
  t.equal(stored?.content, 'later-on, changed', 'the text changed on the server');
  t.equal(stored?.scheduled_delivery_timestamp, Math.floor(new Date(when).getTime() / 1000), 'and the time');
  await A.locator('.saved-item', { hasText: 'later-on, changed' }).getByRole('button', { name: /^Delete/ }).click();
  await A.locator('.saved-item').first().waitFor({ state: 'detached', ...WAIT });
  t.same((await iagoApi.get('/scheduled_messages')).body.scheduled_messages, [], 'deleted on the server');
}

/** A channel, the Inbox, Recent and Drafts on a small screen: nothing wider than the screen, the compose box reachable and working. */
async function smallScreen(t: Test, c: Views, label: string, screen: Screen, email: string): Promise<void> {
  const { chromium, server, errors, denmark } = c;
  const { page, context } = await signedIn(chromium.browser, server.url, email, DEMO_PASSWORD, { viewport: { ...screen.viewport }, deviceScaleFactor: screen.deviceScaleFactor });
  page.on('pageerror', (e) => errors.push(`${email}: ${e.message}`));
  await page.goto(`/channel/${denmark}`);
  await page.locator('article.message', { hasText: 'ghost-sighting' }).waitFor(WAIT);
  t.same(await overflows(page), [], 'a channel: no horizontal overflow');
  t.ok(await composeReachable(page), 'the compose box and its send button are on screen');
  await page.getByLabel('Message', { exact: true }).fill(`small-screen ${label}`);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.locator('article.message:not(.pending)', { hasText: `small-screen ${label}` }).waitFor(WAIT);
  for (const [link, heading] of [['Inbox', 'Inbox'], ['Recent conversations', 'Recent conversations'], ['Drafts', 'Drafts']] as const) {
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.locator('nav.sidebar a.page-link', { hasText: link }).click();
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor(WAIT);
    t.same(await overflows(page), [], `${heading}: no horizontal overflow`);
  }
  await context.close();
}
