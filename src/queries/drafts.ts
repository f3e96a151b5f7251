/** Reading a user's drafts from their drafts actor. */
import { draftsKind } from '../actors/drafts.js';
import { PersonalRecords } from '../actors/personal-records.js';
import { byEditTime, draftMissing, draftObject, type DraftRecord } from '../domain/drafts.js';
import type { Services } from '../services.js';

/** Zulip's MAX_DRAFTS_IN_REGISTER_RESPONSE. */
const MAX_DRAFTS_IN_REGISTER = 1000;

export const draftBook = (services: Services) => new PersonalRecords<DraftRecord>(services.actors, draftsKind);

/** GET /drafts: oldest edit first, as Zulip orders them. */
export function draftsOf(services: Services, userId: number): Record<string, unknown>[] {
  return draftBook(services).list(userId).sort(byEditTime).map(draftObject);
}

/** POST /register: the newest edits first, at most Zulip's cap. */
export function registerDrafts(services: Services, userId: number): Record<string, unknown>[] {
  return draftBook(services).list(userId).sort((a, b) => byEditTime(b, a)).slice(0, MAX_DRAFTS_IN_REGISTER).map(draftObject);
}

/** The user's own draft; any other id (unknown, or someone else's) is Zulip's "Draft does not exist". */
export function requireDraft(services: Services, userId: number, id: number): DraftRecord {
  const draft = draftBook(services).get(userId, id);
  if (!draft) throw draftMissing();
  return draft;
}
