/** Drafts (through the drafts API): each with where it goes and when it was last edited; restore it into the compose box, or delete it. */
import { useEffect } from 'preact/hooks';
import type { App } from '../app/app.js';
import { deleteDraft, refreshDrafts } from '../app/saved.js';
import { destinationOf } from '../state/drafts.js';
import { HOME, type Narrow } from '../state/narrow.js';
import { restoreDraft } from './compose-state.js';

export function Drafts({ app, onNavigate }: { app: App; onNavigate: (to: Narrow) => void }) {
  app.watch('drafts', 'channels', 'people');
  useEffect(() => void refreshDrafts(app), [app]);
  return (
    <section class="page saved-page drafts" aria-labelledby="drafts-title">
      <h1 id="drafts-title">Drafts</h1>
      {app.drafts.length === 0 && <p class="empty">No drafts. What you write and do not send is kept here.</p>}
      <ul class="saved-list">
        {app.drafts.map((d) => {
          const to = destinationOf(d, app.selfId);
          const where = to ? app.conversationName(to) : 'No destination yet';
          return (
            <li key={d.id} class="saved-item draft" data-draft-id={d.id}>
              <div class="saved-meta">
                <span class="saved-where">{where}</span>
                <time dateTime={new Date(d.timestamp * 1000).toISOString()}>{new Date(d.timestamp * 1000).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })}</time>
              </div>
              <p class="saved-text">{d.content}</p>
              <div class="saved-actions">
                <button type="button" class="primary" aria-label={`Restore draft to ${where}`} onClick={() => onNavigate(restoreDraft(app, d) ?? HOME)}>Restore</button>
                <button type="button" aria-label={`Delete draft to ${where}`} onClick={() => void deleteDraft(app, d.id)}>Delete</button>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
