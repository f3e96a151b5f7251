/**
 * The client of a Zulip-compatible push notification bouncer (Zulip's send_to_push_bouncer):
 * form-encoded POSTs below `/api/v1/remotes/`, authenticated with this server's registration
 * at the bouncer (`PARLEY_PUSH_BOUNCER_SERVER_UUID` / `_KEY`).
 */
import { createHash } from 'node:crypto';
import type { Services } from '../services.js';

export interface BouncerResponse {
  status: number;
  body: { result?: string; msg?: string; code?: string; [field: string]: unknown };
}

/** A stable UUID-shaped id, different for each name and each of this server's bouncer registrations. */
function derivedUuid(services: Services, name: string): string {
  const hex = createHash('sha256').update(`${services.config.pushBouncerServerUuid}:${name}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The organization's UUID as the bouncer knows it (Parley keeps none: derived from the organization id). */
export const realmUuid = (services: Services) => derivedUuid(services, `realm:${services.org.id}`);
/** A user's UUID as the bouncer knows it (derived likewise from the user id). */
export const userUuid = (services: Services, userId: number) => derivedUuid(services, `user:${services.org.id}:${userId}`);

/** POSTs to the bouncer; throws if it cannot be reached (network error, timeout). */
export function postToBouncer(services: Services, url: string, endpoint: string, params: Record<string, string>): Promise<BouncerResponse> {
  return requestBouncer(services, url, endpoint, 'POST', { type: 'application/x-www-form-urlencoded', body: new URLSearchParams(params).toString() });
}

/** POSTs a JSON body, as Zulip's send_json_to_push_bouncer does for `push/notify` and `push/test_notification`. */
export function postJsonToBouncer(services: Services, url: string, endpoint: string, body: Record<string, unknown>): Promise<BouncerResponse> {
  return requestBouncer(services, url, endpoint, 'POST', { type: 'application/json', body: JSON.stringify(body) });
}

/** GETs from the bouncer (`server/analytics/status`). */
export function getFromBouncer(services: Services, url: string, endpoint: string): Promise<BouncerResponse> {
  return requestBouncer(services, url, endpoint, 'GET');
}

async function requestBouncer(services: Services, url: string, endpoint: string, method: string, content?: { type: string; body: string }): Promise<BouncerResponse> {
  const { pushBouncerServerUuid, pushBouncerServerKey } = services.config;
  const headers: Record<string, string> = {
    authorization: `Basic ${Buffer.from(`${pushBouncerServerUuid}:${pushBouncerServerKey}`).toString('base64')}`,
    'user-agent': 'ZulipServer/11.0 (Parley)',
  };
  if (content) headers['content-type'] = content.type;
  const response = await fetch(`${url}/api/v1/remotes/${endpoint}`, { method, headers, body: content?.body, signal: AbortSignal.timeout(15_000) });
  const body = (await response.json().catch(() => ({}))) as BouncerResponse['body'];
  return { status: response.status, body: body && typeof body === 'object' ? body : {} };
}

/**
 * What to do after a bouncer answer (Zulip's send_to_push_bouncer): done; retry later (down,
 * unreachable or a server error, which its operators fix); or give up (a refusal of the request).
 */
export function bouncerOutcome(response: BouncerResponse | Error): 'done' | 'retry' | 'refused' {
  if (response instanceof Error) return 'retry';
  if (response.status >= 500 || response.status === 429) return 'retry';
  if (response.status >= 400 || response.status !== 200) return 'refused';
  return 'done';
}

/** A bouncer's `can_push` record of the organization (its `realm_push_status`, or an entry of `realms`); undefined when it sent none. */
export function bouncerPushStatus(value: unknown): { canPush: boolean; expectedEndTimestamp: number | null } | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { can_push: canPush, expected_end_timestamp: end } = value as { can_push?: unknown; expected_end_timestamp?: unknown };
  return { canPush: canPush === true, expectedEndTimestamp: typeof end === 'number' ? end : null };
}
