/** Saved snippets (Zulip 10, feature level 297): a user's reusable message texts. */
import { ApiError, badRequest } from './errors.js';
import { codePointLength, pyStrip } from './topics.js';
import { LIMITS } from './versions.js';

export interface SavedSnippetRecord {
  id: number;
  title: string;
  content: string;
  /** Unix seconds. */
  dateCreated: number;
}

/** Zulip's SavedSnippet.MAX_TITLE_LENGTH. */
export const MAX_SNIPPET_TITLE_LENGTH = 60;

export const snippetMissing = () => new ApiError('BAD_REQUEST', 'Saved snippet does not exist.', 404);

/** Zulip's StringConstraints(min_length=1, max_length, strip_whitespace=True): stripped first, then measured. */
function stripped(value: string, name: string, maxLength: number): string {
  const text = pyStrip(value);
  if (text === '') throw badRequest(`${name} cannot be blank`);
  if (codePointLength(text) > maxLength) throw badRequest(`${name} is too long (limit: ${maxLength} characters)`);
  return text;
}

export const snippetTitle = (title: string) => stripped(title, 'title', MAX_SNIPPET_TITLE_LENGTH);
export const snippetContent = (content: string) => stripped(content, 'content', LIMITS.maxMessageLength);

export function savedSnippetObject(snippet: SavedSnippetRecord): Record<string, unknown> {
  return { id: snippet.id, title: snippet.title, content: snippet.content, date_created: snippet.dateCreated };
}
