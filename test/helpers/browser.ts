/**
 * Debian's Chromium driven by playwright-core for the web client's end-to-end tests and the web
 * bench: nothing downloads a browser. `CHROMIUM_PATH` overrides where it is.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The built client, as the server serves it (dist/public beside dist/test). */
export const WEB_BUILD = fileURLToPath(new URL('../../public/index.html', import.meta.url));

export function browserMissing(): string | undefined {
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (!existsSync(WEB_BUILD)) return 'the web client is not built (npm run build:web)';
  return undefined;
}

export interface LaunchedBrowser {
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Flags that work in containers without a GPU, a sandbox or a network to call home to. Playwright
 * gives every launch a fresh profile directory of its own (it refuses --user-data-dir here).
 */
export async function launchChromium(): Promise<LaunchedBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
    ],
  });
  return {
    browser,
    async close() {
      await browser.close().catch(() => {});
    },
  };
}

/** A new browser context signed in through the sign-in page (a desktop window unless told: a phone's width, a zoomed page). */
export async function signedIn(
  browser: Browser, baseUrl: string, email: string, password: string,
  screen: { viewport: { width: number; height: number }; deviceScaleFactor?: number } = { viewport: { width: 1200, height: 800 } },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl, ...screen });
  const page = await context.newPage();
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The top bar, not the sidebar: a phone's sidebar is hidden behind the menu button.
  await page.locator('header.topbar').waitFor();
  return { context, page };
}
