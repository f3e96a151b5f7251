/**
 * The route and request types of this API: a route record names its method, path pattern,
 * view (handler), schema and authentication, and the view's `request.params` is typed from the
 * schema (`FromSchema`, defaults filled in by ajv) plus the path's `{name:kind}` parameters.
 */
import type { ExtendedJSONSchema, FromExtendedSchema } from 'json-schema-to-ts';
import type { UserRecord } from '../domain/users.js';
import type { ApiRequest, BodyLimit, PageAnswer, PageRequest, PageRoute, Route } from '../http/front.js';
import type { HandlerResult } from '../shared/handler-result.js';
import type { HttpMethod } from '../http/router.js';
import type { EndpointSchema } from '../http/validation.js';
import type { Services } from '../services.js';

export type ApiRoute = Route<UserRecord>;
/**
 * The keywords this project adds to JSON Schema (ajv's vocabulary in http/validation.ts). They
 * change how a value is read off the wire, not its type: `x-raw` values are validated as sent,
 * `x-json-or-raw` values (untyped in their schemas) stay `unknown`.
 */
type Keywords = { 'x-raw': boolean; 'x-json-or-raw': boolean; 'x-error': string };
/** A schema module's value (schemas/): an endpoint schema that json-schema-to-ts can read. */
export type Schema = EndpointSchema & ExtendedJSONSchema<Keywords>;
export type Auth = ApiRoute['auth'];

/** The parameters a path pattern adds: `{id:int}` a number; `{email:email}`, `{name}`, `{rest:path}` strings. */
export type PathParams<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? (Name extends `${infer Key}:int` ? { [K in Key]: number } : Name extends `${infer Key}:${string}` ? { [K in Key]: string } : { [K in Name]: string }) & PathParams<Rest>
  : unknown;

/**
 * Validated parameters of schema `S`: values typed other than `string` arrive JSON-decoded
 * (validation.ts), so their type is the schema's; defaults are filled in, hence required.
 */
export type Params<S extends Schema> = FromExtendedSchema<Keywords, S>;

/** The request a view receives: `params` from its schema `S`, plus path parameters `P` (e.g. `{ message_id: number }`). */
export type Request<S extends Schema = Schema, P = unknown> = ApiRequest<UserRecord, Params<S> & P>;

/** A view: reads its typed parameters, calls an action or a query, returns the answer. */
export type View<Q> = (services: Services, request: ApiRequest<UserRecord, Q>) => HandlerResult | Promise<HandlerResult>;

/** One line of the URL table (src/api/routes.ts), its types erased once checked. */
export interface RouteEntry {
  readonly method: HttpMethod;
  /** Path pattern below /api/v1 (see http/router.ts for parameter syntax). */
  readonly path: string;
  readonly view: View<Record<string, unknown>>;
  readonly schema: EndpointSchema;
  readonly auth: Auth;
  readonly options?: RouteOptions;
}

/** What few routes need besides the usual: files in the body, a body limit of their own. */
export interface RouteOptions {
  files?: boolean;
  /** Webhooks: headers and a JSON body reach the view (`request.raw`). */
  raw?: boolean;
  /** Incoming webhook bots may call it with their key (only sending, as Zulip). */
  incomingWebhookBots?: boolean;
  bodyLimit?: (services: Services) => BodyLimit;
}

/**
 * One route. The view must accept what `schema` and `path` give (checked here, at the table's
 * line); afterwards its parameters are only known as validated by that same schema.
 */
export function route<const Path extends string, S extends Schema>(
  method: HttpMethod,
  path: Path,
  view: View<NoInfer<Params<S> & PathParams<Path>>>,
  schema: S,
  auth: Auth,
  options?: RouteOptions,
): RouteEntry {
  // Safe: the front validates `params` with `schema` and adds the path's parameters before calling the view.
  return { method, path, view: view as unknown as View<Record<string, unknown>>, schema, auth, options };
}

/** The table as the HTTP front takes it: each view bound to the services, once, at start. */
export function bindRoutes(table: readonly RouteEntry[], services: Services): ApiRoute[] {
  return table.map(({ method, path, view, schema, auth, options }) => {
    const bodyLimit = options?.bodyLimit;
    return {
      method,
      path,
      schema: schema.$id,
      auth,
      files: options?.files,
      raw: options?.raw,
      incomingWebhookBots: options?.incomingWebhookBots,
      bodyLimit: bodyLimit && (() => bodyLimit(services)),
      handler: (request) => view(services, request),
    };
  });
}

/** A page's view: reads the form, calls an action or a query, returns the HTML. */
export type PageView = (services: Services, request: PageRequest) => PageAnswer | Promise<PageAnswer>;

/** One page of the URL table: outside /api/v1, no credentials, a form in, HTML out. */
export interface PageEntry {
  readonly method: PageRoute['method'];
  /** Path pattern from the root (http/router.ts syntax). */
  readonly path: string;
  readonly view: PageView;
}

export function page(method: PageEntry['method'], path: string, view: PageView): PageEntry {
  return { method, path, view };
}

/** The pages as the HTTP front takes them: each view bound to the services. */
export function bindPageRoutes(table: readonly PageEntry[], services: Services): PageRoute[] {
  return table.map(({ method, path, view }) => ({ method, path, handler: (request) => view(services, request) }));
}

/** The authenticated user of a route declared with `auth: 'user'`. */
export function me(request: ApiRequest<UserRecord, unknown>): UserRecord {
  if (!request.principal) throw new Error(`route ${request.method} ${request.path} used without authentication`);
  return request.principal;
}
