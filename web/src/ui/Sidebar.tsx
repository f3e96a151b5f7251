/** The left column: views (Inbox, Recent, combined feed, mentions, starred, drafts, scheduled), channels with unread counts and topics (muted dimmed), direct message conversations, people. */
import { useState } from 'preact/hooks';
import type { App } from '../app/app.js';
import { channelNarrow, dmNarrow, HOME, narrowKey, narrowPath, term, type Narrow } from '../state/narrow.js';
import type { Page } from '../state/pages.js';
import { dmKey } from '../state/types.js';
import { topicKey } from '../state/unread.js';
import { Lock, PresenceDot } from './Avatar.js';

function Count({ n, label }: { n: number | undefined; label: string }) {
  return n ? <span class="count" aria-label={`${n} unread ${label}`}>{n}</span> : null;
}

export function Sidebar({ app, onNavigate, view }: { app: App; onNavigate: (to: Narrow | Page) => void; view: string }) {
  app.revision.value;
  const counts = app.counts();
  const current = app.narrow.value;
  const currentKey = view === 'feed' ? narrowKey(current) : '';
  const currentChannel = term(current, 'channel');
  const currentTopic = term(current, 'topic');
  const subs = [...app.subscriptions.values()].sort((a, b) => Number(b.pin_to_top) - Number(a.pin_to_top) || byName.compare(a.name, b.name));
  const link = (narrow: Narrow, label: preact.ComponentChildren, extra?: preact.ComponentChildren, cls = '', name?: string) => (
    <a href={narrowPath(narrow)} data-name={name} class={`nav-link ${cls}${narrowKey(narrow) === currentKey ? ' current' : ''}`} aria-current={narrowKey(narrow) === currentKey ? 'page' : undefined}
      onClick={(e) => (e.preventDefault(), onNavigate(narrow))}>
      <span class="label">{label}</span>
      {extra}
    </a>
  );
  const dms = recentDms(app);
  const page = (to: Page, label: string, extra?: preact.ComponentChildren) => (
    <a href={`/${to}`} class={`nav-link page-link${view === to ? ' current' : ''}`} aria-current={view === to ? 'page' : undefined}
      onClick={(e) => (e.preventDefault(), onNavigate(to))}>
      <span class="label">{label}</span>
      {extra}
    </a>
  );
  return (
    <nav class="sidebar" aria-label="Channels and conversations">
      <ul class="views">
        <li>{page('inbox', 'Inbox', <Count n={counts.total} label="messages" />)}</li>
        <li>{page('recent', 'Recent conversations')}</li>
        <li>{link(HOME, 'Combined feed', <Count n={counts.total} label="messages" />)}</li>
        <li>{link([{ operator: 'is', operand: 'mentioned' }], 'Mentions', <Count n={counts.mentions} label="mentions" />)}</li>
        <li>{link([{ operator: 'is', operand: 'starred' }], 'Starred')}</li>
        <li>{page('drafts', 'Drafts', app.drafts.length ? <span class="tally" aria-label={`${app.drafts.length} drafts`}>{app.drafts.length}</span> : null)}</li>
        {app.scheduled.length > 0 && <li>{page('scheduled', 'Scheduled messages', <span class="tally" aria-label={`${app.scheduled.length} scheduled`}>{app.scheduled.length}</span>)}</li>}
      </ul>
      <h2>Channels</h2>
      <ul class="channels">
        {subs.map((s) => {
          const open = currentChannel?.operand === s.stream_id;
          if (open && !app.topics.has(s.stream_id)) void app.loadTopics(s.stream_id);
          return (
            <li key={s.stream_id} class={s.is_muted ? 'muted' : ''}>
              {link(channelNarrow(s.stream_id), <>{s.invite_only ? <Lock /> : '#'} {s.name}</>, <Count n={counts.channels.get(s.stream_id)} label={`in ${s.name}`} />, 'channel', s.name)}
              <span class="swatch" style={{ background: s.color }} aria-hidden="true" />
              {open && <Topics app={app} streamId={s.stream_id} currentTopic={currentTopic?.operand} link={link} />}
            </li>
          );
        })}
      </ul>
      <h2>Direct messages</h2>
      <ul class="dms">
        {dms.map((ids) => (
          <li key={dmKey(ids)}>
            {link(dmNarrow(ids), app.dmName(ids), <Count n={counts.dms.get(dmKey(ids))} label="direct messages" />)}
          </li>
        ))}
      </ul>
      <People app={app} link={link} />
      <ul class="views bottom">
        <li><a href="/settings" class={view === 'settings' ? 'current' : ''} onClick={(e) => (e.preventDefault(), onNavigate('settings'))}>Settings</a></li>
        {app.isAdmin() && <li><a href="/admin" class={view === 'admin' ? 'current' : ''} onClick={(e) => (e.preventDefault(), onNavigate('admin'))}>Organization</a></li>}
      </ul>
    </nav>
  );
}

type Link = (narrow: Narrow, label: preact.ComponentChildren, extra?: preact.ComponentChildren, cls?: string) => preact.JSX.Element;

/** The open channel's topics, newest first: muted ones dimmed (and said so to screen readers), followed ones marked. */
function Topics({ app, streamId, currentTopic, link }: { app: App; streamId: number; currentTopic: unknown; link: Link }) {
  // Read here too: @preact/signals skips re-rendering a child whose props did not change.
  app.revision.value;
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
function People({ app, link }: { app: App; link: (narrow: Narrow, label: preact.ComponentChildren, extra?: preact.ComponentChildren) => preact.JSX.Element }) {
  const [filter, setFilter] = useState('');
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
          <li key={u.user_id}>{link(dmNarrow([u.user_id]), u.full_name, <PresenceDot app={app} userId={u.user_id} />)}</li>
        ))}
        {people.length > PEOPLE_SHOWN && <li class="more">{people.length - PEOPLE_SHOWN} more: filter to find them</li>}
      </ul>
    </>
  );
}

const PEOPLE_SHOWN = 60;
/** One collator for the sidebar's sorts: String.localeCompare builds a comparison per call (a thousand people took tens of ms per render). */
const byName = new Intl.Collator();

/** Conversations with unread messages first, then those registered as recent, then those seen since. */
function recentDms(app: App): number[][] {
  const seen = new Map<string, { ids: number[]; latest: number }>();
  const note = (ids: number[], latest: number) => {
    const key = dmKey(ids);
    const known = seen.get(key);
    if (!known || known.latest < latest) seen.set(key, { ids, latest });
  };
  for (const c of (app.registration?.recent_private_conversations as { user_ids: number[]; max_message_id: number }[]) ?? []) {
    note(c.user_ids.length ? c.user_ids : [app.selfId], c.max_message_id);
  }
  for (const m of app.messages.byId.values()) {
    if (m.type !== 'private' || typeof m.display_recipient === 'string') continue;
    const ids = m.display_recipient.map((r) => r.id).filter((id) => id !== app.selfId);
    note(ids.length ? ids.sort((a, b) => a - b) : [app.selfId], m.id);
  }
  return [...seen.values()].sort((a, b) => b.latest - a.latest).slice(0, 20).map((c) => c.ids);
}
