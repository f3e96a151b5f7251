/**
 * A Zulip-compatible push bouncer for tests: a local HTTP server that checks every request
 * against what Zulip's bouncer (zilencer/views.py) accepts — the server's Basic credentials,
 * form or JSON bodies as each endpoint takes them, the fields and their types — records what it
 * got, and answers as the bouncer does. `down` makes it answer 502, as a bouncer behind a proxy.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import sodium from 'libsodium-wrappers';

await sodium.ready;

/** A device's key pair for end-to-end notifications: the app keeps the secret key, gives the server the public one. */
export function pushKeyPair(): { publicKey: string; secretKey: Uint8Array; publicBytes: Uint8Array } {
  const pair = sodium.crypto_box_keypair();
  return { publicKey: Buffer.from(pair.publicKey).toString('base64'), secretKey: pair.privateKey, publicBytes: pair.publicKey };
}

export const SERVER_UUID = '6cde5f7a-1f7e-4978-9716-49f69ebfc9fe';
export const SERVER_KEY = 'server-secret';

export interface BouncerCall {
  endpoint: string;
  method: string;
  /** Form fields, or the JSON body (checked by the bouncer's rules; read freely by tests). */
  body: Record<string, any>;
  /** `push/e2ee/notify`: each push request's data, decrypted with the device's key (as the app does). */
  decrypted?: Record<string, any>[];
}

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStrings = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Zulip's RealmDataForAnalytics (extra fields forbidden). */
const REALM_FIELDS = new Set(['id', 'host', 'url', 'name', 'org_type', 'date_created', 'deactivated', 'is_system_bot_realm', 'authentication_methods', 'uuid', 'uuid_owner_secret']);

function json(text: unknown): unknown {
  try {
    return JSON.parse(String(text));
  } catch {
    return undefined;
  }
}

/** What is wrong with a request, per endpoint; an empty list when Zulip's bouncer would accept it. */
function problems(call: BouncerCall, contentType: string): string[] {
  const wrong: string[] = [];
  const need = (ok: boolean, what: string) => ok || wrong.push(`${call.endpoint}: ${what}`);
  const b = call.body;
  switch (call.endpoint) {
    case 'push/notify': {
      need(contentType.startsWith('application/json'), 'a JSON body');
      const allowed = new Set(['user_id', 'user_uuid', 'realm_uuid', 'gcm_payload', 'apns_payload', 'gcm_options', 'android_devices', 'apple_devices']);
      need(Object.keys(b).every((key) => allowed.has(key)), `only RemoteServerNotificationPayload fields (${Object.keys(b)})`);
      need(Number.isInteger(b.user_id), 'user_id an integer');
      need(typeof b.user_uuid === 'string' && UUID4.test(b.user_uuid), 'user_uuid a UUID');
      need(typeof b.realm_uuid === 'string' && UUID4.test(b.realm_uuid), 'realm_uuid a UUID');
      need(isObject(b.gcm_payload) && isObject(b.apns_payload), 'gcm_payload and apns_payload objects');
      // parse_gcm_options: only `priority`, `normal` or `high`.
      need(isObject(b.gcm_options) && Object.keys(b.gcm_options).every((k) => k === 'priority') && ['normal', 'high'].includes(String(b.gcm_options.priority)), 'gcm_options only a valid priority');
      need(isStrings(b.android_devices) && isStrings(b.apple_devices), 'device lists of strings');
      break;
    }
    case 'push/e2ee/register':
      need(contentType.startsWith('application/x-www-form-urlencoded'), 'a form');
      need(typeof b.realm_uuid === 'string' && UUID4.test(b.realm_uuid), 'realm_uuid a UUID');
      need(/^\d+$/.test(String(b.push_account_id)), 'push_account_id an integer');
      need(typeof b.encrypted_push_registration === 'string' && typeof b.bouncer_public_key === 'string', 'encrypted_push_registration and bouncer_public_key');
      break;
    case 'push/e2ee/notify':
      e2eeNotifyProblems(b, contentType, need);
      break;
    case 'push/test_notification':
      need(contentType.startsWith('application/json'), 'a JSON body');
      need(typeof b.realm_uuid === 'string' && typeof b.user_uuid === 'string' && Number.isInteger(b.user_id), 'realm_uuid, user_uuid, user_id');
      need(typeof b.token === 'string' && [1, 2].includes(b.token_kind as number), 'token and token_kind 1 or 2');
      need(isObject(b.base_payload), 'base_payload an object');
      break;
    case 'push/register':
    case 'push/unregister':
      need(contentType.startsWith('application/x-www-form-urlencoded'), 'a form');
      need(typeof b.token === 'string' && ['1', '2'].includes(String(b.token_kind)), 'token and token_kind');
      need(typeof b.user_uuid === 'string' && typeof b.realm_uuid === 'string', 'user_uuid and realm_uuid');
      break;
    case 'server/analytics': {
      need(contentType.startsWith('application/x-www-form-urlencoded'), 'a form');
      for (const field of ['realm_counts', 'installation_counts', 'realms']) need(Array.isArray(json(b[field])), `${field} a JSON list`);
      const realms = (json(b.realms) as Record<string, unknown>[] | undefined) ?? [];
      for (const realm of realms) {
        need(Object.keys(realm).every((key) => REALM_FIELDS.has(key)), 'no fields beyond RealmDataForAnalytics');
        need(Number.isInteger(realm.id) && typeof realm.host === 'string' && typeof realm.url === 'string', 'id, host, url');
        need(typeof realm.date_created === 'number' && typeof realm.deactivated === 'boolean', 'date_created and deactivated');
        need(typeof realm.uuid === 'string' && UUID4.test(realm.uuid) && typeof realm.uuid_owner_secret === 'string', 'uuid (v4) and uuid_owner_secret');
      }
      break;
    }
    case 'server/analytics/status':
      need(call.method === 'GET', 'GET');
      break;
    case 'server/register':
      need(typeof b.zulip_org_id === 'string' && typeof b.zulip_org_key === 'string' && typeof b.hostname === 'string' && typeof b.contact_email === 'string', 'registration fields');
      break;
    default:
      wrong.push(`unexpected endpoint ${call.endpoint}`);
  }
  return wrong;
}

