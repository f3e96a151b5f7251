/** One message (sender, time, sanitised content, edited mark, reactions, actions) and the conversation header above a run of them. */
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { App } from '../app/app.js';
import { resolveUploads } from '../api/uploads.js';
import { channelNarrow, dmNarrow } from '../state/narrow.js';
import type { FeedRow } from '../state/feed.js';
import type { Message, Reaction } from '../state/types.js';
import { sanitize } from './sanitize.js';
import { highlightCode } from './highlight.js';
import { EmojiPicker } from './EmojiPicker.js';
import { glyphOf } from '../app/emoji.js';
import { editMessage, deleteMessage, moveTopic, setTopicVisibility, toggleReaction, toggleStar } from '../app/message-actions.js';
import { mutePolicy, VisibilityPolicy } from '../state/topic-policy.js';
import { Avatar, Lock } from './Avatar.js';

// Formatters made once: toLocale*String with options builds one on every call (each row, each render).
const DAY = new Intl.DateTimeFormat();
const CLOCK = new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit' });
const MOMENT = new Intl.DateTimeFormat([], { dateStyle: 'medium', timeStyle: 'short' });

export function ConversationHeader({ app, row }: { app: App; row: Extract<FeedRow, { kind: 'header' }> }) {
  const c = row.conversation;
  if (c.type === 'channel') {
    const color = app.subscriptions.get(c.streamId)?.color ?? '#888';
    return (
      <div class="conv-header" style={{ borderLeftColor: color }}>
        <a href="#" class="conv-channel" onClick={(e) => (e.preventDefault(), app.go(channelNarrow(c.streamId)))}>{app.subscriptions.get(c.streamId)?.invite_only && <Lock />}#{app.channelName(c.streamId)}</a>
        <span aria-hidden="true"> › </span>
        <a href="#" class="conv-topic" onClick={(e) => (e.preventDefault(), app.go(channelNarrow(c.streamId, c.topic)))}>{c.topic || 'general chat'}</a>
        {Number.isInteger(row.firstId) && (
          <button type="button" class="rename-topic" aria-label={`Rename topic ${c.topic}`} title="Rename (move) this topic"
            onClick={() => {
              const topic = prompt('New topic name', c.topic);
              if (topic !== null && topic.trim() && topic !== c.topic) void moveTopic(app, row.firstId, topic.trim());
            }}>✎</button>
        )}
        <TopicVisibility app={app} streamId={c.streamId} topic={c.topic} />
        <time class="conv-date">{DAY.format(row.date * 1000)}</time>
      </div>
    );
  }
  return (
    <div class="conv-header dm">
      <a href="#" onClick={(e) => (e.preventDefault(), app.go(dmNarrow(c.userIds)))}>
        {c.userIds.length === 1 && c.userIds[0] === app.selfId ? 'Notes to self' : `You and ${c.userIds.map((id) => app.userName(id)).join(', ')}`}
      </a>
      <time class="conv-date">{DAY.format(row.date * 1000)}</time>
    </div>
  );
}

/** Mute or unmute, follow or unfollow a topic (for oneself), from its header. */
function TopicVisibility({ app, streamId, topic }: { app: App; streamId: number; topic: string }) {
  const channelMuted = app.isMuted(streamId);
  const muted = app.topicMuted(streamId, topic);
  const followed = app.topicPolicies.followed(streamId, topic);
  const name = topic || 'general chat';
  return (
    <span class="topic-visibility">
      <button type="button" aria-pressed={muted} aria-label={`${muted ? 'Unmute' : 'Mute'} topic ${name}`} title={muted ? 'Unmute this topic' : 'Mute this topic'}
        onClick={() => void setTopicVisibility(app, streamId, topic, mutePolicy(channelMuted, !muted))}>{muted ? '🔕' : '🔔'}</button>
      <button type="button" aria-pressed={followed} aria-label={`${followed ? 'Unfollow' : 'Follow'} topic ${name}`} title={followed ? 'Unfollow this topic' : 'Follow this topic'}
        onClick={() => void setTopicVisibility(app, streamId, topic, followed ? VisibilityPolicy.INHERIT : VisibilityPolicy.FOLLOWED)}>{followed ? '◉' : '○'}</button>
    </span>
  );
}

