/** Reading a user's saved snippets from their actor. */
import { PersonalRecords } from '../actors/personal-records.js';
import { savedSnippetsKind } from '../actors/saved-snippets.js';
import { savedSnippetObject, snippetMissing, type SavedSnippetRecord } from '../domain/saved-snippets.js';
import type { Services } from '../services.js';

export const snippetBook = (services: Services) => new PersonalRecords<SavedSnippetRecord>(services.actors, savedSnippetsKind);

export function savedSnippetsOf(services: Services, userId: number): Record<string, unknown>[] {
  return snippetBook(services).list(userId).map(savedSnippetObject);
}

/** The user's own snippet; any other id is Zulip's "Saved snippet does not exist." */
export function requireSnippet(services: Services, userId: number, id: number): SavedSnippetRecord {
  const snippet = snippetBook(services).get(userId, id);
  if (!snippet) throw snippetMissing();
  return snippet;
}
