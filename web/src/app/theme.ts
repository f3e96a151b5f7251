/** Light or dark: the user's `color_scheme` setting (1 automatic, 2 dark, 3 light, as Zulip's), else the system's. */
import type { App } from './app.js';

export function applyTheme(app: App | undefined): void {
  const scheme = Number(app?.userSettings.color_scheme ?? 1);
  const dark = scheme === 2 || (scheme !== 3 && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}
