/** Recent conversations: the newest topics and direct message conversations with their people, last message time and unread count; filters for participated and unread. */
import { useEffect, useState } from 'preact/hooks';
import type { App } from '../app/app.js';
import { conversationKey, type Conversation } from '../state/feed.js';
import { channelNarrow, dmNarrow, narrowPath, type Narrow } from '../state/narrow.js';
import { recentConversations, type RecentFilter } from '../state/recent.js';
import { topicKey } from '../state/unread.js';
import { dmKey } from '../state/types.js';

/** Every message, muted ones included (the view filters them itself). */
const ALL: Narrow = [];
const FETCH = 400;
const SHOWN_PEOPLE = 3;

export function Recent({ app, onNavigate }: { app: App; onNavigate: (to: Narrow) => void }) {
  // Built from the loaded messages, with their unread counts and names.
  app.watch('feed', 'unread', 'channels', 'people');
  const [filter, setFilter] = useState<RecentFilter>({});
  useEffect(() => void app.load(ALL, false, FETCH), [app.registration]);
  const counts = app.counts();
  const list = app.messages.list(ALL);
  const rows = recentConversations(
    app.messages.byId.values(),
    (app.registration?.recent_private_conversations as { user_ids: number[]; max_message_id: number }[] | undefined) ?? [],
    {
      selfId: app.selfId,
      unreadCount: (c) => (c.type === 'channel' ? counts.topics.get(topicKey(c.streamId, c.topic)) : counts.dms.get(dmKey(c.userIds))) ?? 0,
      topicMuted: (id, topic) => app.topicMuted(id, topic),
    },
    filter,
  );
  const toggle = (key: keyof RecentFilter, label: string) => (
    <button type="button" aria-pressed={Boolean(filter[key])} class={filter[key] ? 'on' : ''} onClick={() => setFilter({ ...filter, [key]: !filter[key] })}>{label}</button>
  );
  const narrowOf = (c: Conversation) => (c.type === 'channel' ? channelNarrow(c.streamId, c.topic) : dmNarrow(c.userIds));
  return (
    <section class="page recent" aria-labelledby="recent-title">
      <h1 id="recent-title">Recent conversations</h1>
      <div class="filters" role="group" aria-label="Show">
        {toggle('participated', 'Participated')}
        {toggle('unread', 'Unread')}
        {toggle('includeMuted', 'Include muted')}
      </div>
      {!list && <p class="empty" role="status">Loading…</p>}
      {list && rows.length === 0 && <p class="empty">No conversations{filter.participated || filter.unread ? ' match these filters' : ' yet'}.</p>}
      <ul class="recent-list" aria-label="Conversations">
        {rows.map((r) => (
          <li key={r.key} class={`recent-row${r.unread ? ' has-unread' : ''}`} data-key={conversationKey(r.conversation)}>
            <a class="recent-where" href={narrowPath(narrowOf(r.conversation))} onClick={(e) => (e.preventDefault(), onNavigate(narrowOf(r.conversation)))}>
              {app.conversationName(r.conversation)}
            </a>
            <span class="recent-people" title={r.senders.map((id) => app.userName(id)).join(', ')}>
              {r.senders.slice(0, SHOWN_PEOPLE).map((id) => app.userName(id)).join(', ')}{r.senders.length > SHOWN_PEOPLE ? ` +${r.senders.length - SHOWN_PEOPLE}` : ''}
            </span>
            <time class="recent-time" dateTime={r.timestamp ? new Date(r.timestamp * 1000).toISOString() : undefined}>{r.timestamp ? ago(r.timestamp) : ''}</time>
            {r.unread > 0 ? <span class="count" aria-label={`${r.unread} unread`}>{r.unread}</span> : <span class="count-none" />}
          </li>
        ))}
      </ul>
      {list && !list.foundOldest && <button type="button" class="more" onClick={() => void app.loadOlder(ALL)}>Load older conversations</button>}
    </section>
  );
}

/** "5 min ago", "3 h ago", else the date (the exact time in the title of the row's time). */
function ago(seconds: number): string {
  const delta = Date.now() / 1000 - seconds;
  if (delta < 60) return 'just now';
  if (delta < 3600) return `${Math.floor(delta / 60)} min ago`;
  if (delta < 86400) return `${Math.floor(delta / 3600)} h ago`;
  return new Date(seconds * 1000).toLocaleDateString();
}
