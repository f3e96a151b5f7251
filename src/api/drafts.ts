/** `/drafts`: the caller's drafts, synced across their clients. */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import * as actions from '../actions/drafts.js';
import { checkDraftsSynchronized } from '../domain/drafts.js';
import { draftsOf } from '../queries/drafts.js';

/** GET /drafts */
export function getDrafts(services: Services, request: Request<typeof schemas.getDrafts>) {
  checkDraftsSynchronized(me(request));
  const drafts = draftsOf(services, me(request).id);
  return { count: drafts.length, drafts };
}

/** POST /drafts */
export async function createDrafts(services: Services, request: Request<typeof schemas.createDrafts>) {
  return { ids: await actions.createDrafts(services, me(request), request.params.drafts) };
}

/** PATCH /drafts/{draft_id:int} */
export async function editDraft(services: Services, request: Request<typeof schemas.editDraft, { draft_id: number }>) {
  await actions.editDraft(services, me(request), request.params.draft_id, request.params.draft);
  return {};
}

/** DELETE /drafts/{draft_id:int} */
export async function deleteDraft(services: Services, request: Request<typeof schemas.deleteDraft, { draft_id: number }>) {
  await actions.deleteDraft(services, me(request), request.params.draft_id);
  return {};
}
