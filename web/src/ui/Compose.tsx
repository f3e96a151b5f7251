/** The compose box: destination (channel and topic, or people), Markdown text with autocompletion, file upload by paste or drop, send, schedule, drafts. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { App } from '../app/app.js';
import { scheduleMessage, sendMessage, typingNotice, type Destination } from '../app/message-actions.js';
import { applyCandidate, channelSyntax, mentionSyntax, rank, tokenAt, type Candidate } from '../state/autocomplete.js';
import { compose } from './compose-state.js';
import { emojiChoices } from './EmojiPicker.js';
import { saveDraft, dropDraft } from '../app/drafts.js';
import type { Subscription } from '../state/types.js';

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
  // No part of the app's state: the destination and the text are the compose box's own signals
  // (compose-state.ts), and autocompletion reads the people and channels as the person types.
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
    lastTyping.current = 0;
    const outcome = await submit(app, scheduleAt);
    if (outcome !== undefined) setNotice(outcome);
    if (outcome?.startsWith('Scheduled')) setScheduleAt('');
  };

  const upload = (files: FileList | File[]) =>
    uploadFiles(app, files, setUploading, (link) => {
      const at = area.current?.selectionStart ?? compose.text.value.length;
      const before = compose.text.value.slice(0, at);
      setText(`${before}${before && !before.endsWith('\n') ? ' ' : ''}${link}${compose.text.value.slice(at)}`, at + link.length + 1);
    });

  const choose = (c: Candidate) => {
    const next = applyCandidate(text, menu.token!, c.insert);
    setChosen(0);
    setText(next.text, next.caret);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (menuKey(e, menu.list, chosen, setChosen, choose)) return;
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

  return (
    <form class="compose" aria-label="Compose" onSubmit={(e) => (e.preventDefault(), void send())}
      onDragOver={(e) => e.preventDefault()} onDrop={(e) => { e.preventDefault(); if (e.dataTransfer?.files.length) void upload(e.dataTransfer.files); }}>
      <ComposeTo app={app} />
      <div class="compose-box">
        <textarea ref={area} aria-label="Message" placeholder="Message (Markdown; @ mention, : emoji, # channel; paste or drop files)" value={text}
          onInput={onInput} onKeyDown={onKeyDown} onClick={(e) => setCaret(e.currentTarget.selectionStart)}
          onPaste={(e) => { if (e.clipboardData?.files.length) { e.preventDefault(); void upload(e.clipboardData.files); } }}
          aria-autocomplete="list" aria-controls="compose-menu" aria-expanded={menu.list.length > 0} />
        <Menu list={menu.list} chosen={chosen} onChoose={choose} />
      </div>
      <Actions scheduleAt={scheduleAt} setScheduleAt={setScheduleAt} busy={uploading > 0} notice={notice} onFiles={(files) => void upload(files)} />
    </form>
  );
}

/** Sends (or schedules) what is written to the destination; the notice to show, if any. */
async function submit(app: App, scheduleAt: string): Promise<string | undefined> {
  const to = destination();
  const content = compose.text.value.trim();
  if (!to || !content) return undefined;
  if (to.type === 'channel' && !to.topic && app.registration?.realm_mandatory_topics) return 'Choose a topic';
  compose.text.value = '';
  typingNotice(app, to, 'stop');
  dropDraft(app);
  if (!scheduleAt) {
    await sendMessage(app, to, content);
    return '';
  }
  const scheduled = await scheduleMessage(app, to, content, new Date(scheduleAt));
  if (!scheduled) compose.text.value = content;
  return scheduled;
}

/** Under the text: attach, schedule, what is going on, send. */
function Actions(p: { scheduleAt: string; setScheduleAt: (v: string) => void; busy: boolean; notice: string; onFiles: (files: FileList) => void }) {
  return (
      <div class="compose-actions">
        <label class="file-button">
          Attach<input type="file" multiple aria-label="Attach files" onChange={(e) => e.currentTarget.files && p.onFiles(e.currentTarget.files)} />
        </label>
        <label class="schedule">
          Send at <input type="datetime-local" aria-label="Schedule for" value={p.scheduleAt} onInput={(e) => p.setScheduleAt(e.currentTarget.value)} />
        </label>
        {p.busy && <span role="status">Uploading…</span>}
        {p.notice && <span role="status">{p.notice}</span>}
        <button type="submit" class="primary">{p.scheduleAt ? 'Schedule' : 'Send'}</button>
      </div>
  );
}

/** Arrow keys move through the menu, Enter or Tab chooses; true when the key was the menu's. */
function menuKey(e: KeyboardEvent, list: Candidate[], chosen: number, setChosen: (f: (c: number) => number) => void, choose: (c: Candidate) => void): boolean {
  if (list.length === 0) return false;
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    e.preventDefault();
    setChosen((c) => (c + (e.key === 'ArrowDown' ? 1 : list.length - 1)) % list.length);
    return true;
  }
  if (e.key === 'Enter' || e.key === 'Tab') {
    e.preventDefault();
    choose(list[Math.min(chosen, list.length - 1)]!);
    return true;
  }
  return false;
}

/** Uploads files one by one, each linked into the text when it is stored. */
async function uploadFiles(app: App, files: FileList | File[], count: (change: (n: number) => number) => void, insert: (link: string) => void): Promise<void> {
  for (const file of Array.from(files)) {
    count((n) => n + 1);
    try {
      const answer = await app.api.upload(file);
      insert(`[${file.name}](${answer.url})`);
    } catch (error) {
      app.fail(error);
    } finally {
      count((n) => n - 1);
    }
  }
}

/** Where the message goes: a channel and topic, or people. */
function ComposeTo({ app }: { app: App }) {
  app.watch('channels');
  const subs = sortedChannels(app);
  return (
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
  );
}

/** The autocompletion menu under the caret's token. */
function Menu({ list, chosen, onChoose }: { list: Candidate[]; chosen: number; onChoose: (c: Candidate) => void }) {
  if (list.length === 0) return null;
  return (
    <ul class="autocomplete" id="compose-menu" role="listbox">
      {list.map((c, i) => (
        <li role="option" aria-selected={i === chosen} class={i === chosen ? 'chosen' : ''} key={c.insert} onMouseDown={(e) => (e.preventDefault(), onChoose(c))}>{c.label}</li>
      ))}
    </ul>
  );
}

const byName = new Intl.Collator();
const sorted = new WeakMap<App, { version: number; subs: Subscription[] }>();

/** The subscribed channels by name, sorted again only when they changed (a switch moves the destination, not the list). */
function sortedChannels(app: App): Subscription[] {
  const version = app.versions.channels.peek();
  const known = sorted.get(app);
  if (known?.version === version && known.subs.length === app.subscriptions.size) return known.subs;
  const subs = [...app.subscriptions.values()].sort((a, b) => byName.compare(a.name, b.name));
  sorted.set(app, { version, subs });
  return subs;
}

/** Direct message recipients: chosen people as chips, more added by name or email. */
function Recipients({ app }: { app: App }) {
  app.watch('people');
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
