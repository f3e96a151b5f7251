/** The compose box's text kept as a draft through the drafts API (debounced), dropped when sent. */
import type { App } from './app.js';
import type { Destination } from './message-actions.js';

const SAVE_AFTER_MS = 1500;
let draftId: number | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;

function draftOf(to: Destination, content: string) {
  return to.type === 'channel'
    ? { type: 'stream', to: [to.streamId], topic: to.topic, content, timestamp: Math.floor(Date.now() / 1000) }
    : { type: 'private', to: to.userIds, topic: '', content, timestamp: Math.floor(Date.now() / 1000) };
}

export function saveDraft(app: App, to: Destination, content: string): void {
  if (timer) clearTimeout(timer);
  if (!content.trim()) return;
  timer = setTimeout(() => {
    timer = undefined;
    const draft = draftOf(to, content);
    const request = draftId === undefined
      ? app.api.post<{ ids: number[] }>('/drafts', { drafts: [draft] }).then((a) => (draftId = a.ids[0]))
      : app.api.patch(`/drafts/${draftId}`, { draft });
    // Drafts are a convenience: one that fails to save does not interrupt writing.
    request.catch(() => (draftId = undefined));
  }, SAVE_AFTER_MS);
}

export function dropDraft(app: App): void {
  if (timer) clearTimeout(timer);
  timer = undefined;
  if (draftId !== undefined) app.api.del(`/drafts/${draftId}`).catch(() => {});
  draftId = undefined;
}

/** Continues a saved draft (from the drafts list): it becomes the draft being edited. */
export function adoptDraft(id: number): void {
  draftId = id;
}
