/**
 * A 413 for a large body reaches a client that is still sending it: an upload far over the
 * limit, chunked (no declared length) or declared, is answered 413 every time, never a reset.
 */
import { request as httpRequest } from 'node:http';
import { test } from 'tap';
import { startTestServer } from '../helpers/server.js';

/** Sends `total` bytes as a client that writes its whole body and reads the answer; its status or the error code. */
function send(port: number, path: string, total: number, headers: Record<string, string | number>): Promise<number | string> {
  return new Promise((resolve) => {
    const req = httpRequest({ port, host: '127.0.0.1', path, method: 'POST', agent: false, headers });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    const piece = Buffer.alloc(256 * 1024, 'a');
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        const part = piece.subarray(0, Math.min(piece.length, total - sent));
        sent += part.length;
        if (!req.write(part)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

test('a 100 MB body over the limit gets its answer, chunked or declared, every time', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.destroy());
  const user = server.services.org.users.byEmail('iago@example.com')!;
  const auth = 'Basic ' + Buffer.from(`iago@example.com:${user.apiKey}`).toString('base64');
  const size = 100 * 1024 * 1024;
  const attempts = Number(process.env.PARLEY_LARGE_BODY_ATTEMPTS ?? 4);
  const targets: { path: string; headers: Record<string, string>; status: number }[] = [
    // An upload over the organization's limit: Zulip's refusal (400), as for a declared length.
    { path: '/api/v1/user_uploads', headers: { authorization: auth, 'content-type': 'multipart/form-data; boundary=x' }, status: 400 },
    // Any other route over the server's body limit: 413.
    { path: '/api/v1/fetch_api_key', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 413 },
  ];
  for (const target of targets) {
    const outcomes: Record<string, number> = {};
    for (let i = 0; i < attempts; i++) {
      const chunked = i % 2 === 0;
      const status = await send(server.port, target.path, size, chunked ? { ...target.headers, 'transfer-encoding': 'chunked' } : { ...target.headers, 'content-length': size });
      const key = `${chunked ? 'chunked' : 'declared'} ${status}`;
      outcomes[key] = (outcomes[key] ?? 0) + 1;
    }
    t.same(outcomes, { [`chunked ${target.status}`]: Math.ceil(attempts / 2), [`declared ${target.status}`]: Math.floor(attempts / 2) }, `${target.path}: every attempt answered ${target.status}, none reset`);
  }
  const after = await fetch(`${server.url}/api/v1/server_settings`);
  t.equal(after.status, 200, 'and the server goes on serving');
});
