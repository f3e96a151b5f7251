/** The left column: views (Inbox, Recent, combined feed, mentions, starred, drafts, scheduled), channels with unread counts and topics (muted dimmed), direct message conversations, people. */
import { useState } from 'preact/hooks';
import type { App } from '../app/app.js';
import { channelNarrow, dmNarrow, HOME, narrowKey, narrowPath, term, type Narrow } from '../state/narrow.js';
import type { Page } from '../state/pages.js';
import { dmKey } from '../state/types.js';
import { RecentDmsMemo, type RecentConversation } from '../state/recent-dms.js';
import { topicKey } from '../state/unread.js';
import { Lock, PresenceDot } from './Avatar.js';

function Count({ n, label }: { n: number | undefined; label: string }) {
  return n ? <span class="count" aria-label={`${n} unread ${label}`}>{n}</span> : null;
}

/** What every link needs: the current place (to mark it) and where a click leads. */
interface Here {
  currentKey: string;
  onNavigate: (to: Narrow | Page) => void;
}

function navLink(here: Here, narrow: Narrow, label: preact.ComponentChildren, extra?: preact.ComponentChildren, cls = '', name?: string) {
  const current = narrowKey(narrow) === here.currentKey;
  return (
    <a href={narrowPath(narrow)} data-name={name} class={`nav-link ${cls}${current ? ' current' : ''}`} aria-current={current ? 'page' : undefined}
      onClick={(e) => (e.preventDefault(), here.onNavigate(narrow))}>
      <span class="label">{label}</span>
      {extra}
    </a>
  );
}

/**
 * The sidebar in parts that each read only what they show: a switch re-renders the views and the
 * channel list (the highlighted row), not the direct messages or the people; a fetched page
 * re-renders only the direct message list (it may bring conversations).
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
      <People app={app} onNavigate={onNavigate} currentKey={dmKeyNow} />
      <Bottom app={app} onNavigate={onNavigate} view={view} />
    </nav>
  );
}

function Views({ app, onNavigate, view, currentKey }: Here & { app: App; view: string }) {
  app.revision.value;
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
  app.revision.value;
  app.topicsArrived.value;
  const counts = app.counts();
  const here = { currentKey, onNavigate };
  const subs = [...app.subscriptions.values()].sort((a, b) => Number(b.pin_to_top) - Number(a.pin_to_top) || byName.compare(a.name, b.name));
  return (
    <ul class="channels">
      {subs.map((s) => {
        const open = channel === s.stream_id;
        if (open && !app.topics.has(s.stream_id)) void app.loadTopics(s.stream_id);
        return (
          <li key={s.stream_id} class={s.is_muted ? 'muted' : ''}>
            {navLink(here, channelNarrow(s.stream_id), <>{s.invite_only ? <Lock /> : '#'} {s.name}</>, <Count n={counts.channels.get(s.stream_id)} label={`in ${s.name}`} />, 'channel', s.name)}
            <span class="swatch" style={{ background: s.color }} aria-hidden="true" />
            {open && <Topics app={app} streamId={s.stream_id} currentTopic={topic} link={(narrow, label, extra, cls) => navLink(here, narrow, label, extra, cls)} />}
          </li>
        );
      })}
    </ul>
  );
}

const dmsMemo = new WeakMap<App, RecentDmsMemo>();

function Dms({ app, onNavigate, currentKey }: Here & { app: App }) {
  app.revision.value;
  app.pages.value;
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
  app.revision.value;
  return (
    <ul class="views bottom">
      <li><a href="/settings" class={view === 'settings' ? 'current' : ''} onClick={(e) => (e.preventDefault(), onNavigate('settings'))}>Settings</a></li>
      {app.isAdmin() && <li><a href="/admin" class={view === 'admin' ? 'current' : ''} onClick={(e) => (e.preventDefault(), onNavigate('admin'))}>Organization</a></li>}
    </ul>
  );
}

type Link = (narrow: Narrow, label: preact.ComponentChildren, extra?: preact.ComponentChildren, cls?: string) => preact.JSX.Element;

/** The open channel's topics, newest first: muted ones dimmed (and said so to screen readers), followed ones marked. */
function Topics({ app, streamId, currentTopic, link }: { app: App; streamId: number; currentTopic: unknown; link: Link }) {
  // Read here too: @preact/signals skips re-rendering a child whose props did not change.
  app.revision.value;
  app.topicsArrived.value;
  const counts = app.counts();
  return (
    <ul class="topics">
      {(app.topics.get(streamId) ?? []).slice(0, 30).map((t) => {
        const muted = app.topicMuted(streamId, t.name);
        const followed = app.topicPolicies.followed(streamId, t.name);
        return (
          <li key={t.name} class={`${currentTopic === t.name ? 'current' : ''}${muted ? ' muted' : ''}`}>
            {link(channelNarrow(streamId, t.name), <>{t.name || 'general chat'}{muted && <span class="sr-only"> (muted)</span>}{followed && <span class="followed" title="Followed" aria-label="followed"> ●</span>}</>,
              <Count n={counts.topics.get(topicKey(streamId, t.name))} label={`in ${t.name}`} />, 'topic')}
          </li>
        );
      })}
    </ul>
  );
}

/** People, active ones first; a large organization shows the first ones and a filter (the list is not what the page spends its time on). */
function People({ app, onNavigate, currentKey }: Here & { app: App }) {
  app.revision.value;
  app.activity.value;
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

const PEOPLE_SHOWN = 60;
/** One collator for the sidebar's sorts: String.localeCompare builds a comparison per call (a thousand people took tens of ms per render). */
const byName = new Intl.Collator();
