/**
 * `fetch` with a Host header of the test's choosing: Node's fetch (undici) sets Host from the URL
 * and drops one given, so a request for `a.localhost` sent to the server's address goes through
 * node:http instead. The answer is a standard Response, as fetch's.
 */
import { request } from 'node:http';

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

export async function hostFetch(url: string, init: RequestInit & { host?: string } = {}): Promise<Response> {
  const { host, ...rest } = init;
  if (!host) return fetch(url, rest);
  // A Request serializes any body (a form, multipart data) and names its content type.
  const prepared = new Request(url, rest);
  const body = rest.body === undefined || rest.body === null ? undefined : Buffer.from(await prepared.arrayBuffer());
  const headers: Record<string, string> = {};
  prepared.headers.forEach((value, name) => (headers[name] = value));
  headers.host = host;
  if (body) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: prepared.method, headers, signal: rest.signal ?? undefined }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) answerHeaders.append(name, one);
        }
        const status = res.statusCode ?? 0;
        resolve(new Response(NULL_BODY_STATUSES.has(status) ? null : Buffer.concat(chunks), { status, headers: answerHeaders }));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
