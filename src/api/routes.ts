/** Every area's routes, in one table. */
import type { Services } from '../services.js';
import { authRoutes } from './authentication.js';
import type { ApiRoute } from './route.js';
import { serverSettingsRoutes } from './server-settings.js';
import { userRoutes, type UserReadDeps } from './users.js';

export function allRoutes(services: Services, deps: UserReadDeps): ApiRoute[] {
  return [...authRoutes(services), ...serverSettingsRoutes(services), ...userRoutes(services, deps)];
}
