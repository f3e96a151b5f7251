/** The compose box: destination (channel and topic, or people), Markdown text with autocompletion, file upload by paste or drop, send, schedule, drafts. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { App } from '../app/app.js';
import { sendMessage, typingNotice, type Destination } from '../app/message-actions.js';
import { applyCandidate, channelSyntax, mentionSyntax, rank, tokenAt, type Candidate } from '../state/autocomplete.js';
import { compose } from './compose-state.js';
import { emojiChoices } from './EmojiPicker.js';
import { saveDraft, dropDraft } from '../app/drafts.js';

const TYPING_EVERY_MS = 10_000;

function destination(): Destination | undefined {
  if (compose.mode.value === 'channel') {
    const streamId = compose.streamId.value;
    return streamId === undefined ? undefined : { type: 'channel', streamId, topic: compose.topic.value.trim() };
  }
  return compose.dmTo.value.length ? { type: 'dm', userIds: compose.dmTo.value } : undefined;
}

function candidates(app: App, text: string, caret: number): { list: Candidate[]; token: ReturnType<typeof tokenAt> } {
  const token = tokenAt(text, caret);
  if (!token) return { list: [], token };
  if (token.kind === 'mention') {
    const users = rank([...app.users.values()].filter((u) => u.is_active !== false), token.query, (u) => u.full_name);
    return { token, list: users.map((u) => ({ label: `${u.full_name} (${u.email})`, insert: mentionSyntax(u.full_name, u.user_id) })) };
  }
  if (token.kind === 'channel') {
    const channels = rank([...app.subscriptions.values()], token.query, (s) => s.name);
    return { token, list: channels.map((s) => ({ label: `#${s.name}`, insert: channelSyntax(s.name) })) };
  }
  const emoji = rank(emojiChoices(app), token.query, (e) => e.name);
  return { token, list: emoji.map((e) => ({ label: `${e.isImage ? '' : e.glyph} :${e.name}:`, insert: `:${e.name}:` })) };
}

export function Compose({ app }: { app: App }) {
  app.revision.value;
  const area = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState(0);
  const [chosen, setChosen] = useState(0);
  const [uploading, setUploading] = useState(0);
  const [scheduleAt, setScheduleAt] = useState('');
  const [notice, setNotice] = useState('');
  const lastTyping = useRef(0);
  const text = compose.text.value;
  const menu = candidates(app, text, caret);

  useEffect(() => {
    if (compose.focus.value) area.current?.focus();
  }, [compose.focus.value]);

  const setText = (value: string, at?: number) => {
    compose.text.value = value;
    if (at !== undefined) requestAnimationFrame(() => area.current?.setSelectionRange(at, at));
    setCaret(at ?? area.current?.selectionStart ?? value.length);
    const to = destination();
    if (to) saveDraft(app, to, value);
  };

  const send = async () => {
    const to = destination();
    const content = compose.text.value.trim();
    if (!to || !content) return;
    if (to.type === 'channel' && !to.topic && app.registration?.realm_mandatory_topics) return setNotice('Choose a topic');
    compose.text.value = '';
    setNotice('');
    typingNotice(app, to, 'stop');
    lastTyping.current = 0;
    dropDraft(app);
    if (scheduleAt) {
      const at = Math.floor(new Date(scheduleAt).getTime() / 1000);
      const params = to.type === 'channel' ? { type: 'stream', to: to.streamId, topic: to.topic } : { type: 'direct', to: JSON.stringify(to.userIds) };
      try {
        await app.api.post('/scheduled_messages', { ...params, content, scheduled_delivery_timestamp: at });
        setNotice(`Scheduled for ${new Date(at * 1000).toLocaleString()}`);
        setScheduleAt('');
      } catch (error) {
        compose.text.value = content;
        app.fail(error);
      }
      return;
    }
    await sendMessage(app, to, content);
  };

  const upload = async (files: FileList | File[]) => {
    for (const file of Array.from(files)) {
      setUploading((n) => n + 1);
      try {
        const answer = await app.api.upload(file);
        const link = `[${file.name}](${answer.url})`;
        const at = area.current?.selectionStart ?? compose.text.value.length;
        const before = compose.text.value.slice(0, at);
        setText(`${before}${before && !before.endsWith('\n') ? ' ' : ''}${link}${compose.text.value.slice(at)}`, at + link.length + 1);
      } catch (error) {
        app.fail(error);
      } finally {
        setUploading((n) => n - 1);
      }
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (menu.list.length && menu.token) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setChosen((c) => (c + (e.key === 'ArrowDown' ? 1 : menu.list.length - 1)) % menu.list.length);
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        const next = applyCandidate(text, menu.token, menu.list[Math.min(chosen, menu.list.length - 1)]!.insert);
        setChosen(0);
        setText(next.text, next.caret);
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void send();
    }
    if (e.key === 'Escape') area.current?.blur();
  };

  const onInput = (e: Event) => {
    const el = e.currentTarget as HTMLTextAreaElement;
    setChosen(0);
    setText(el.value, el.selectionStart);
    const to = destination();
    if (to && Date.now() - lastTyping.current > TYPING_EVERY_MS) {
      lastTyping.current = Date.now();
      typingNotice(app, to, 'start');
    }
  };

  const subs = [...app.subscriptions.values()].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <form class="compose" aria-label="Compose" onSubmit={(e) => (e.preventDefault(), void send())}
      onDragOver={(e) => e.preventDefault()} onDrop={(e) => { e.preventDefault(); if (e.dataTransfer?.files.length) void upload(e.dataTransfer.files); }}>
      <div class="compose-to">
        <select aria-label="Message type" value={compose.mode.value} onChange={(e) => (compose.mode.value = e.currentTarget.value as 'channel' | 'dm')}>
          <option value="channel">Channel</option>
          <option value="dm">Direct message</option>
        </select>
        {compose.mode.value === 'channel' ? (
          <>
            <select aria-label="Channel" value={compose.streamId.value ?? ''} onChange={(e) => (compose.streamId.value = Number(e.currentTarget.value))}>
              <option value="" disabled>Channel…</option>
              {subs.map((s) => <option value={s.stream_id} key={s.stream_id}>#{s.name}</option>)}
            </select>
            <input aria-label="Topic" placeholder="Topic" value={compose.topic.value} onInput={(e) => (compose.topic.value = e.currentTarget.value)} maxLength={60} />
          </>
        ) : (
          <Recipients app={app} />
        )}
      </div>
      <div class="compose-box">
        <textarea ref={area} aria-label="Message" placeholder="Message (Markdown; @ mention, : emoji, # channel; paste or drop files)" value={text}
          onInput={onInput} onKeyDown={onKeyDown} onClick={(e) => setCaret(e.currentTarget.selectionStart)}
          onPaste={(e) => { if (e.clipboardData?.files.length) { e.preventDefault(); void upload(e.clipboardData.files); } }}
          aria-autocomplete="list" aria-controls="compose-menu" aria-expanded={menu.list.length > 0} />
        {menu.list.length > 0 && (
          <ul class="autocomplete" id="compose-menu" role="listbox">
            {menu.list.map((c, i) => (
              <li role="option" aria-selected={i === chosen} class={i === chosen ? 'chosen' : ''} key={c.insert}
                onMouseDown={(e) => { e.preventDefault(); const next = applyCandidate(text, menu.token!, c.insert); setText(next.text, next.caret); }}>{c.label}</li>
            ))}
          </ul>
        )}
      </div>
      <div class="compose-actions">
        <label class="file-button">
          Attach<input type="file" multiple aria-label="Attach files" onChange={(e) => e.currentTarget.files && void upload(e.currentTarget.files)} />
        </label>
        <label class="schedule">
          Send at <input type="datetime-local" aria-label="Schedule for" value={scheduleAt} onInput={(e) => setScheduleAt(e.currentTarget.value)} />
        </label>
        {uploading > 0 && <span role="status">Uploading…</span>}
        {notice && <span role="status">{notice}</span>}
        <button type="submit" class="primary">{scheduleAt ? 'Schedule' : 'Send'}</button>
      </div>
    </form>
  );
}

/** Direct message recipients: chosen people as chips, more added by name or email. */
function Recipients({ app }: { app: App }) {
  // Read here too: @preact/signals skips re-rendering a child whose props did not change.
  app.revision.value;
  const [query, setQuery] = useState('');
  const matches = query ? rank([...app.users.values()].filter((u) => u.is_active !== false && !compose.dmTo.value.includes(u.user_id)), query, (u) => u.full_name, 6) : [];
  const add = (id: number) => {
    compose.dmTo.value = [...compose.dmTo.value, id].sort((a, b) => a - b);
    setQuery('');
  };
  return (
    <div class="recipients">
      {compose.dmTo.value.map((id) => (
        <span class="chip" key={id}>
          {app.userName(id)}
          <button type="button" aria-label={`Remove ${app.userName(id)}`} onClick={() => (compose.dmTo.value = compose.dmTo.value.filter((u) => u !== id))}>×</button>
        </span>
      ))}
      <input aria-label="Add recipient" placeholder="Add a person" value={query} onInput={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={(e) => e.key === 'Enter' && matches[0] && (e.preventDefault(), add(matches[0].user_id))} />
      {matches.length > 0 && (
        <ul class="autocomplete" role="listbox">
          {matches.map((u) => <li role="option" key={u.user_id} onMouseDown={(e) => (e.preventDefault(), add(u.user_id))}>{u.full_name} ({u.email})</li>)}
        </ul>
      )}
    </div>
  );
}
