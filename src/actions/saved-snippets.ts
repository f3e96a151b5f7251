/**
 * Creating, editing and deleting a user's saved snippets, each with its `saved_snippets` event
 * to the user's queues (Zulip's zerver/actions/saved_snippets.py).
 */
import { savedSnippetObject, snippetContent, snippetTitle, type SavedSnippetRecord } from '../domain/saved-snippets.js';
import type { UserRecord } from '../domain/users.js';
import { requireSnippet, snippetBook } from '../queries/saved-snippets.js';
import type { Services } from '../services.js';
import { unixSeconds } from '../services.js';

/** POST /saved_snippets; returns the new snippet's id. */
export function createSavedSnippet(services: Services, user: UserRecord, rawTitle: string, rawContent: string): Promise<number> {
  const title = snippetTitle(rawTitle);
  const content = snippetContent(rawContent);
  return services.write((tx) => {
    const snippet: SavedSnippetRecord = {
      id: services.counters.nextRealmId(services.org.id, 'saved_snippet', tx),
      title,
      content,
      dateCreated: unixSeconds(services.clock),
    };
    snippetBook(services).put(user.id, [[snippet.id, snippet]], tx);
    tx.emit({ type: 'saved_snippets', op: 'add', saved_snippet: savedSnippetObject(snippet) }, [user.id]);
    return snippet.id;
  });
}

/** PATCH /saved_snippets/{id}: with nothing to change, nothing happens (Zulip sends no spurious event). */
export async function editSavedSnippet(services: Services, user: UserRecord, id: number, rawTitle: string | undefined, rawContent: string | undefined): Promise<void> {
  const title = rawTitle === undefined ? undefined : snippetTitle(rawTitle);
  const content = rawContent === undefined ? undefined : snippetContent(rawContent);
  await services.write((tx) => {
    const snippet = requireSnippet(services, user.id, id);
    if (title === undefined && content === undefined) return;
    const next: SavedSnippetRecord = { ...snippet, title: title ?? snippet.title, content: content ?? snippet.content };
    snippetBook(services).put(user.id, [[id, next]], tx);
    tx.emit({ type: 'saved_snippets', op: 'update', saved_snippet: savedSnippetObject(next) }, [user.id]);
  });
}

/** DELETE /saved_snippets/{id} */
export async function deleteSavedSnippet(services: Services, user: UserRecord, id: number): Promise<void> {
  await services.write((tx) => {
    requireSnippet(services, user.id, id);
    snippetBook(services).drop(user.id, [id], tx);
    tx.emit({ type: 'saved_snippets', op: 'remove', saved_snippet_id: id }, [user.id]);
  });
}
