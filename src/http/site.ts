/**
 * What the front serves for one organization: its routes (bound to its services), pages,
 * authenticator and health check, compiled into routers once, when the organization loads.
 * The front finds the site of each request by its Host header (FrontOptions.site).
 */
import type { Route } from './contract.js';
import type { PageRoute } from './pages.js';
import { Router, type HttpMethod } from './router.js';
import type { ParamValidator } from './validation.js';

/** A route as served: its pattern as the router holds it, the schema's name and the authentication. */
export interface ServedRoute {
  method: HttpMethod;
  path: string;
  schema: string;
  auth: Route<unknown>['auth'];
  /** A root route: `path` is from the server's root, not below /api/v1 (uploaded files). */
  root: boolean;
}

/** What a site answers on `GET /health`. */
export interface HealthAnswer {
  status: number;
  body: Record<string, unknown>;
}

export interface SiteOptions<P> {
  routes: Route<P>[];
  /** Routes outside /api/v1, their paths from the root (`/user_uploads/...`): served alike, listed by `served()` with `root`. */
  rootRoutes?: Route<P>[];
  /** Pages outside /api/v1; their errors are answered as HTML. */
  pages?: PageRoute[];
  /** Resolves Basic credentials to a principal or throws the ApiError to answer. */
  authenticate: (authorization: string, route: { incomingWebhookBots: boolean }) => P;
  /** Answers `GET /health` (outside /api/v1, no credentials) while the server accepts requests. */
  health?: () => HealthAnswer;
  /** Put before each principal's rate-limit key: user ids are per organization, the limiter is the server's. */
  rateKeyPrefix?: string;
}

export interface Compiled<P> {
  route: Route<P>;
  validator: ParamValidator;
}

export class Site<P> {
  readonly router = new Router<Compiled<P>>();
  readonly rootRouter = new Router<Compiled<P>>();
  readonly pages = new Router<PageRoute>();

  constructor(readonly options: SiteOptions<P>, validators: ReadonlyMap<string, ParamValidator>) {
    const add = (router: Router<Compiled<P>>, routes: readonly Route<P>[]) => {
      for (const route of routes) {
        const validator = validators.get(route.schema);
        if (!validator) throw new Error(`route ${route.method} ${route.path}: no schema '${route.schema}'`);
        router.add(route.method, route.path, { route, validator });
      }
    };
    add(this.router, options.routes);
    add(this.rootRouter, options.rootRoutes ?? []);
    for (const page of options.pages ?? []) this.pages.add(page.method, page.path, page);
  }

  /** Every route this site serves, as its routers hold them. */
  served(): ServedRoute[] {
    const list = (router: Router<Compiled<P>>, root: boolean) =>
      [...router.routes()].map(({ method, pattern, route: { route } }) => ({ method, path: pattern, schema: route.schema, auth: route.auth, root }));
    return [...list(this.router, false), ...list(this.rootRouter, true)];
  }
}
