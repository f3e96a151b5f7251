/**
 * The one place that answers a method a path does not serve: 405 with `Allow` and Zulip's body
 * (json_method_not_allowed: no `code`, the methods listed), and OPTIONS, 204 with `Allow`.
 */
import type { Exchange, Exchanges } from './exchange.js';
import type { HttpMethod } from './router.js';

/** The methods a path answers, sorted; as Zulip, a path served by GET is also served for HEAD, and says so. */
export function allowedMethods(served: Iterable<HttpMethod>): string[] {
  const allowed: string[] = [...served].sort();
  if (allowed.includes('GET')) allowed.push('HEAD');
  return allowed;
}

/** 405 Method Not Allowed for a path that answers `allowed`. */
export function answerMethodNotAllowed(exchanges: Exchanges, ex: Exchange, allowed: readonly string[]): void {
  const body = JSON.stringify({ result: 'error', msg: 'Method Not Allowed', allowed_methods: allowed });
  exchanges.answerAfterBody(ex, 405, body, { Allow: allowed.join(', ') });
}

/** OPTIONS, and methods the path does not serve: both list the methods it does. */
export function answerNotServed(exchanges: Exchanges, ex: Exchange, method: string, allowed: readonly string[]): void {
  if (method === 'OPTIONS') {
    exchanges.answerAfterBody(ex, 204, '', { Allow: [...allowed].sort().join(', ') });
    return;
  }
  answerMethodNotAllowed(exchanges, ex, allowed);
}
