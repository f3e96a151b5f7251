/** A user's avatar (their image, Gravatar's, else their initial) and presence dot. */
import { useState } from 'preact/hooks';
import type { App } from '../app/app.js';
import { avatarSource } from '../state/gravatar.js';

const ACTIVE_SECONDS = 140;
/**
 * Avatars that failed to load, for the page's life: a row drawn later (a switch, a scroll) shows
 * the initial at once, without asking again and drawing itself twice when the error comes.
 */
const failed = new Set<string>();

export function Avatar({ app, userId, url, email, name }: { app: App; userId: number; url?: string | null; email?: string; name: string }) {
  const src = avatarSource(url, app.user(userId), email);
  // An avatar that cannot load (an external service out of reach) falls back to the initial.
  const [broken, setBroken] = useState(false);
  const fail = () => {
    if (src) failed.add(src);
    setBroken(true);
  };
  return (
    <span class="avatar" aria-hidden="true">
      {src && !broken && !failed.has(src) ? <img src={src} alt="" loading="lazy" onError={fail} /> : <span class="initial">{name.slice(0, 1).toUpperCase()}</span>}
    </span>
  );
}

export function PresenceDot({ app, userId }: { app: App; userId: number }) {
  const active = Date.now() / 1000 - (app.presence.get(userId) ?? 0) < ACTIVE_SECONDS;
  return <span class={`presence${active ? ' active' : ''}`} role="img" aria-label={active ? 'active' : 'offline'} />;
}

/** The private channel mark (drawn, not a font's emoji: every system shows it). */
export function Lock() {
  return (
    <svg class="lock" viewBox="0 0 16 16" width="12" height="12" role="img" aria-label="private">
      <path d="M4 7V5a4 4 0 0 1 8 0v2h1v8H3V7zm2 0h4V5a2 2 0 0 0-4 0z" fill="currentColor" />
    </svg>
  );
}
