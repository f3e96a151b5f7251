/** The signed-in page: top bar (search, status, sign out), sidebar, feed and compose, or settings and administration; addresses and keyboard shortcuts. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { App } from '../app/app.js';
import { narrowFromPath, narrowPath, term, type Narrow } from '../state/narrow.js';
import { conversationKey } from '../state/feed.js';
import { Compose } from './Compose.js';
import { compose, composeFromNarrow, replyTo } from './compose-state.js';
import { Feed } from './Feed.js';
import { SearchBar, placeName } from './SearchBar.js';
import { Sidebar } from './Sidebar.js';
import { Settings } from './Settings.js';
import { Admin } from './Admin.js';
import { documentTitle } from '../state/unread.js';

type View = 'feed' | 'settings' | 'admin';

function viewOf(path: string): View {
  return path === '/settings' ? 'settings' : path === '/admin' ? 'admin' : 'feed';
}

export function Shell({ app, onSignOut }: { app: App; onSignOut: () => void }) {
  const [view, setView] = useState<View>(viewOf(location.pathname));
  const [menuOpen, setMenuOpen] = useState(false);
  const search = useRef<HTMLInputElement>(null);
  app.revision.value;

  const navigate = (to: Narrow | 'settings' | 'admin', push = true) => {
    setMenuOpen(false);
    if (to === 'settings' || to === 'admin') {
      setView(to);
      if (push) history.pushState(null, '', `/${to}`);
      return;
    }
    setView('feed');
    app.go(to);
    composeFromNarrow(to);
    if (push && location.pathname !== narrowPath(to)) history.pushState(null, '', narrowPath(to));
  };

  useEffect(() => {
    const initial = narrowFromPath(location.pathname);
    if (initial) navigate(initial, false);
    const onPop = () => {
      const narrow = narrowFromPath(location.pathname);
      if (narrow) navigate(narrow, false);
      else setView(viewOf(location.pathname));
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => shortcut(e, app, { search, navigate, closeMenu: () => setMenuOpen(false) });
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [app]);

  const narrow = app.narrow.value;
  const place = view === 'feed' ? placeName(app, narrow) : view === 'settings' ? 'Settings' : 'Organization';
  useEffect(() => {
    document.title = documentTitle(app.counts().total, place, app.realm.name);
  });
  const typing = app.typing.filter((t) => t.until > Date.now() && isCurrentConversation(app, narrow, t.key));

  return (
    <div class={`shell${menuOpen ? ' menu-open' : ''}`}>
      <header class="topbar">
        <button type="button" class="menu-button" aria-label="Menu" aria-expanded={menuOpen} onClick={() => setMenuOpen(!menuOpen)}>☰</button>
        <span class="realm-name">{app.realm.name}</span>
        <SearchBar app={app} onSearch={(n) => navigate(n)} inputRef={search} />
        {app.status.value === 'reconnecting' && <span class="status warn" role="status">Reconnecting…</span>}
        {app.error.value && (
          <span class="status error" role="alert">
            {app.error.value} <button type="button" aria-label="Dismiss" onClick={() => (app.error.value = '')}>×</button>
          </span>
        )}
        <button type="button" class="sign-out" onClick={onSignOut}>Sign out</button>
      </header>
      <Sidebar app={app} onNavigate={navigate} view={view} />
      <main class="main" aria-label={place}>
        {view === 'feed' && (
          <>
            <h1 class="narrow-title">{place}</h1>
            <Feed key={narrowPath(narrow)} app={app} onReply={(id) => void replyTo(app, id, true)} />
            <div class="typing" aria-live="polite">{typing.length > 0 && `${typing.map((t) => app.userName(t.userId)).join(', ')} ${typing.length > 1 ? 'are' : 'is'} typing…`}</div>
            <Compose app={app} />
          </>
        )}
        {view === 'settings' && <Settings app={app} />}
        {view === 'admin' && <Admin app={app} />}
      </main>
    </div>
  );
}

function isCurrentConversation(app: App, narrow: Narrow, key: string): boolean {
  const channel = term(narrow, 'channel');
  const topic = term(narrow, 'topic');
  const dm = term(narrow, 'dm');
  if (channel && topic && typeof channel.operand === 'number') return key === conversationKey({ type: 'channel', streamId: channel.operand, topic: String(topic.operand) });
  if (channel) return key.startsWith(`c${channel.operand as number}:`);
  if (dm && Array.isArray(dm.operand)) return key === conversationKey({ type: 'dm', userIds: dm.operand });
  return narrow.length === 0;
}

interface ShortcutContext {
  search: { current: HTMLInputElement | null };
  navigate: (to: Narrow) => void;
  closeMenu: () => void;
}

/** Zulip's main keys: c compose, r reply, n next unread topic, / search, Esc leave a field. */
function shortcut(e: KeyboardEvent, app: App, ctx: ShortcutContext): void {
  const target = e.target as HTMLElement;
  const typing = target.matches('input, textarea, select, [contenteditable]');
  if (e.key === 'Escape') {
    if (typing) target.blur();
    ctx.closeMenu();
    return;
  }
  if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === '/') {
    e.preventDefault();
    ctx.search.current?.focus();
    ctx.search.current?.select();
  } else if (e.key === 'c') {
    e.preventDefault();
    compose.focus.value++;
  } else if (e.key === 'r') {
    const list = app.messages.list(app.narrow.value);
    const last = list?.ids.filter((id) => Number.isInteger(id)).at(-1);
    if (last === undefined) return;
    e.preventDefault();
    void replyTo(app, last, false);
  } else if (e.key === 'n') {
    const next = app.unread.nextTopic((id) => app.isMuted(id));
    if (!next) return;
    e.preventDefault();
    ctx.navigate([{ operator: 'channel', operand: next.streamId }, { operator: 'topic', operand: next.topic }]);
  }
}
