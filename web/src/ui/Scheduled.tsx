/** Scheduled messages: each with where it goes and when; change its time or text, or delete it. */
import { useEffect, useState } from 'preact/hooks';
import type { App } from '../app/app.js';
import { deleteScheduled, editScheduled, refreshScheduled } from '../app/saved.js';
import { destinationOf, localInputValue, type ScheduledMessage } from '../state/drafts.js';
import { sanitize } from './sanitize.js';

export function Scheduled({ app }: { app: App }) {
  app.watch('drafts', 'channels', 'people');
  const [editing, setEditing] = useState<number | undefined>(undefined);
  useEffect(() => void refreshScheduled(app), [app]);
  return (
    <section class="page saved-page scheduled" aria-labelledby="scheduled-title">
      <h1 id="scheduled-title">Scheduled messages</h1>
      {app.scheduled.length === 0 && <p class="empty">No scheduled messages. Choose "Send at" in the compose box to schedule one.</p>}
      <ul class="saved-list">
        {app.scheduled.map((s) => {
          const to = destinationOf(s, app.selfId);
          const where = to ? app.conversationName(to) : '';
          return (
            <li key={s.scheduled_message_id} class={`saved-item${s.failed ? ' failed' : ''}`} data-scheduled-id={s.scheduled_message_id}>
              <div class="saved-meta">
                <span class="saved-where">{where}</span>
                <time dateTime={new Date(s.scheduled_delivery_timestamp * 1000).toISOString()}>
                  {new Date(s.scheduled_delivery_timestamp * 1000).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })}
                </time>
                {s.failed && <span class="send-failed">Not sent</span>}
              </div>
              {editing === s.scheduled_message_id ? (
                <EditScheduled app={app} item={s} where={where} onDone={() => setEditing(undefined)} />
              ) : (
                <>
                  <div class="content rendered saved-text" dangerouslySetInnerHTML={{ __html: sanitize(s.rendered_content || s.content) }} />
                  <div class="saved-actions">
                    <button type="button" aria-label={`Edit scheduled message to ${where}`} onClick={() => setEditing(s.scheduled_message_id)}>Edit</button>
                    <button type="button" aria-label={`Delete scheduled message to ${where}`} onClick={() => void deleteScheduled(app, s.scheduled_message_id)}>Delete</button>
                  </div>
                </>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The text and the time of one scheduled message, saved together. */
function EditScheduled({ app, item, where, onDone }: { app: App; item: ScheduledMessage; where: string; onDone: () => void }) {
  const [content, setContent] = useState(item.content);
  const [at, setAt] = useState(localInputValue(item.scheduled_delivery_timestamp));
  const save = async () => {
    const seconds = Math.floor(new Date(at).getTime() / 1000);
    const change = {
      content: content !== item.content ? content : undefined,
      // The field shows minutes: an untouched field keeps the exact time.
      at: at !== localInputValue(item.scheduled_delivery_timestamp) && Number.isFinite(seconds) ? seconds : undefined,
    };
    if ((change.content === undefined && change.at === undefined) || (await editScheduled(app, item.scheduled_message_id, change))) onDone();
  };
  return (
    <form class="edit saved-edit" aria-label={`Edit scheduled message to ${where}`} onSubmit={(e) => (e.preventDefault(), void save())}>
      <textarea aria-label="Scheduled message text" value={content} onInput={(e) => setContent(e.currentTarget.value)} />
      <label>Send at <input type="datetime-local" aria-label="Send at" value={at} onInput={(e) => setAt(e.currentTarget.value)} /></label>
      <button type="submit" class="primary">Save</button>
      <button type="button" onClick={onDone}>Cancel</button>
    </form>
  );
}
