/**
 * The front's contract with the views: a route (method, path pattern, schema, authentication,
 * handler) and the request a handler is given. Served by http/front.ts, compiled per site by
 * http/site.ts.
 */
import type { BodyLimit } from './body-reader.js';
import type { UploadedFile } from './params.js';
import type { HttpMethod } from './router.js';
import type { Deferred, HandlerResult } from '../shared/handler-result.js';

export interface ApiRequest<P, Params = Record<string, unknown>> {
  readonly method: HttpMethod;
  readonly path: string;
  /** Validated parameters, path parameters included. */
  readonly params: Params;
  /** The authenticated user or bot; always set on routes with `auth: 'user'`. */
  readonly principal: P | undefined;
  readonly userAgent: string;
  /** The client's name (Zulip's `client`): the `client` parameter, else the User-Agent's product name. */
  readonly client: string;
  /** Files sent as multipart parts with a file name (routes with `files: true`; empty otherwise). */
  readonly files: readonly UploadedFile[];
  /** The request's `Range` header ('' when none). */
  readonly range: string;
  /** Routes with `raw: true` (webhooks): the headers, and a JSON body as sent (it is not parsed into parameters). */
  readonly raw?: RawRequest;
  /** Binds a response that the handler will finish later (long-polls). */
  defer(): Deferred;
}

export interface Route<P> {
  method: HttpMethod;
  /** Path pattern below /api/v1 (see router.ts for parameter syntax). */
  path: string;
  /** The `$id` of the endpoint's schema (schemas/). */
  schema: string;
  /** `user`: credentials required; `none`: no credentials; `optional`: either (public access). */
  auth: 'user' | 'none' | 'optional';
  /** Multipart parts with a file name arrive in `files`, not as parameters. */
  files?: boolean;
  /** Replaces the server's body limit for this route (read per request: it may follow a setting). */
  bodyLimit?: () => BodyLimit;
  /** Webhooks: the view gets the headers and a JSON body as sent (`ApiRequest.raw`). */
  raw?: boolean;
  /** Incoming webhook bots may use this route with their key (Zulip's `allow_incoming_webhooks`: sending). */
  incomingWebhookBots?: boolean;
  handler: (request: ApiRequest<P>) => HandlerResult | Promise<HandlerResult>;
}

/** What a webhook view reads beyond parameters: third parties put events in headers and JSON in bodies. */
export interface RawRequest {
  /** Header names in lower case. */
  headers: Readonly<Record<string, string>>;
  /** The body when it was `application/json` (else ''): parsed by the view, which knows its shape. */
  json: string;
}
