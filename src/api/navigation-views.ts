/** `/navigation_views`: the caller's left-sidebar views. */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import * as actions from '../actions/navigation-views.js';
import { navigationViewsOf } from '../queries/navigation-views.js';

/** GET /navigation_views */
export function getNavigationViews(services: Services, request: Request<typeof schemas.getNavigationViews>) {
  return { navigation_views: navigationViewsOf(services, me(request).id) };
}

/** POST /navigation_views */
export async function addNavigationView(services: Services, request: Request<typeof schemas.addNavigationView>) {
  const p = request.params;
  await actions.addNavigationView(services, me(request), p.fragment, p.is_pinned, p.name);
  return {};
}

/** PATCH /navigation_views/{fragment:path} */
export async function updateNavigationView(services: Services, request: Request<typeof schemas.updateNavigationView, { fragment: string }>) {
  const p = request.params;
  await actions.updateNavigationView(services, me(request), p.fragment, { isPinned: p.is_pinned, name: p.name });
  return {};
}

/** DELETE /navigation_views/{fragment:path} */
export async function removeNavigationView(services: Services, request: Request<typeof schemas.removeNavigationView, { fragment: string }>) {
  await actions.removeNavigationView(services, me(request), request.params.fragment);
  return {};
}
