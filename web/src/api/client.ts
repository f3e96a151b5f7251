/**
 * The one way the client talks to the server: /api/v1 with HTTP Basic (email:api_key) in the
 * Authorization header, form-encoded parameters (JSON-encoded where Zulip wants JSON), Zulip's
 * error envelope turned into ApiFailure. No credential ever goes into a URL.
 */

export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface Credentials {
  email: string;
  apiKey: string;
  userId?: number;
}

export type Params = Record<string, string | number | boolean | readonly unknown[] | object | undefined>;

function encode(params: Params): URLSearchParams {
  const out = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    out.set(name, typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value));
  }
  return out;
}

export class Api {
  constructor(private readonly credentials: Credentials | undefined) {}

  authHeaders(): Record<string, string> {
    if (!this.credentials) return {};
    const token = btoa(unescape(encodeURIComponent(`${this.credentials.email}:${this.credentials.apiKey}`)));
    return { Authorization: `Basic ${token}` };
  }

  async request<T = Record<string, unknown>>(method: string, path: string, params: Params = {}, signal?: AbortSignal): Promise<T> {
    const query = encode(params);
    const inQuery = method === 'GET' || method === 'DELETE';
    const url = `/api/v1${path}${inQuery && [...query].length ? `?${query}` : ''}`;
    const init: RequestInit = { method, headers: this.authHeaders(), signal, credentials: 'omit', cache: 'no-store' };
    if (!inQuery) init.body = query;
    return this.answer<T>(await fetch(url, init));
  }

  /** A multipart upload (POST /user_uploads, or another path that takes one file: the avatar). */
  async upload(file: File, path = '/user_uploads', signal?: AbortSignal): Promise<{ url: string; filename?: string }> {
    const form = new FormData();
    form.append('file', file, file.name);
    const answer = await fetch(`/api/v1${path}`, { method: 'POST', headers: this.authHeaders(), body: form, signal, credentials: 'omit' });
    return this.answer(answer);
  }

  private async answer<T>(response: Response): Promise<T> {
    let body: Record<string, unknown> = {};
    try {
      body = (await response.json()) as Record<string, unknown>;
    } catch {
      // not JSON: a proxy's page or a dropped connection; reported by status below
    }
    if (!response.ok || body.result === 'error') {
      throw new ApiFailure(String(body.msg ?? response.statusText ?? 'Request failed'), response.status, body.code as string | undefined, body);
    }
    return body as T;
  }

  get<T = Record<string, unknown>>(path: string, params?: Params, signal?: AbortSignal) {
    return this.request<T>('GET', path, params, signal);
  }
  post<T = Record<string, unknown>>(path: string, params?: Params) {
    return this.request<T>('POST', path, params);
  }
  patch<T = Record<string, unknown>>(path: string, params?: Params) {
    return this.request<T>('PATCH', path, params);
  }
  del<T = Record<string, unknown>>(path: string, params?: Params) {
    return this.request<T>('DELETE', path, params);
  }
}

const STORAGE_KEY = 'parley.session';

/** Signed-in credentials survive reloads in localStorage (the page's CSP allows no foreign script to read them). */
export function loadSession(): Credentials | undefined {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    const parsed = raw ? (JSON.parse(raw) as Credentials) : undefined;
    return parsed?.email && parsed.apiKey ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function saveSession(credentials: Credentials | undefined): void {
  if (credentials) localStorage.setItem(STORAGE_KEY, JSON.stringify(credentials));
  else localStorage.removeItem(STORAGE_KEY);
}

export async function signIn(username: string, password: string): Promise<Credentials> {
  const answer = await new Api(undefined).post<{ api_key: string; email: string; user_id: number }>('/fetch_api_key', { username, password });
  return { email: answer.email, apiKey: answer.api_key, userId: answer.user_id };
}
