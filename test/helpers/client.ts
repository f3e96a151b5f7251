/** A small HTTP client for black-box tests: form-encoded parameters, Basic auth, JSON answers. */
import { hostFetch } from './host-fetch.js';

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
}

export type Params = Record<string, unknown>;

/** Form-encodes parameters the way Zulip clients do: strings as they are, everything else as JSON. */
export function encodeParams(params: Params): string {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return form.toString();
}

export class Api {
  constructor(
    readonly baseUrl: string,
    readonly email?: string,
    readonly apiKey?: string,
    /** The Host header to send (an organization's host while connecting to the server's address); the URL's by default. */
    readonly host?: string,
  ) {}

  as(email: string, apiKey: string): Api {
    return new Api(this.baseUrl, email, apiKey, this.host);
  }

  get authorization(): string | undefined {
    if (this.email === undefined) return undefined;
    return 'Basic ' + Buffer.from(`${this.email}:${this.apiKey}`).toString('base64');
  }

  async request(method: string, path: string, params: Params = {}, headers: Record<string, string> = {}): Promise<ApiResponse> {
    const encoded = encodeParams(params);
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const url = `${this.baseUrl}/api/v1${path}${!hasBody && encoded ? `?${encoded}` : ''}`;
    const allHeaders: Record<string, string> = { ...headers };
    if (this.authorization) allHeaders.authorization = this.authorization;
    if (hasBody && encoded) allHeaders['content-type'] = 'application/x-www-form-urlencoded';
    const response = await hostFetch(url, { method, headers: allHeaders, body: hasBody && encoded ? encoded : undefined, host: this.host });
    const text = await response.text();
    let body: any = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text for the assertion to show
    }
    return { status: response.status, headers: response.headers, body };
  }

  get(path: string, params?: Params) {
    return this.request('GET', path, params);
  }
  post(path: string, params?: Params) {
    return this.request('POST', path, params);
  }
  patch(path: string, params?: Params) {
    return this.request('PATCH', path, params);
  }
  delete(path: string, params?: Params) {
    return this.request('DELETE', path, params);
  }
}

/** Logs in with a password and returns a client for that user. */
export async function login(baseUrl: string, email: string, password = 'parley-demo'): Promise<Api> {
  const response = await new Api(baseUrl).post('/fetch_api_key', { username: email, password });
  if (response.status !== 200) throw new Error(`login ${email} failed: ${JSON.stringify(response.body)}`);
  return new Api(baseUrl, response.body.email, response.body.api_key);
}
