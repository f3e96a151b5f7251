/** `/saved_snippets`: the caller's reusable message texts. */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import * as actions from '../actions/saved-snippets.js';
import { savedSnippetsOf } from '../queries/saved-snippets.js';

/** GET /saved_snippets */
export function getSavedSnippets(services: Services, request: Request<typeof schemas.getSavedSnippets>) {
  return { saved_snippets: savedSnippetsOf(services, me(request).id) };
}

/** POST /saved_snippets */
export async function createSavedSnippet(services: Services, request: Request<typeof schemas.createSavedSnippet>) {
  return { saved_snippet_id: await actions.createSavedSnippet(services, me(request), request.params.title, request.params.content) };
}

/** PATCH /saved_snippets/{saved_snippet_id:int} */
export async function editSavedSnippet(services: Services, request: Request<typeof schemas.editSavedSnippet, { saved_snippet_id: number }>) {
  const p = request.params;
  await actions.editSavedSnippet(services, me(request), p.saved_snippet_id, p.title, p.content);
  return {};
}

/** DELETE /saved_snippets/{saved_snippet_id:int} */
export async function deleteSavedSnippet(services: Services, request: Request<typeof schemas.deleteSavedSnippet, { saved_snippet_id: number }>) {
  await actions.deleteSavedSnippet(services, me(request), request.params.saved_snippet_id);
  return {};
}