/** Zulip's SendE2EEPushNotificationPayload: realm_uuid and push_requests, each for FCM or for APNs. */
function e2eeNotifyProblems(b: Record<string, any>, contentType: string, need: (ok: boolean, what: string) => unknown): void {
  need(contentType.startsWith('application/json'), 'a JSON body');
  need(Object.keys(b).every((key) => key === 'realm_uuid' || key === 'push_requests'), 'only realm_uuid and push_requests');
  need(typeof b.realm_uuid === 'string' && UUID4.test(b.realm_uuid), 'realm_uuid a UUID');
  const requests: unknown[] = Array.isArray(b.push_requests) ? b.push_requests : [];
  need(requests.length > 0, 'push_requests a non-empty list');
  for (const request of requests) {
    const r = isObject(request) ? request : {};
    const payload = isObject(r.payload) ? r.payload : {};
    need(Number.isInteger(r.device_id), 'device_id an integer');
    need(Number.isInteger(payload.push_account_id) && typeof payload.encrypted_data === 'string', 'payload with push_account_id and encrypted_data');
    if ('fcm_priority' in r) {
      need(['high', 'normal'].includes(String(r.fcm_priority)) && Object.keys(r).every((k) => ['device_id', 'fcm_priority', 'payload'].includes(k)), 'FCM request fields');
      need(Object.keys(payload).every((k) => k === 'push_account_id' || k === 'encrypted_data'), 'FCM payload fields');
    } else {
      // Zulip's APNsHTTPHeaders (apns_priority: 10, 5 or 1; apns_push_type an aioapns PushType) and APNsPayload.
      const headers = isObject(r.http_headers) ? r.http_headers : {};
      need(Object.keys(r).every((k) => ['device_id', 'http_headers', 'payload'].includes(k)), 'APNs request fields');
      need([10, 5, 1].includes(headers.apns_priority as number) && ['alert', 'background'].includes(headers.apns_push_type as string) && Object.keys(headers).length === 2, 'APNs http_headers apns_priority and apns_push_type');
      need(Object.keys(payload).every((k) => ['push_account_id', 'encrypted_data', 'aps'].includes(k)) && isObject(payload.aps), 'APNs payload fields, with aps');
    }
  }
}

