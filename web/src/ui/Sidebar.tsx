/** The left column: views (Inbox, Recent, combined feed, mentions, starred, drafts, scheduled), channels with unread counts and topics (muted dimmed), direct message conversations, people. */
import { useState } from 'preact/hooks';
import type { App } from '../app/app.js';
import { channelNarrow, dmNarrow, HOME, narrowKey, narrowPath, term, type Narrow } from '../state/narrow.js';
import type { Page } from '../state/pages.js';
import { dmKey } from '../state/types.js';
import { RecentDmsMemo, type RecentConversation } from '../state/recent-dms.js';
import { topicKey } from '../state/unread.js';
import { Lock, PresenceDot } from './Avatar.js';
import { memo } from './memo.js';
import type { Subscription } from '../state/types.js';

function Count({ n, label }: { n: number | undefined; label: string }) {
  return n ? <span class="count" aria-label={`${n} unread ${label}`}>{n}</span> : null;
}

/** What every link needs: the current place (to mark it) and where a click leads. */
interface Here {
  currentKey: string;
  onNavigate: (to: Narrow | Page) => void;
}

function navLink(here: Here, narrow: Narrow, label: preact.ComponentChildren, extra?: preact.ComponentChildren, cls = '', name?: string) {
  return link(narrowKey(narrow) === here.currentKey, here.onNavigate, narrow, label, extra, cls, name);
}

function link(current: boolean, onNavigate: (to: Narrow | Page) => void, narrow: Narrow, label: preact.ComponentChildren, extra?: preact.ComponentChildren, cls = '', name?: string) {
  return (
    <a href={narrowPath(narrow)} data-name={name} class={`nav-link ${cls}${current ? ' current' : ''}`} aria-current={current ? 'page' : undefined}
      onClick={(e) => (e.preventDefault(), onNavigate(narrow))}>
      <span class="label">{label}</span>
      {extra}
    </a>
  );
}

/**
 * The sidebar in parts that each read only what they show: a switch re-renders the views and the
 * two channel rows whose highlight moves, not the other channels, the direct messages or the
 * people; a fetched page re-renders only the direct message list (it may bring conversations).
 */
export function Sidebar({ app, onNavigate, view }: { app: App; onNavigate: (to: Narrow | Page) => void; view: string }) {
  const current = app.narrow.value;
  const currentKey = view === 'feed' ? narrowKey(current) : '';
  const channel = view === 'feed' ? term(current, 'channel')?.operand : undefined;
  const topic = view === 'feed' ? term(current, 'topic')?.operand : undefined;
  const dmKeyNow = view === 'feed' && term(current, 'dm') ? currentKey : '';
  return (
    <nav class="sidebar" aria-label="Channels and conversations">
      <Views app={app} onNavigate={onNavigate} view={view} currentKey={currentKey} />
      <h2>Channels</h2>
      <Channels app={app} onNavigate={onNavigate} currentKey={channel === undefined ? '' : currentKey} channel={channel} topic={topic} />
      <h2>Direct messages</h2>
      <Dms app={app} onNavigate={onNavigate} currentKey={dmKeyNow} />
      <PeopleList app={app} onNavigate={onNavigate} currentKey={dmKeyNow} />
      <Bottom app={app} onNavigate={onNavigate} view={view} />
    </nav>
  );
}

