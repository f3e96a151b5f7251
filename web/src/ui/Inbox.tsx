/** The Inbox: unread direct message conversations, then channels with their unread topics and counts (muted topics left out), with a filter. */
import { useState } from 'preact/hooks';
import type { App } from '../app/app.js';
import { inbox } from '../state/inbox.js';
import { channelNarrow, dmNarrow, narrowPath, type Narrow } from '../state/narrow.js';
import { Lock } from './Avatar.js';

export function Inbox({ app, onNavigate }: { app: App; onNavigate: (to: Narrow) => void }) {
  app.watch('unread', 'channels', 'people');
  const [filter, setFilter] = useState('');
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set());
  const data = inbox(app.unread.conversations(), {
    channelName: (id) => app.channelName(id),
    pinned: (id) => app.subscriptions.get(id)?.pin_to_top ?? false,
    topicMuted: (id, topic) => app.topicMuted(id, topic),
    dmName: (ids) => app.dmName(ids),
  }, filter);
  const go = (narrow: Narrow, label: preact.ComponentChildren, cls = '') => (
    <a href={narrowPath(narrow)} class={`inbox-link ${cls}`} onClick={(e) => (e.preventDefault(), onNavigate(narrow))}>{label}</a>
  );
  const toggle = (id: number) => {
    const next = new Set(collapsed);
    if (!next.delete(id)) next.add(id);
    setCollapsed(next);
  };
  const empty = data.dms.length === 0 && data.channels.length === 0;
  return (
    <section class="page inbox" aria-labelledby="inbox-title">
      <h1 id="inbox-title">Inbox</h1>
      <input type="search" class="page-filter" aria-label="Filter conversations" placeholder="Filter conversations" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
      {empty && <p class="empty">{filter ? 'No unread conversation matches.' : 'There are no unread messages in your inbox.'}</p>}
      {data.dms.length > 0 && (
        <section class="inbox-group" aria-label="Direct messages">
          <h2 class="inbox-head"><span class="inbox-name">Direct messages</span><Unread n={data.dms.reduce((n, d) => n + d.count, 0)} /></h2>
          <ul>
            {data.dms.map((d) => (
              <li key={d.key} class="inbox-row">
                {go(dmNarrow(d.userIds), d.name, 'dm')}
                {d.mentioned && <Mention />}
                <Unread n={d.count} />
              </li>
            ))}
          </ul>
        </section>
      )}
      {data.channels.map((c) => {
        const open = !collapsed.has(c.streamId);
        const sub = app.subscriptions.get(c.streamId);
        return (
          <section key={c.streamId} class="inbox-group" aria-label={`#${c.name}`}>
            <h2 class="inbox-head" style={{ borderLeftColor: sub?.color ?? 'var(--line)' }}>
              <button type="button" class="collapse" aria-expanded={open} aria-label={`${open ? 'Collapse' : 'Expand'} #${c.name}`} onClick={() => toggle(c.streamId)}>{open ? '▾' : '▸'}</button>
              {go(channelNarrow(c.streamId), <>{sub?.invite_only ? <Lock /> : '#'}{c.name}</>, 'inbox-name channel')}
              <Unread n={c.count} />
            </h2>
            {open && (
              <ul>
                {c.topics.map((t) => (
                  <li key={t.topic} class="inbox-row">
                    {go(channelNarrow(c.streamId, t.topic), t.topic || 'general chat', 'topic')}
                    {t.mentioned && <Mention />}
                    <Unread n={t.count} />
                  </li>
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </section>
  );
}

function Unread({ n }: { n: number }) {
  return <span class="count" aria-label={`${n} unread`}>{n}</span>;
}

function Mention() {
  return <span class="mention-mark" title="You were mentioned" aria-label="mentioned">@</span>;
}
