/**
 * The web client in Debian's Chromium against a real Parley on loopback (1,000 users, 100
 * channels): JavaScript shipped for the first screen, navigation to the first channel's messages,
 * switching to a channel of 10,000 messages, a new message on screen after the server's
 * acknowledgement, and the page's memory after scrolling back through those 10,000 messages.
 * Times are taken in the page (performance.now at the DOM change, seen by a MutationObserver).
 */
import { cpus, loadavg } from 'node:os';
import type { Page } from 'playwright-core';
import { browserMissing, launchChromium } from '../../test/helpers/browser.js';
import { startParley } from '../lib/processes.js';
import { median, percentile, round, type Figure, type Scenario } from '../lib/scenario.js';
import { basicAuth, newDataDir, Seeder } from '../lib/seed.js';

const USERS = 1_000;
const CHANNELS = 100;
const BIG_CHANNEL_MESSAGES = 10_000;
const FIRST_CHANNEL_MESSAGES = 200;

/** What the bench reads in the page (the root project has no DOM typings). */
declare const document: {
  querySelector(selector: string): { textContent: string | null; scrollTop: number; click(): void } | null;
  querySelectorAll(selector: string): { length: number };
  body: unknown;
};
declare const performance: {
  now(): number;
  timeOrigin: number;
  getEntriesByType(type: string): { name: string; encodedBodySize: number; startTime: number; responseEnd: number }[];
};
declare const MutationObserver: new (callback: () => void) => { observe(target: unknown, options: Record<string, boolean>): void; disconnect(): void };
declare const localStorage: { setItem(key: string, value: string): void };

/** Resolves with performance.now() when `selector` (with `text`, if given) is first in the DOM. */
function whenShown(page: Page, selector: string, text: string): Promise<number> {
  return whenAllShown(page, [[selector, text]]);
}

/**
 * Resolves with performance.now() when every `[selector, text]` is in the DOM at once, seen by one
 * observer in the page: a second observer set up from Node once the first condition held added a
 * round trip to the time when both came in the same render.
 */
