/**
 * `fetch` with a Host header of the caller's choosing: Node's fetch replaces the header with the
 * URL's host, so a request to the server's address cannot name an organization's host
 * (`a.localhost:<port>`, which does not resolve) that way. This sends it with node:http and
 * answers with a standard Response, so callers read it as they read fetch's.
 */
import { request } from 'node:http';

/** A request to `url` (the server's address) that says `Host: host`. */
export async function fetchAt(host: string, url: string, init: { method?: string; headers?: Record<string, string>; body?: string | FormData } = {}): Promise<Response> {
  const headers: Record<string, string> = { ...init.headers, host };
  let body: Buffer | undefined;
  if (init.body instanceof FormData) {
    // A Response serializes the form as fetch would (multipart, with its boundary).
    const encoded = new Response(init.body);
    body = Buffer.from(await encoded.arrayBuffer());
    headers['content-type'] = encoded.headers.get('content-type')!;
  } else if (init.body !== undefined) {
    body = Buffer.from(init.body);
  }
  if (body) headers['content-length'] = String(body.length);
  const method = init.method ?? 'GET';
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const answered = new Headers();
        for (const [name, value] of Object.entries(res.headers)) for (const one of [value ?? []].flat()) answered.append(name, one);
        const status = res.statusCode ?? 0;
        const empty = method === 'HEAD' || status === 204 || status === 304;
        resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: answered }));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
