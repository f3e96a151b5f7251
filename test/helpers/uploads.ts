/** Uploading files and fetching them as a client does: multipart bodies, Basic auth, raw answers. */
import type { Api, ApiResponse } from './client.js';
import { hostFetch } from './host-fetch.js';

/** POST /api/v1/user_uploads (or another upload path below /api/v1) with one file part (or several, or none). */
export async function upload(api: Api, files: { name: string; data: Buffer | string; type?: string }[] | { name: string; data: Buffer | string; type?: string }, path = '/user_uploads'): Promise<ApiResponse> {
  const form = new FormData();
  for (const file of Array.isArray(files) ? files : [files]) {
    form.append('file', new Blob([file.data], file.type === undefined ? {} : { type: file.type }), file.name);
  }
  const headers: Record<string, string> = {};
  if (api.authorization) headers.authorization = api.authorization;
  const response = await hostFetch(`${api.baseUrl}/api/v1${path}`, { method: 'POST', headers, body: form, host: api.host });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // kept as text
  }
  return { status: response.status, headers: response.headers, body };
}

/** An upload that must succeed; its answer. */
export async function uploaded(api: Api, name: string, data: Buffer | string, type?: string): Promise<{ url: string; uri: string; filename: string }> {
  const response = await upload(api, { name, data, type });
  if (response.status !== 200) throw new Error(`upload failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** GET (or HEAD) of a path outside /api/v1, with the client's credentials unless `anonymous`. */
export async function fetchRaw(api: Api, path: string, options: { headers?: Record<string, string>; anonymous?: boolean; method?: string } = {}): Promise<RawResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (api.authorization && !options.anonymous) headers.authorization = api.authorization;
  const response = await hostFetch(`${api.baseUrl}${path}`, { method: options.method ?? 'GET', headers, host: api.host });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}
