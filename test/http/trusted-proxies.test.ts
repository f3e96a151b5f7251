/**
 * Behind a reverse proxy every peer is the proxy: PARLEY_TRUSTED_PROXIES names the proxies whose
 * X-Forwarded-For tells the client's address, so that the per-address limits (logins, the join
 * page, every request without credentials) count each client, not the proxy. From any other
 * peer the header is ignored: a client cannot pick its own address.
 */
import { test } from 'tap';
import { startTestServer } from '../helpers/server.js';

const CLIENT = '203.0.113.7';
const OTHER = '198.51.100.9';
const PER_ADDRESS = 100; // the per-address limit in a minute (see server.ts)

async function status(url: string, forwardedFor: string, init: RequestInit = {}): Promise<number> {
  const response = await fetch(url, { ...init, headers: { 'X-Forwarded-For': forwardedFor } });
  await response.arrayBuffer();
  return response.status;
}

/** Uses up CLIENT's allowance with requests that need no credentials. */
async function exhaust(url: string, forwardedFor: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < PER_ADDRESS + 1; i++) statuses.push(await status(`${url}/api/v1/server_settings`, forwardedFor));
  return statuses;
}

const login = (password: string): RequestInit => ({ method: 'POST', body: new URLSearchParams({ username: 'iago@example.com', password }) });

test('from a trusted proxy, X-Forwarded-For names the client: each client has its own limits', async (t) => {
  const server = await startTestServer({ PARLEY_RATE_LIMIT: '1', PARLEY_TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1' });
  t.teardown(() => server.destroy());
  const statuses = await exhaust(server.url, CLIENT);
  t.same(statuses.slice(0, PER_ADDRESS), Array(PER_ADDRESS).fill(200), `${PER_ADDRESS} requests allowed`);
  t.equal(statuses[PER_ADDRESS], 429, 'then the client is limited');

  t.equal(await status(`${server.url}/api/v1/fetch_api_key`, CLIENT, login('parley-demo')), 429, 'its logins too');
  t.equal(await status(`${server.url}/join/abcdefghijklmnopqrstuvwx/`, CLIENT), 429, 'and the join page');
  t.equal(await status(`${server.url}/api/v1/fetch_api_key`, `${CLIENT}, 10.1.2.3`, login('parley-demo')), 429, 'also through a second trusted proxy');
  t.equal(await status(`${server.url}/api/v1/fetch_api_key`, `${OTHER}, ${CLIENT}`, login('parley-demo')), 429, 'an address the client wrote itself is not believed');

  t.equal(await status(`${server.url}/api/v1/server_settings`, OTHER), 200, 'another client is not limited');
  t.equal(await status(`${server.url}/api/v1/fetch_api_key`, OTHER, login('parley-demo')), 200, 'and logs in');
  t.equal(await status(`${server.url}/join/abcdefghijklmnopqrstuvwx/`, OTHER), 404, 'and opens the join page (an unknown link)');
});

test('from a peer that is not a trusted proxy, X-Forwarded-For is ignored', async (t) => {
  const envs: Record<string, string>[] = [{}, { PARLEY_TRUSTED_PROXIES: '192.0.2.1' }];
  for (const env of envs) {
    const server = await startTestServer({ PARLEY_RATE_LIMIT: '1', ...env });
    const statuses = await exhaust(server.url, CLIENT);
    t.equal(statuses[PER_ADDRESS], 429, `limited (${JSON.stringify(env)})`);
    t.equal(await status(`${server.url}/api/v1/server_settings`, OTHER), 429, 'a different X-Forwarded-For does not escape the limit');
    t.equal(await status(`${server.url}/api/v1/fetch_api_key`, OTHER, login('parley-demo')), 429, 'nor for logins');
    await server.destroy();
  }
});
