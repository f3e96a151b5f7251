/** `/realm/linkifiers`, `/realm/filters` and `/realm/playgrounds`: linkifiers and code playgrounds. */
import type { Services } from '../services.js';
import * as actions from '../actions/linkifiers.js';
import { linkifiersState } from '../queries/linkifiers.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';

/** GET /realm/linkifiers */
export function getLinkifiers(services: Services, _request: Request<typeof schemas.getLinkifiers>) {
  return { linkifiers: linkifiersState(services) };
}

/** PATCH /realm/linkifiers */
export async function reorderLinkifiers(services: Services, request: Request<typeof schemas.reorderLinkifiers>) {
  await actions.reorderLinkifiers(services, me(request), request.params.ordered_linkifier_ids);
  return {};
}

/** POST /realm/filters */
export async function addLinkifier(services: Services, request: Request<typeof schemas.addLinkifier>) {
  return { id: await actions.addLinkifier(services, me(request), request.params.pattern, request.params.url_template) };
}

/** PATCH /realm/filters/{filter_id:int} */
export async function updateLinkifier(services: Services, request: Request<typeof schemas.updateLinkifier, { filter_id: number }>) {
  const p = request.params;
  await actions.updateLinkifier(services, me(request), p.filter_id, p.pattern, p.url_template);
  return {};
}

/** DELETE /realm/filters/{filter_id:int} */
export async function removeLinkifier(services: Services, request: Request<typeof schemas.removeLinkifier, { filter_id: number }>) {
  await actions.removeLinkifier(services, me(request), request.params.filter_id);
  return {};
}

/** POST /realm/playgrounds */
export async function addCodePlayground(services: Services, request: Request<typeof schemas.addCodePlayground>) {
  const p = request.params;
  return { id: await actions.addPlayground(services, me(request), p.name, p.pygments_language, p.url_template) };
}

/** DELETE /realm/playgrounds/{playground_id:int} */
export async function removeCodePlayground(services: Services, request: Request<typeof schemas.removeCodePlayground, { playground_id: number }>) {
  await actions.removePlayground(services, me(request), request.params.playground_id);
  return {};
}
