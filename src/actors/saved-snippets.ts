/** A user's saved snippets, one actor per user keyed by id, persisted with every change (see personal-records.ts). */
import type { SavedSnippetRecord } from '../domain/saved-snippets.js';
import { recordsKind } from './personal-records.js';

export const savedSnippetsKind = recordsKind<SavedSnippetRecord>('saved_snippets');