function Views({ app, onNavigate, view, currentKey }: Here & { app: App; view: string }) {
  app.watch('unread', 'drafts');
  const counts = app.counts();
  const here = { currentKey, onNavigate };
  const page = (to: Page, label: string, extra?: preact.ComponentChildren) => (
    <a href={`/${to}`} class={`nav-link page-link${view === to ? ' current' : ''}`} aria-current={view === to ? 'page' : undefined}
      onClick={(e) => (e.preventDefault(), onNavigate(to))}>
      <span class="label">{label}</span>
      {extra}
    </a>
  );
  return (
    <ul class="views">
      <li>{page('inbox', 'Inbox', <Count n={counts.total} label="messages" />)}</li>
      <li>{page('recent', 'Recent conversations')}</li>
      <li>{navLink(here, HOME, 'Combined feed', <Count n={counts.total} label="messages" />)}</li>
      <li>{navLink(here, [{ operator: 'is', operand: 'mentioned' }], 'Mentions', <Count n={counts.mentions} label="mentions" />)}</li>
      <li>{navLink(here, [{ operator: 'is', operand: 'starred' }], 'Starred')}</li>
      <li>{page('drafts', 'Drafts', app.drafts.length ? <span class="tally" aria-label={`${app.drafts.length} drafts`}>{app.drafts.length}</span> : null)}</li>
      {app.scheduled.length > 0 && <li>{page('scheduled', 'Scheduled messages', <span class="tally" aria-label={`${app.scheduled.length} scheduled`}>{app.scheduled.length}</span>)}</li>}
    </ul>
  );
}

function Channels({ app, onNavigate, currentKey, channel, topic }: Here & { app: App; channel: unknown; topic: unknown }) {
  app.watch('channels', 'unread');
  const counts = app.counts();
  const subs = sortedSubscriptions(app);
  return (
    <ul class="channels">
      {subs.map((s) => {
        const open = channel === s.stream_id;
        return (
          <ChannelRow key={s.stream_id} app={app} sub={s} onNavigate={onNavigate} count={counts.channels.get(s.stream_id)}
            current={open && currentKey === narrowKey(channelNarrow(s.stream_id))} open={open} topic={open ? topic : undefined} />
        );
      })}
    </ul>
  );
}

const subsSorted = new WeakMap<App, { version: number; subs: Subscription[] }>();

/** Pinned channels first, then by name; sorted again only when the channels changed (not on a switch or a read mark). */
function sortedSubscriptions(app: App): Subscription[] {
  const version = app.versions.channels.peek();
  const known = subsSorted.get(app);
  if (known?.version === version && known.subs.length === app.subscriptions.size) return known.subs;
  const subs = [...app.subscriptions.values()].sort((a, b) => Number(b.pin_to_top) - Number(a.pin_to_top) || byName.compare(a.name, b.name));
  subsSorted.set(app, { version, subs });
  return subs;
}

interface ChannelRowProps {
  app: App;
  sub: Subscription;
  onNavigate: (to: Narrow | Page) => void;
  count: number | undefined;
  /** The channel itself is shown (not one of its topics). */
  current: boolean;
  /** The channel or one of its topics is shown: its topics are listed. */
  open: boolean;
  topic: unknown;
}

/** One channel: rendered again only when its own props change (a switch redraws the row it leaves and the one it opens). */
const ChannelRow = memo(({ app, sub: s, onNavigate, count, current, open, topic }: ChannelRowProps) => {
  return (
    <li class={s.is_muted ? 'muted' : ''}>
      {link(current, onNavigate, channelNarrow(s.stream_id), <>{s.invite_only ? <Lock /> : '#'} {s.name}</>, <Count n={count} label={`in ${s.name}`} />, 'channel', s.name)}
      <span class="swatch" style={{ background: s.color }} aria-hidden="true" />
      {open && <Topics app={app} streamId={s.stream_id} currentTopic={topic} onNavigate={onNavigate} />}
    </li>
  );
});

const dmsMemo = new WeakMap<App, RecentDmsMemo>();

function Dms({ app, onNavigate, currentKey }: Here & { app: App }) {
  // Conversations come with messages (a fetched page, a live message); names with people.
  app.watch('feed', 'unread', 'people');
  const counts = app.counts();
  const here = { currentKey, onNavigate };
  let memo = dmsMemo.get(app);
  if (!memo) dmsMemo.set(app, (memo = new RecentDmsMemo()));
  const dms = memo.get((app.registration?.recent_private_conversations as RecentConversation[] | undefined) ?? NONE, app.messages, app.selfId);
  return (
    <ul class="dms">
      {dms.map((ids) => (
        <li key={dmKey(ids)}>
          {navLink(here, dmNarrow(ids), app.dmName(ids), <Count n={counts.dms.get(dmKey(ids))} label="direct messages" />)}
        </li>
      ))}
    </ul>
  );
}