export async function fakeBouncer() {
  const calls: BouncerCall[] = [];
  const violations: string[] = [];
  const tokens = new Set<string>();
  /** End-to-end registrations: the device id it gave, by push account id; and the key pair the app holds for each. */
  const e2eeDevices = new Map<number, number>();
  const e2eeKeys = new Map<number, { secretKey: Uint8Array; publicBytes: Uint8Array }>();
  const waiters: (() => void)[] = [];
  /** `down`: answer every request 502; `refused`: how many requests were answered so. */
  const state = {
    down: false,
    refused: 0,
    holdFrom: Infinity,
    /** E2EE device ids whose token APNs/FCM reported gone (the bouncer's expired_time): answered in delete_device_ids. */
    expired: new Set<number>(),
    /** An error code `push/e2ee/notify` is refused with (MISSING_REMOTE_REALM: 403, others 400), as Zulip's bouncer does. */
    e2eeRefusal: null as string | null,
  };
  /** Answers kept back (`holdFrom`: the push/notify calls past that many wait until `release`). */
  const held: (() => void)[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const answer = (status: number, body: Record<string, unknown>) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const endpoint = (req.url ?? '').replace(/^\/api\/v1\/remotes\//, '');
      if (state.down) {
        state.refused++;
        for (const wake of waiters.splice(0)) wake();
        return answer(502, { result: 'error', msg: 'Bad gateway' });
      }
      const contentType = String(req.headers['content-type'] ?? '');
      const body = contentType.startsWith('application/json') ? (json(raw) as Record<string, unknown>) ?? {} : Object.fromEntries(new URLSearchParams(raw));
      const call = { endpoint, method: req.method ?? '', body };
      if (req.headers.authorization !== `Basic ${Buffer.from(`${SERVER_UUID}:${SERVER_KEY}`).toString('base64')}`) violations.push(`${endpoint}: server credentials`);
      violations.push(...problems(call, contentType));
      if (endpoint === 'push/e2ee/notify') (call as BouncerCall).decrypted = decryptAll(body, violations);
      calls.push(call);
      for (const wake of waiters.splice(0)) wake();
      const ok = (extra: Record<string, unknown> = {}) => {
        const send = () => answer(200, { result: 'success', msg: '', ...extra });
        if (endpoint === 'push/notify' && calls.filter((c) => c.endpoint === endpoint).length > state.holdFrom) held.push(send);
        else send();
      };
      switch (endpoint) {
        case 'push/register':
          tokens.add(`${body.token_kind}:${body.token}`);
          return ok();
        case 'push/unregister':
          return tokens.delete(`${body.token_kind}:${body.token}`) ? ok() : answer(400, { result: 'error', msg: 'Token does not exist', code: 'BAD_REQUEST' });
        case 'push/notify': {
          const android = (body.android_devices as string[]).filter((t) => tokens.has(`2:${t}`));
          const apple = (body.apple_devices as string[]).filter((t) => tokens.has(`1:${t}`));
          const deleted = { android_devices: (body.android_devices as string[]).filter((t) => !android.includes(t)), apple_devices: (body.apple_devices as string[]).filter((t) => !apple.includes(t)) };
          return ok({ total_android_devices: android.length, total_apple_devices: apple.length, deleted_devices: deleted, realm: { can_push: true, expected_end_timestamp: null } });
        }
        case 'push/e2ee/register': {
          const account = Number(body.push_account_id);
          if (!e2eeDevices.has(account)) e2eeDevices.set(account, 1000 + e2eeDevices.size);
          return ok({ device_id: e2eeDevices.get(account) });
        }
        case 'push/e2ee/notify': {
          if (state.e2eeRefusal !== null) {
            const missing = state.e2eeRefusal === 'MISSING_REMOTE_REALM';
            return answer(missing ? 403 : 400, { result: 'error', code: state.e2eeRefusal, msg: missing ? 'Organization not registered' : 'Your plan doesn\'t allow sending push notifications.' });
          }
          const requests = (body.push_requests as { device_id: number; fcm_priority?: string }[]) ?? [];
          const known = new Set([...e2eeDevices.values()].filter((id) => !state.expired.has(id)));
          const sent = requests.filter((r) => known.has(r.device_id));
          return ok({
            android_successfully_sent_count: sent.filter((r) => 'fcm_priority' in r).length,
            apple_successfully_sent_count: sent.filter((r) => !('fcm_priority' in r)).length,
            delete_device_ids: requests.filter((r) => !known.has(r.device_id)).map((r) => r.device_id),
            realm_push_status: { can_push: true, expected_end_timestamp: null },
          });
        }
        case 'push/test_notification':
          return tokens.has(`${body.token_kind}:${body.token}`) ? ok() : answer(400, { result: 'error', msg: 'Device not recognized by the push bouncer', code: 'INVALID_REMOTE_PUSH_DEVICE_TOKEN' });
        case 'server/analytics/status':
          return ok({ last_realm_count_id: 0, last_installation_count_id: 0, last_realmauditlog_id: 0 });
        case 'server/analytics': {
          const realms = (json(body.realms) as { uuid: string }[] | undefined) ?? [];
          return ok({ realms: Object.fromEntries(realms.map((realm) => [realm.uuid, { can_push: true, expected_end_timestamp: null }])) });
        }
        default:
          return ok();
      }
    });
  });
  /** Opens each request's sealed data with the key of its push account, as the device would. */
  function decryptAll(body: Record<string, any>, wrong: string[]): Record<string, any>[] {
    const opened: Record<string, any>[] = [];
    for (const request of Array.isArray(body.push_requests) ? body.push_requests : []) {
      const account = request?.payload?.push_account_id as number;
      if (e2eeDevices.get(account) !== request?.device_id) wrong.push(`push/e2ee/notify: device ${request?.device_id} is not push account ${account}'s`);
      const keys = e2eeKeys.get(account);
      if (!keys) continue;
      try {
        const plain = sodium.crypto_box_seal_open(Buffer.from(String(request.payload.encrypted_data), 'base64'), keys.publicBytes, keys.secretKey);
        opened.push(JSON.parse(Buffer.from(plain).toString('utf8')) as Record<string, any>);
      } catch {
        wrong.push(`push/e2ee/notify: the data for push account ${account} does not decrypt with its key`);
      }
    }
    return opened;
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    calls,
    violations,
    state,
    /** The key pairs of the apps' push accounts (a test gives the public key to the server, the secret one here). */
    e2eeKeys,
    /** The device id the bouncer gave each push account. */
    e2eeDevices,
    env: { PARLEY_PUSH_BOUNCER_URL: url, PARLEY_PUSH_BOUNCER_SERVER_UUID: SERVER_UUID, PARLEY_PUSH_BOUNCER_SERVER_KEY: SERVER_KEY },
    /** Resolves once an answer is being held back. */
    async holding(ms = 60_000): Promise<void> {
      const until = Date.now() + ms;
      while (held.length === 0) {
        if (Date.now() > until) throw new Error('no answer is held back');
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    /** Stops holding answers back and sends those held. */
    release() {
      state.holdFrom = Infinity;
      for (const send of held.splice(0)) send();
    },
    /** The calls to one endpoint so far. */
    to: (endpoint: string) => calls.filter((call) => call.endpoint === endpoint),
    /** Resolves once `count` calls to `endpoint` (matching `which`) have arrived; woken by each call. */
    async waitFor(endpoint: string, count: number, which: (call: BouncerCall) => boolean = () => true, ms = 60_000): Promise<BouncerCall[]> {
      const until = Date.now() + ms;
      const matching = () => calls.filter((call) => call.endpoint === endpoint && which(call));
      while (matching().length < count) {
        if (Date.now() > until) throw new Error(`only ${matching().length} of ${count} calls to ${endpoint} arrived (of ${JSON.stringify(calls.map((c) => [c.endpoint, c.body.gcm_payload?.zulip_message_id, c.body.gcm_payload?.event]))})`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return matching();
    },
    /** Resolves once `count` requests were refused while down. */
    async refusals(count: number, ms = 60_000): Promise<void> {
      const until = Date.now() + ms;
      while (state.refused < count) {
        if (Date.now() > until) throw new Error(`only ${state.refused} of ${count} requests were refused`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeBouncer = Awaited<ReturnType<typeof fakeBouncer>>;