function whenAllShown(page: Page, conditions: [string, string][]): Promise<number> {
  return page.evaluate((conditions) => new Promise<number>((resolve) => {
    const found = () => conditions.every(([selector, text]) => {
      const el = document.querySelector(selector);
      return el !== null && (text === '' || (el.textContent ?? '').includes(text));
    });
    if (found()) return resolve(performance.now());
    const observer = new MutationObserver(() => {
      if (!found()) return;
      observer.disconnect();
      resolve(performance.now());
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  }), conditions);
}

export const web: Scenario = {
  name: 'web',
  description: 'the web client in Chromium: first screen JS, navigation to messages, channel switch, live message latency, memory after 10,000 messages',
  async run(context) {
    const missing = browserMissing();
    if (missing) throw new Error(`web: ${missing}`);
    const dataDir = newDataDir('web');
    const seeder = await Seeder.open(dataDir);
    context.log(`  seeding ${USERS} users, ${CHANNELS} channels, ${BIG_CHANNEL_MESSAGES} messages`);
    const people = await seeder.users(USERS, 'web');
    const iagoRecord = seeder.services.org.users.byEmail('iago@example.com')!;
    const hamletRecord = seeder.services.org.users.byEmail('hamlet@example.com')!;
    const members = [iagoRecord, hamletRecord, ...people.slice(0, 50)];
    const first = await seeder.channel('aaa-first', members);
    for (let i = 1; i < CHANNELS - 1; i++) await seeder.channel(`channel-${String(i).padStart(3, '0')}`, [iagoRecord, hamletRecord, ...people.slice(i * 10, i * 10 + 10)]);
    const big = await seeder.channel('big-history', [iagoRecord, hamletRecord]);
    await seeder.channelMessages(first, hamletRecord, FIRST_CHANNEL_MESSAGES, (i) => `topic ${i % 5}`);
    await seeder.channelMessages(big, hamletRecord, BIG_CHANNEL_MESSAGES, (i) => `thread ${i % 40}`);
    const iago = seeder.demoUser('iago@example.com');
    const hamlet = seeder.demoUser('hamlet@example.com');
    await seeder.close();
    const parley = await startParley({ dataDir, sync: true, profileDir: context.profileDir });
    const chromium = await launchChromium();
    try {
      const browserContext = await chromium.browser.newContext({ baseURL: parley.url, viewport: { width: 1280, height: 900 } });
      await browserContext.addInitScript((session: string) => localStorage.setItem('parley.session', session), JSON.stringify({ email: iago.email, apiKey: iago.apiKey, userId: iago.id }));
      const page = await browserContext.newPage();

      // A cold load first (fills nothing: every context starts with an empty cache), measured.
      await page.goto(`/channel/${first.id}`, { waitUntil: 'commit' });
      const firstShown = await whenShown(page, 'article.message', '');
      // The registration finishes after the first messages are drawn now: its timing is read once it has.
      await page.waitForSelector('nav.sidebar a.channel[data-name="big-history"]');
      const shipped = await page.evaluate(() => performance.getEntriesByType('resource').filter((r) => r.name.endsWith('.js')).reduce((sum, r) => sum + r.encodedBodySize, 0));
      // Where the cold load's time went: the script, register, the first page of messages.
      const breakdown = await page.evaluate(() => performance.getEntriesByType('resource').map((r) => ({ name: r.name, start: r.startTime, end: r.responseEnd, bytes: r.encodedBodySize })));
      const step = (part: string) => {
        const entry = breakdown.find((r) => r.name.includes(part));
        return entry ? `${part.split('/').pop()} ${round(entry.start)}–${round(entry.end)} ms (${round(entry.bytes / 1024)} KB)` : `${part}: not seen`;
      };
      const timeline = ['/assets/index-', '/api/v1/register', '/api/v1/messages'].map(step).join('; ');
      const loads = [firstShown];
      for (let i = 0; i < 4; i++) {
        await page.goto(`/channel/${first.id}`, { waitUntil: 'commit' });
        loads.push(await whenShown(page, 'article.message', ''));
      }

      // Switching: from the click to the first messages of the 10,000-message channel in the DOM.
      // Beside the time, the page's main-thread CPU (Chromium's ThreadTime, in thread ticks): less
      // noisy than the time on a shared machine. Read from the click to the messages shown (plus the
      // round trip that reads it), and over the second after (what the switch sets off: read flags, topics).
      // The big channel's newest message: the switch is done when it is drawn (any "benchmark
      // message" would also match the channel switched away from, were its rows kept).
      const newestBig = await fetch(`${parley.url}/api/v1/messages?anchor=newest&num_before=1&num_after=0&narrow=${encodeURIComponent(JSON.stringify([{ operator: 'channel', operand: big.id }]))}`, {
        headers: { authorization: `Basic ${Buffer.from(`${iago.email}:${iago.apiKey}`).toString('base64')}` },
      }).then((r) => r.json() as Promise<{ messages?: { id: number }[] }>).then((body) => {
        const id = body.messages?.[0]?.id;
        if (id === undefined) throw new Error(`the big channel's newest message: ${JSON.stringify(body).slice(0, 300)}`);
        return id;
      });
      const switches: number[] = [];
      const switchCpu: number[] = [];
      const afterCpu: number[] = [];
      const switchCdp = await browserContext.newCDPSession(page);
      await switchCdp.send('Performance.enable', { timeDomain: 'threadTicks' });
      const threadMs = async () => {
        const { metrics } = (await switchCdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
        return (metrics.find((m) => m.name === 'ThreadTime')?.value ?? NaN) * 1000;
      };
      for (let i = 0; i < 5; i++) {
        await page.goto(`/channel/${first.id}`, { waitUntil: 'commit' });
        await whenShown(page, 'article.message', '');
        // The first messages can be on screen before the registration has filled the sidebar.
        await page.waitForSelector('nav.sidebar a.channel[data-name="big-history"]');
        const shown = whenAllShown(page, [['h1.narrow-title', 'big-history'], [`article.message[data-message-id="${newestBig}"]`, '']]);
        const cpuBefore = await threadMs();
        const clicked = await page.evaluate(() => {
          const t = performance.now();
          document.querySelector('nav.sidebar a.channel[data-name="big-history"]')?.click();
          return t;
        });
        switches.push((await shown) - clicked);
        const cpuShown = await threadMs();
        switchCpu.push(cpuShown - cpuBefore);
        await page.waitForTimeout(1000);
        afterCpu.push((await threadMs()) - cpuShown);
      }
      await switchCdp.detach();

      // Live: Hamlet sends from Node; the page's clock and Node's share the epoch (same machine).
      const live: number[] = [];
      for (let i = 0; i < 20; i++) {
        const token = `live-${i}-${Date.now()}`;
        const shown = page.evaluate((text) => new Promise<number>((resolve) => {
          const observer = new MutationObserver(() => {
            if (!(document.querySelector('div.feed')?.textContent ?? '').includes(text)) return;
            observer.disconnect();
            resolve(performance.timeOrigin + performance.now());
          });
          observer.observe(document.body, { childList: true, subtree: true, characterData: true });
        }), token);
        const answer = await fetch(`${parley.url}/api/v1/messages`, {
          method: 'POST',
          headers: { authorization: basicAuth(hamlet), 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ type: 'stream', to: String(big.id), topic: 'live', content: token }),
        });
        const acknowledged = performance.timeOrigin + performance.now();
        if (!answer.ok) throw new Error(`web: send failed ${answer.status}`);
        live.push(Math.max(0, (await shown) - acknowledged));
      }

      // Memory: scroll back through the whole channel (pages of 100 load as the top comes near).
      const cdp = await browserContext.newCDPSession(page);
      await cdp.send('Performance.enable');
      const scrolledStart = performance.now();
      for (let guard = 0; guard < 400; guard++) {
        const done = await page.evaluate(() => {
          const feed = document.querySelector('div.feed');
          if (feed) feed.scrollTop = 0;
          return document.querySelector('.feed-start') !== null;
        });
        if (done) break;
        await page.waitForTimeout(50);
      }
      const scrollSeconds = (performance.now() - scrolledStart) / 1000;
      const loaded = await page.evaluate(() => document.querySelectorAll('article.message').length);
      await cdp.send('HeapProfiler.collectGarbage');
      const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
      const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN;
      const heapMb = metric('JSHeapUsedSize') / 2 ** 20;
      const nodes = metric('Nodes');

      const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
      const figures: Figure[] = [
        { name: 'JS shipped for the first screen (compressed)', value: round(shipped / 1024), unit: 'KB' },
        { name: 'navigation to the first channel\'s messages (cold)', value: round(firstShown), unit: 'ms' },
        { name: 'navigation to the first channel\'s messages (median of 5)', value: round(median(loads)), unit: 'ms' },
        { name: 'switch to a 10,000-message channel (median of 5)', value: round(median(switches)), unit: 'ms' },
        { name: 'new message on screen after the server\'s acknowledgement (median of 20)', value: round(median(live)), unit: 'ms' },
        { name: 'new message on screen after acknowledgement (p95 of 20)', value: round(percentile(sorted(live), 95)), unit: 'ms' },
        { name: 'JS heap after scrolling through 10,000 messages', value: round(heapMb), unit: 'MB' },
      ];
      return {
        scenario: 'web',
        description: this.description,
        figures,
        notes: [
          `${USERS} users, ${CHANNELS} channels; the first channel has ${FIRST_CHANNEL_MESSAGES} messages, the big one ${BIG_CHANNEL_MESSAGES}; Chromium ${chromium.browser.version()} headless, viewport 1280×900`,
          `targets: JS ≤ 150 KB, navigation ≤ 500 ms, switch ≤ 100 ms, live ≤ 100 ms, memory ≤ 150 MB`,
          `navigation: from navigation start to the first message in the DOM; switch: from the click to the new channel's first message in the DOM`,
          `scrolled back through ${BIG_CHANNEL_MESSAGES} messages in ${round(scrollSeconds)} s (pages of 100); ${loaded} message elements in the DOM at the end (virtualised), ${nodes} DOM nodes`,
          `loads: ${loads.map((v) => round(v)).join(', ')} ms; switches: ${switches.map((v) => round(v)).join(', ')} ms`,
          `main-thread CPU per switch (ThreadTime), click to shown: ${switchCpu.map((v) => round(v)).join(', ')} ms (median ${round(median(switchCpu))}); in the second after: ${afterCpu.map((v) => round(v)).join(', ')} ms (median ${round(median(afterCpu))})`,
          `the cold load, from navigation start: ${timeline}; first message in the DOM at ${round(firstShown)} ms`,
          `machine load average during the run: ${loadavg().map((v) => round(v)).join(', ')} on ${cpus().length} cores`,
        ],
      };
    } finally {
      await chromium.close();
      await parley.stop();
    }
  },
};