const NONE: RecentConversation[] = [];

function Bottom({ app, onNavigate, view }: { app: App; onNavigate: (to: Narrow | Page) => void; view: string }) {
  // Administrators see the organization's page.
  app.watch('people');
  return (
    <ul class="views bottom">
      <li><a href="/settings" class={view === 'settings' ? 'current' : ''} onClick={(e) => (e.preventDefault(), onNavigate('settings'))}>Settings</a></li>
      {app.isAdmin() && <li><a href="/admin" class={view === 'admin' ? 'current' : ''} onClick={(e) => (e.preventDefault(), onNavigate('admin'))}>Organization</a></li>}
    </ul>
  );
}

/** The open channel's topics, newest first: muted ones dimmed (and said so to screen readers), followed ones marked. */
function Topics({ app, streamId, currentTopic, onNavigate }: { app: App; streamId: number; currentTopic: unknown; onNavigate: (to: Narrow | Page) => void }) {
  app.watch('topics', 'unread', 'channels');
  // Asked when the channel opens, and again after a move forgot them.
  if (!app.topics.has(streamId)) void app.loadTopics(streamId);
  const counts = app.counts();
  return (
    <ul class="topics">
      {(app.topics.get(streamId) ?? []).slice(0, 30).map((t) => {
        const muted = app.topicMuted(streamId, t.name);
        const followed = app.topicPolicies.followed(streamId, t.name);
        return (
          <li key={t.name} class={`${currentTopic === t.name ? 'current' : ''}${muted ? ' muted' : ''}`}>
            {link(currentTopic === t.name, onNavigate, channelNarrow(streamId, t.name), <>{t.name || 'general chat'}{muted && <span class="sr-only"> (muted)</span>}{followed && <span class="followed" title="Followed" aria-label="followed"> ●</span>}</>,
              <Count n={counts.topics.get(topicKey(streamId, t.name))} label={`in ${t.name}`} />, 'topic')}
          </li>
        );
      })}
    </ul>
  );
}

/** People, active ones first; a large organization shows the first ones and a filter (sorting a thousand people is not done on a switch). */
function People({ app, onNavigate, currentKey }: Here & { app: App }) {
  app.watch('people', 'presence');
  const [filter, setFilter] = useState('');
  const here = { currentKey, onNavigate };
  const now = Date.now() / 1000;
  const active = (id: number) => now - (app.presence.get(id) ?? 0) < 140;
  const q = filter.toLowerCase();
  const people = [...app.users.values()]
    .filter((u) => u.is_active !== false && !u.is_bot && (!q || u.full_name.toLowerCase().includes(q) || u.email.toLowerCase().includes(q)))
    .sort((a, b) => Number(active(b.user_id)) - Number(active(a.user_id)) || byName.compare(a.full_name, b.full_name));
  return (
    <>
      <h2>People</h2>
      {app.users.size > PEOPLE_SHOWN / 2 && <input class="people-filter" type="search" aria-label="Filter people" placeholder="Filter people" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />}
      <ul class="people">
        {people.slice(0, PEOPLE_SHOWN).map((u) => (
          <li key={u.user_id}>{navLink(here, dmNarrow([u.user_id]), u.full_name, <PresenceDot app={app} userId={u.user_id} />)}</li>
        ))}
        {people.length > PEOPLE_SHOWN && <li class="more">{people.length - PEOPLE_SHOWN} more: filter to find them</li>}
      </ul>
    </>
  );
}

/** Rendered for its own state and signals or a new current conversation, not each time the sidebar is (it keeps a filter's state, which @preact/signals does not skip). */
const PeopleList = memo(People);

const PEOPLE_SHOWN = 60;
/** One collator for the sidebar's sorts: String.localeCompare builds a comparison per call (a thousand people took tens of ms per render). */
const byName = new Intl.Collator();
