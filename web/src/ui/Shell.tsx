/** The signed-in page: top bar (search, status, sign out), sidebar, and the feed with compose or one of the pages (Inbox, Recent, drafts, scheduled, settings, administration); addresses and keyboard shortcuts. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { App } from '../app/app.js';
import { narrowFromPath, narrowPath, term, type Narrow } from '../state/narrow.js';
import { conversationKey } from '../state/feed.js';
import { isPage, pageFromHash, pageFromPath, type Page } from '../state/pages.js';
import { Compose } from './Compose.js';
import { memo } from './memo.js';
import { whenIdle } from '../app/idle.js';
import { composeFromNarrow, replyTo } from './compose-state.js';
import { Feed } from './Feed.js';
import { SearchBar, placeName } from './SearchBar.js';
import { Sidebar } from './Sidebar.js';
import { Settings } from './Settings.js';
import { Admin } from './Admin.js';
import { Inbox } from './Inbox.js';
import { Recent } from './Recent.js';
import { Drafts } from './Drafts.js';
import { Scheduled } from './Scheduled.js';
import { shortcut } from './shortcuts.js';
import { documentTitle } from '../state/unread.js';

export type View = 'feed' | Page;
export type Navigate = (to: Narrow | Page, push?: boolean) => void;

const TITLES: Record<Page, string> = { inbox: 'Inbox', recent: 'Recent conversations', drafts: 'Drafts', scheduled: 'Scheduled messages', settings: 'Settings', admin: 'Organization' };

export function Shell({ app, onSignOut }: { app: App; onSignOut: () => void }) {
  const [view, setView] = useState<View>(pageFromPath(location.pathname) ?? 'feed');
  const viewRef = useRef<View>(view);
  viewRef.current = view;
  const [menuOpen, setMenuOpen] = useState(false);
  const search = useRef<HTMLInputElement>(null);
  // Not the narrow: a switch re-renders what shows it (the sidebar, the main column, the search box), not the shell.
  app.watch('settings');

  // One function for the page's life: the sidebar and the feed, whose props then do not change, are
  // not re-rendered when the shell is (a switch re-renders what shows the narrow, not everything).
  const navigate: Navigate = useCallback((to, push = true) => {
    setMenuOpen(false);
    if (isPage(to)) {
      setView(to);
      if (push && location.pathname !== `/${to}`) history.pushState(null, '', `/${to}`);
      return;
    }
    // The view, the narrow and the compose box's destination change together, when the narrow's
    // first page is here (App.go: one render). The address changes once the page is idle:
    // pushState takes milliseconds, and spent before the answer was handled they delayed the messages.
    app.go(to, () => {
      setView('feed');
      composeFromNarrow(to);
      const path = narrowPath(to);
      if (push) whenIdle(() => viewRef.current === 'feed' && narrowPath(app.narrow.value) === path && location.pathname !== path && history.pushState(null, '', path), 500);
    });
  }, [app]);

  useAddresses(navigate);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) =>
      shortcut(e, app, {
        search,
        inFeed: () => viewRef.current === 'feed',
        inList: () => viewRef.current === 'inbox' || viewRef.current === 'recent',
        navigate,
        showFeed: () => navigate(app.narrow.value),
        closeMenu: () => setMenuOpen(false),
      });
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [app]);

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
      <MainView app={app} view={view} navigate={navigate} />
    </div>
  );
}

/** The address at start, on back / forward, and Zulip's hash addresses (`/#inbox`), which lead to the page's own address. */
function useAddresses(navigate: Navigate): void {
  useEffect(() => {
    const fromHash = () => {
      const page = pageFromHash(location.hash);
      if (!page) return false;
      history.replaceState(null, '', `/${page}`);
      navigate(page, false);
      return true;
    };
    if (!fromHash()) {
      const initial = narrowFromPath(location.pathname);
      if (initial && !pageFromPath(location.pathname)) navigate(initial, false);
    }
    const onPop = () => {
      const page = pageFromPath(location.pathname);
      const narrow = narrowFromPath(location.pathname);
      if (page) navigate(page, false);
      else if (narrow) navigate(narrow, false);
    };
    window.addEventListener('popstate', onPop);
    window.addEventListener('hashchange', fromHash);
    return () => (window.removeEventListener('popstate', onPop), window.removeEventListener('hashchange', fromHash));
  }, []);
}

/** The main column (named after the place shown, as is the tab): the feed with who is typing and the compose box, or one of the pages. */
function MainView({ app, view, navigate }: { app: App; view: View; navigate: Navigate }) {
  const narrow = app.narrow.value;
  // The heading names channels and people.
  app.watch('channels', 'people');
  const place = view === 'feed' ? placeName(app, narrow) : TITLES[view];
  return (
    <main class="main" aria-label={place}>
      <Title app={app} place={place} />
      <Pane app={app} view={view} place={place} narrow={narrow} navigate={navigate} />
    </main>
  );
}

/** The tab's title: unread count, place, organization. */
function Title({ app, place }: { app: App; place: string }) {
  app.watch('unread', 'settings');
  const total = app.counts().total;
  useEffect(() => {
    document.title = documentTitle(total, place, app.realm.name);
  }, [total, place, app.realm.name]);
  return null;
}

function Pane({ app, view, place, narrow, navigate }: { app: App; view: View; place: string; narrow: Narrow; navigate: Navigate }) {
  const onReply = useCallback((id: number) => void replyTo(app, id, true), [app]);
  switch (view) {
    case 'feed':
      return (
        <>
          <h1 class="narrow-title">{place}</h1>
          <Feed key={narrowPath(narrow)} app={app} onReply={onReply} />
          <Typing app={app} />
          <ComposeBox app={app} />
        </>
      );
    case 'inbox':
      return <Inbox app={app} onNavigate={navigate} />;
    case 'recent':
      return <Recent app={app} onNavigate={navigate} />;
    case 'drafts':
      return <Drafts app={app} onNavigate={navigate} />;
    case 'scheduled':
      return <Scheduled app={app} />;
    case 'settings':
      return <Settings app={app} />;
    case 'admin':
      return <Admin app={app} />;
  }
}

/** The compose box renders for its own state and signals, not each time the main column does (a switch). */
const ComposeBox = memo(Compose);

/** Who is typing in the conversation shown: re-rendered by typing events alone, without the feed. */
function Typing({ app }: { app: App }) {
  app.watch('typing', 'people');
  const narrow = app.narrow.value;
  const typing = app.typing.filter((t) => t.until > Date.now() && isCurrentConversation(app, narrow, t.key));
  return <div class="typing" aria-live="polite">{typing.length > 0 && `${typing.map((t) => app.userName(t.userId)).join(', ')} ${typing.length > 1 ? 'are' : 'is'} typing…`}</div>;
}

function isCurrentConversation(app: App, narrow: Narrow, key: string): boolean {
  const channel = term(narrow, 'channel');
  const topic = term(narrow, 'topic');
  const dm = term(narrow, 'dm');
  if (channel && topic && typeof channel.operand === 'number') return key === conversationKey({ type: 'channel', streamId: channel.operand, topic: String(topic.operand) });
  if (channel) return key.startsWith(`c${channel.operand as number}:`);
  if (dm && Array.isArray(dm.operand)) return key === conversationKey({ type: 'dm', userIds: dm.operand });
  return term(narrow, 'in') !== undefined || narrow.length === 0;
}
