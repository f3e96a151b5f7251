/**
 * `npm run screenshots`: the web client's main screens, for docs/screenshots/. Starts the demo
 * organization on a fresh data directory, writes a short conversation through the API, and
 * photographs the pages in Debian's Chromium (light, dark, a 360 px phone; the Inbox, Recent
 * conversations and scheduled messages).
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEMO_PASSWORD } from '../src/demo-organization.js';
import { browserMissing, launchChromium, signedIn } from '../test/helpers/browser.js';
import { clientFor, startTestServer } from '../test/helpers/server.js';
import { png } from '../test/helpers/images.js';

const OUT = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

const missing = browserMissing();
if (missing) throw new Error(missing);
mkdirSync(OUT, { recursive: true });
const server = await startTestServer();
const chromium = await launchChromium();
try {
  const othello = clientFor(server, 'othello@example.com');
  const hamlet = clientFor(server, 'hamlet@example.com');
  const desdemona = clientFor(server, 'desdemona@example.com');
  const say = (api: typeof hamlet, to: string, topic: string, content: string) => api.post('/messages', { type: 'stream', to, topic, content });
  await say(hamlet, 'Denmark', 'castle watch', 'Who\'s there? The night watch reports **something** on the battlements.');
  await say(othello, 'Denmark', 'castle watch', 'Nay, answer me: stand, and unfold yourself. @**King Hamlet** did you see it?');
  await say(hamlet, 'Denmark', 'castle watch', 'The schedule for tonight:\n```python\nfor hour in range(12, 4):\n    watch(hour)  # every hour\n```');
  await say(desdemona, 'Verona', 'plans', 'Release notes are ready :tada:\n> Two households, both alike in dignity');
  const image = await png(480, 260);
  const form = new FormData();
  form.append('file', new Blob([image], { type: 'image/png' }), 'banner.png');
  const uploaded = (await (await fetch(`${server.url}/api/v1/user_uploads`, { method: 'POST', body: form, headers: { Authorization: `Basic ${Buffer.from(`${desdemona.email}:${desdemona.apiKey}`).toString('base64')}` } })).json()) as { url: string };
  await say(desdemona, 'Verona', 'plans', `The new banner: [banner.png](${uploaded.url})`);
  await say(othello, 'Verona', 'plans', 'See #**Denmark** first.\n```spoiler The ending\nEveryone dies.\n```');
  await hamlet.post('/messages', { type: 'direct', to: JSON.stringify(['iago@example.com']), content: 'A word in private, Iago?' });
  const iago = clientFor(server, 'iago@example.com');
  const verona = (await iago.get('/get_stream_id', { stream: 'Verona' })).body.stream_id as number;
  const tomorrow = Math.floor(Date.now() / 1000) + 86_400;
  await iago.post('/scheduled_messages', { type: 'stream', to: verona, topic: 'plans', content: 'Reminder: **release** at noon.', scheduled_delivery_timestamp: tomorrow });

  const { page, context } = await signedIn(chromium.browser, server.url, 'iago@example.com', DEMO_PASSWORD);
  const shot = async (name: string) => {
    await page.waitForTimeout(600);
    await page.screenshot({ path: `${OUT}${name}.png` });
  };
  await page.locator('nav.sidebar a.channel', { hasText: 'Denmark' }).click();
  await page.locator('article.message', { hasText: 'schedule' }).waitFor();
  // The message cursor on the message before the newest (k twice: the newest, then the one before).
  await page.locator('h1.narrow-title').click();
  await page.keyboard.press('k');
  await page.keyboard.press('k');
  await shot('channel-light');
  await page.locator('nav.sidebar a.channel', { hasText: 'Verona' }).click();
  await page.locator('article.message img[data-upload]').waitFor();
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot('channel-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByLabel('Message', { exact: true }).fill('Thanks @ha');
  await shot('compose-autocomplete');
  await page.getByLabel('Message', { exact: true }).fill('');
  await page.goto('/settings');
  await page.locator('h1#settings-title').waitFor();
  await shot('settings');
  // New since the pages above were seen (the combined feed after sign-in read everything it showed).
  await say(othello, 'Denmark', 'succession', 'Who will be king after all this?');
  await say(hamlet, 'Denmark', 'succession', 'Not me, @**Iago**, I can tell you that.');
  await say(desdemona, 'Verona', 'release checklist', 'Tests pass; the screenshots are fresh.');
  await say(othello, 'Verona', 'plans', 'Shall we meet on Thursday?');
  await hamlet.post('/messages', { type: 'direct', to: JSON.stringify(['iago@example.com']), content: 'And another word.' });
  await page.goto('/inbox');
  await page.locator('.inbox-row').first().waitFor();
  await shot('inbox');
  await page.goto('/recent');
  await page.locator('.recent-row').first().waitFor();
  await shot('recent');
  await page.goto('/scheduled');
  await page.locator('.saved-item').first().waitFor();
  await shot('scheduled');
  await context.close();

  const phone = await chromium.browser.newContext({ baseURL: server.url, viewport: { width: 360, height: 740 }, deviceScaleFactor: 2 });
  const mobile = await phone.newPage();
  await mobile.goto('/');
  await mobile.getByLabel('Password').waitFor();
  await mobile.screenshot({ path: `${OUT}sign-in-phone.png` });
  await mobile.getByLabel('Email').fill('hamlet@example.com');
  await mobile.getByLabel('Password').fill(DEMO_PASSWORD);
  await mobile.getByRole('button', { name: 'Sign in' }).click();
  await mobile.locator('header.topbar').waitFor();
  await mobile.goto('/channel/3');
  await mobile.locator('article.message').first().waitFor();
  await mobile.waitForTimeout(600);
  await mobile.screenshot({ path: `${OUT}channel-phone.png` });
  await mobile.goto('/inbox');
  await mobile.locator('.inbox-row').first().waitFor();
  await mobile.waitForTimeout(600);
  await mobile.screenshot({ path: `${OUT}inbox-phone.png` });
} finally {
  await chromium.close();
  await server.destroy();
}
