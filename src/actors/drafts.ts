/**
 * The drafts actor: one per user, holding the user's synced drafts by id, persisted with every
 * change (see personal-records.ts).
 */
import type { DraftRecord } from '../domain/drafts.js';
import { recordsKind } from './personal-records.js';

export const draftsKind = recordsKind<DraftRecord>('drafts');