export function MessageRow({ app, row, onReply, selected }: { app: App; row: Extract<FeedRow, { kind: 'message' }>; onReply: (id: number) => void; selected: boolean }) {
  const m = row.message;
  const content = useRef<HTMLDivElement>(null);
  const article = useRef<HTMLElement>(null);
  // The selected message takes focus (screen readers read it; focus is visible), unless the person is typing elsewhere.
  // In the same commit as its `selected` class (a layout effect), so focus never lags behind the highlight.
  useLayoutEffect(() => {
    const active = document.activeElement;
    if (selected && article.current && (!active || active === document.body || active.closest('.feed'))) article.current.focus({ preventScroll: true });
  }, [selected]);
  const [picking, setPicking] = useState(false);
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const html = sanitize(m.content);
  useLayoutEffect(() => {
    if (!content.current) return;
    resolveUploads(app.api, content.current);
    localTimes(content.current);
    emojiGlyphs(content.current);
    highlightCode(content.current);
  }, [html, editing]);
  const own = m.sender_id === app.selfId;
  const unread = app.unread.has(m.id);
  const starred = m.flags.includes('starred');
  const server = Number.isInteger(m.id);
  const startEdit = async () => {
    const answer = await app.api.get<{ raw_content: string }>(`/messages/${m.id}`, { apply_markdown: false });
    setEditing(answer.raw_content);
  };
  return (
    <article ref={article} class={`message${row.continued ? ' continued' : ''}${unread ? ' unread' : ''}${m.local_id ? ' pending' : ''}${m.failed ? ' failed' : ''}${selected ? ' selected' : ''}`}
      data-message-id={m.id} aria-label={`Message from ${m.sender_full_name}`} aria-current={selected ? 'true' : undefined} tabIndex={selected ? 0 : -1}
      onClick={(e) => server && !(e.target as HTMLElement).closest('a, button, textarea, input, .emoji-picker') && (app.selected.value = m.id)}>
      {!row.continued && <Avatar app={app} userId={m.sender_id} url={m.avatar_url} email={m.sender_email} name={m.sender_full_name} />}
      <div class="message-body">
        {!row.continued && (
          <div class="message-meta">
            <span class="sender">{m.sender_full_name}</span>
            <time dateTime={new Date(m.timestamp * 1000).toISOString()}>{CLOCK.format(m.timestamp * 1000)}</time>
          </div>
        )}
        {editing === undefined ? (
          <div class="content rendered" ref={content} onClick={spoilerToggle} dangerouslySetInnerHTML={{ __html: html }} />
        ) : (
          <form class="edit" onSubmit={(e) => (e.preventDefault(), editMessage(app, m.id, editing).then(() => setEditing(undefined)))}>
            <textarea aria-label="Edit message" value={editing} onInput={(e) => setEditing(e.currentTarget.value)} onKeyDown={(e) => e.key === 'Escape' && setEditing(undefined)} />
            <button type="submit">Save</button>
            <button type="button" onClick={() => setEditing(undefined)}>Cancel</button>
          </form>
        )}
        {m.last_edit_timestamp !== undefined && <span class="edited" title={new Date(m.last_edit_timestamp * 1000).toLocaleString()}>(edited)</span>}
        {m.failed && <span class="send-failed" role="alert">Not sent</span>}
        {m.reactions.length > 0 && <Reactions app={app} message={m} />}
      </div>
      {server && (
        <div class="message-actions" role="toolbar" aria-label="Message actions">
          <button type="button" title="Add reaction" aria-label="Add reaction" onClick={() => setPicking(!picking)}>☺</button>
          <button type="button" title="Quote and reply" aria-label="Quote and reply" onClick={() => onReply(m.id)}>↩</button>
          <button type="button" class={starred ? 'on' : ''} title={starred ? 'Unstar' : 'Star'} aria-label={starred ? 'Unstar' : 'Star'} aria-pressed={starred} onClick={() => toggleStar(app, m)}>
            {starred ? '★' : '☆'}
          </button>
          {own && <button type="button" title="Edit" aria-label="Edit message" onClick={() => void startEdit()}>✎</button>}
          {(own || app.isAdmin()) && (
            <button type="button" title="Delete" aria-label="Delete message" onClick={() => confirm('Delete this message?') && deleteMessage(app, m.id)}>🗑</button>
          )}
        </div>
      )}
      {picking && <EmojiPicker app={app} onPick={(choice) => (setPicking(false), toggleReaction(app, m, choice))} onClose={() => setPicking(false)} />}
    </article>
  );
}

function Reactions({ app, message }: { app: App; message: Message }) {
  const groups = new Map<string, Reaction[]>();
  for (const r of message.reactions) {
    const key = `${r.reaction_type}:${r.emoji_code}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return (
    <div class="reactions">
      {[...groups.values()].map((rs) => {
        const first = rs[0]!;
        const mine = rs.some((r) => r.user_id === app.selfId);
        const custom = first.reaction_type === 'realm_emoji' ? app.realm.emoji[first.emoji_code] : undefined;
        const who = rs.map((r) => app.userName(r.user_id)).join(', ');
        return (
          <button type="button" class={`reaction${mine ? ' mine' : ''}`} aria-pressed={mine} title={`${who} reacted with :${first.emoji_name}:`}
            aria-label={`${first.emoji_name}: ${rs.length}`}
            onClick={() => toggleReaction(app, message, { name: first.emoji_name, code: first.emoji_code, type: first.reaction_type === 'realm_emoji' ? 'realm_emoji' : 'unicode_emoji', glyph: '', isImage: false })}>
            {custom ? <img src={custom.source_url} alt={`:${first.emoji_name}:`} class="emoji" /> : <span class="emoji">{glyphOf(first.emoji_code) || `:${first.emoji_name}:`}</span>}
            <span class="count">{rs.length}</span>
          </button>
        );
      })}
    </div>
  );
}

/** Time stamps (`<time datetime>`) in the reader's zone. */
function localTimes(root: HTMLElement): void {
  for (const t of root.querySelectorAll<HTMLTimeElement>('time[datetime]')) {
    const when = new Date(t.dateTime);
    if (!Number.isNaN(when.getTime())) t.textContent = MOMENT.format(when);
  }
}

/** Unicode emoji arrive as `<span class="emoji emoji-1f604">:smile:</span>` (Zulip's sprite sheet classes): shown as the character. */
function emojiGlyphs(root: HTMLElement): void {
  for (const span of root.querySelectorAll<HTMLSpanElement>('span.emoji')) {
    const code = [...span.classList].find((c) => c.startsWith('emoji-'))?.slice('emoji-'.length);
    const glyph = code ? glyphOf(code) : '';
    if (glyph && span.textContent !== glyph) span.textContent = glyph;
  }
}

/** Spoilers open and close on a click on their header. */
function spoilerToggle(event: MouseEvent): void {
  const header = (event.target as HTMLElement).closest('.spoiler-header');
  const block = header?.closest('.spoiler-block');
  if (block) block.classList.toggle('open');
}
