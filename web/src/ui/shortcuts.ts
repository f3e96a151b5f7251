/**
 * Zulip's main keys: c compose, r reply (Enter too), n next unread topic, / search, j / k and the
 * arrow keys move the message cursor, Esc leaves a field or closes the menu.
 */
import type { App } from '../app/app.js';
import { moveCursor } from '../state/cursor.js';
import { term, type Narrow } from '../state/narrow.js';
import { compose, replyTo } from './compose-state.js';

export interface ShortcutContext {
  search: { current: HTMLInputElement | null };
  /** Whether the message feed is what is shown (the cursor keys act only there). */
  inFeed: () => boolean;
  /** Whether a list of conversations is shown (the Inbox, Recent): the same keys move through its links. */
  inList: () => boolean;
  navigate: (to: Narrow) => void;
  showFeed: () => void;
  closeMenu: () => void;
}

const STEPS = new Map([['j', 1], ['ArrowDown', 1], ['k', -1], ['ArrowUp', -1]]);

export function shortcut(e: KeyboardEvent, app: App, ctx: ShortcutContext): void {
  const target = e.target as HTMLElement;
  const typing = target.matches('input, textarea, select, [contenteditable]');
  if (e.key === 'Escape') {
    if (typing) target.blur();
    ctx.closeMenu();
    return;
  }
  if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
  // Enter and the arrows keep their meaning on buttons and links; elsewhere (the page, a message) they are the cursor's.
  const onControl = target.matches('button, a, summary, [role="button"], [role="option"]');
  if (e.key === '/') {
    e.preventDefault();
    ctx.search.current?.focus();
    ctx.search.current?.select();
  } else if (e.key === 'c') {
    e.preventDefault();
    if (!ctx.inFeed()) ctx.showFeed();
    compose.focus.value++;
  } else if (STEPS.has(e.key) && ctx.inList()) {
    if (moveThroughLinks(STEPS.get(e.key)!)) e.preventDefault();
  } else if (STEPS.has(e.key) && ctx.inFeed() && !(onControl && e.key.startsWith('Arrow'))) {
    const list = app.messages.list(app.narrow.value);
    if (!list) return;
    e.preventDefault();
    app.selected.value = moveCursor(list.ids, app.selected.value, STEPS.get(e.key)!, (id) => app.unread.has(id));
  } else if ((e.key === 'r' || (e.key === 'Enter' && !onControl)) && ctx.inFeed()) {
    const id = app.selected.value ?? app.messages.list(app.narrow.value)?.ids.filter((i) => Number.isInteger(i)).at(-1);
    if (id === undefined) return;
    e.preventDefault();
    void replyTo(app, id, false);
  } else if (e.key === 'n') {
    const channel = term(app.narrow.value, 'channel');
    const topic = term(app.narrow.value, 'topic');
    const current = ctx.inFeed() && typeof channel?.operand === 'number' && topic ? { streamId: channel.operand, topic: String(topic.operand) } : undefined;
    const next = app.unread.nextTopic((streamId, name) => app.topicMuted(streamId, name), current);
    if (!next) return;
    e.preventDefault();
    ctx.navigate([{ operator: 'channel', operand: next.streamId }, { operator: 'topic', operand: next.topic }]);
  }
}

/** Focus to the next (or previous) conversation link of the list shown; Enter then opens it. */
function moveThroughLinks(step: number): boolean {
  const links = [...document.querySelectorAll<HTMLAnchorElement>('main .inbox-link, main .recent-where')];
  if (links.length === 0) return false;
  const at = links.indexOf(document.activeElement as HTMLAnchorElement);
  links[at < 0 ? 0 : Math.max(0, Math.min(links.length - 1, at + step))]!.focus();
  return true;
}
