/** The pages served outside /api/v1 (`PAGE_ROUTES` in the URL table), as the HTTP front takes them: each view bound to the services. */
import type { PageRoute } from '../http/front.js';
import type { Services } from '../services.js';
import { bindPageRoutes } from './route.js';
import { PAGE_ROUTES } from './routes.js';

export function bindPages(services: Services): PageRoute[] {
  return bindPageRoutes(PAGE_ROUTES, services);
}
