/**
 * The deployment examples of docs/deploy.md, run: the nginx site (deploy/nginx-parley.conf)
 * with Debian's nginx in front of a real server, over TLS — it answers what uWebSockets.js alone
 * drops (HTTP/1.0, unknown methods, long heads in pieces), redirects plain HTTP, and passes
 * long-polls and uploads — and the systemd unit (deploy/parley.service) through systemd-analyze.
 * Each part is skipped, saying why, where its program is not installed (`.ci/run` installs nginx).
 */
import { test } from 'tap';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { connect as tcpConnect } from 'node:net';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { REPO_ROOT } from '../helpers/events.js';
import { freePort, startTestServer, tempDataDir } from '../helpers/server.js';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));
const SITE = readFileSync(join(REPO_ROOT, 'deploy/nginx-parley.conf'), 'utf8');
const UNIT = readFileSync(join(REPO_ROOT, 'deploy/parley.service'), 'utf8');
const GUIDE = readFileSync(join(REPO_ROOT, 'docs/deploy.md'), 'utf8');

test('the guide shows the example files as they are', async (t) => {
  t.ok(GUIDE.includes(SITE.trim()), 'docs/deploy.md holds deploy/nginx-parley.conf');
  t.ok(GUIDE.includes(UNIT.trim()), 'docs/deploy.md holds deploy/parley.service');
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  t.match(readme, '(docs/deploy.md)', 'the README links the guide');
});

test('the systemd unit passes systemd-analyze verify', { skip: spawnSync('systemd-analyze', ['--version']).status === 0 ? false : 'systemd-analyze is not installed' }, async (t) => {
  const dir = tempDataDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'parley.service'), UNIT);
  const verified = spawnSync('systemd-analyze', ['verify', join(dir, 'parley.service')], { encoding: 'utf8' });
  t.equal(verified.status, 0, verified.stderr);
  t.equal(verified.stderr.trim(), '', 'no warnings');
  t.match(UNIT, /^ExecStart=\/usr\/bin\/node --enable-source-maps dist\/src\/main\.js$/m, 'the server itself, not npm, gets the signals');
  t.match(UNIT, /^RestartPreventExitStatus=2$/m, 'a configuration error (exit 2) is not restarted in a loop');
});

/** One request over TLS, written as raw bytes (in pieces if given several), the answer read whole. */
function rawTls(port: number, pieces: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ port, host: '127.0.0.1', servername: 'chat.example.com', rejectUnauthorized: false }, async () => {
      for (const piece of pieces) {
        socket.write(piece);
        await new Promise((wait) => setTimeout(wait, 30));
      }
    });
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(20_000, () => socket.destroy(new Error(`no answer: ${answer.slice(0, 200)}`)));
  });
}

/** The same raw request straight to uWebSockets.js: resolves with what came back ('' when it closed without answering). */
function rawPlain(port: number, pieces: string[]): Promise<string> {
  return new Promise((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1', async () => {
      for (const piece of pieces) {
        socket.write(piece);
        await new Promise((wait) => setTimeout(wait, 30));
      }
    });
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', () => undefined);
    socket.setTimeout(5_000, () => socket.destroy());
  });
}

function httpsJson(port: number, path: string, options: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: { Host: 'chat.example.com', ...options.headers }, servername: 'chat.example.com', rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // kept as text
        }
        resolve({ status: res.statusCode!, body });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

test('the nginx site in front of Parley', { skip: NGINX ? false : 'nginx is not installed (apt-get install -y nginx)' }, async (t) => {
  const dir = tempDataDir();
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const server = await startTestServer({
    PARLEY_EXTERNAL_URL: 'https://chat.example.com',
    PARLEY_TRUSTED_PROXIES: '127.0.0.1',
    PARLEY_HEARTBEAT_SECONDS: '1',
  });
  let nginx: ReturnType<typeof spawn> | undefined;
  t.teardown(async () => {
    nginx?.kill('SIGTERM');
    if (nginx && nginx.exitCode === null) await new Promise((resolve) => nginx!.once('exit', resolve));
    await server.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=chat.example.com',
    '-keyout', join(dir, 'privkey.pem'), '-out', join(dir, 'fullchain.pem')], { stdio: 'ignore' });
  // The example as written; only what a test machine must differ in: ports, certificate, upstream.
  const site = SITE
    .replace('server 127.0.0.1:9991;', `server 127.0.0.1:${server.port};`)
    .replace(/listen 80;/g, `listen 127.0.0.1:${httpPort};`)
    .replace(/listen 443 ssl http2;/g, `listen 127.0.0.1:${httpsPort} ssl http2;`)
    .replace(/\s+listen \[::\]:\d+[^;]*;/g, '')
    .replace(/return 301 https:\/\/\$host\$request_uri;/, `return 301 https://$host:${httpsPort}$request_uri;`)
    .replace(/\/etc\/letsencrypt\/live\/chat\.example\.com/g, dir);
  t.not(site, SITE, 'adapted to the test machine');
  mkdirSync(join(dir, 'logs'));
  // nginx's workers run as an unprivileged user (nobody) when the master is root: they buffer request bodies here.
  chmodSync(dir, 0o755);
  for (const kind of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) chmodSync(mkdirSync(join(dir, `${kind}-temp`), { recursive: true }) ?? join(dir, `${kind}-temp`), 0o777);
  writeFileSync(join(dir, 'nginx.conf'), [
    'daemon off;', 'master_process on;', 'worker_processes 1;', `pid ${dir}/nginx.pid;`, `error_log ${dir}/logs/error.log warn;`,
    'events { worker_connections 64; }',
    'http {', `  access_log ${dir}/logs/access.log;`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${dir}/${kind}-temp;`),
    site, '}',
  ].join('\n'));
  const checked = spawnSync(NGINX!, ['-t', '-p', dir, '-c', join(dir, 'nginx.conf')], { encoding: 'utf8' });
  t.equal(checked.status, 0, `nginx -t: ${checked.stderr}`);
  nginx = spawn(NGINX!, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  // Until nginx answers, within a minute: 200 tries 50 ms apart were ~10 s, short for a loaded machine.
  for (const until = Date.now() + 60_000; ; ) {
    const answer = await httpsJson(httpsPort, '/health').catch(() => undefined);
    if (answer?.status === 200) break;
    if (Date.now() > until || nginx.exitCode !== null) throw new Error(`nginx did not start: ${readFileSync(join(dir, 'logs/error.log'), 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const settings = await httpsJson(httpsPort, '/api/v1/server_settings');
  t.equal(settings.status, 200);
  t.equal(settings.body.realm_url, 'https://chat.example.com', 'the URL clients are told is PARLEY_EXTERNAL_URL');

  const redirect = await fetch(`http://127.0.0.1:${httpPort}/api/v1/server_settings`, { redirect: 'manual', headers: { Host: 'chat.example.com' } });
  t.equal(redirect.status, 301, 'plain HTTP is sent to HTTPS');
  t.match(redirect.headers.get('location'), new RegExp(`^https://[^/]+:${httpsPort}/api/v1/server_settings$`), 'to the same path');

  // What uWebSockets.js drops without an answer (docs/http-robustness.md), answered through nginx.
  const http10 = 'GET /api/v1/server_settings HTTP/1.0\r\nHost: chat.example.com\r\n\r\n';
  t.equal(await rawPlain(server.port, [http10]), '', 'alone, uWS closes an HTTP/1.0 request unanswered');
  t.match(await rawTls(httpsPort, [http10]), /^HTTP\/1\.1 200 OK\r\n[^]*"realm_name":"Parley Demo"/, 'through nginx it is answered');
  const unknown = 'BREW /api/v1/users HTTP/1.1\r\nHost: chat.example.com\r\nConnection: close\r\n\r\n';
  t.equal(await rawPlain(server.port, [unknown]), '', 'alone, uWS closes a request with a method it does not know');
  t.match(await rawTls(httpsPort, [unknown]), /^HTTP\/1\.1 405 /, 'through nginx: 405');
  const longHead = `GET /api/v1/server_settings HTTP/1.1\r\nHost: chat.example.com\r\nX-Padding: ${'p'.repeat(6000)}\r\nConnection: close\r\n\r\n`;
  const pieces = [longHead.slice(0, 3000), longHead.slice(3000)];
  t.equal(await rawPlain(server.port, pieces), '', 'alone, uWS closes a 6 KB head that arrives in two pieces');
  t.match(await rawTls(httpsPort, pieces), /^HTTP\/1\.1 200 OK/, 'through nginx it is answered');

  // A long-poll is passed on when the server answers it (a heartbeat after PARLEY_HEARTBEAT_SECONDS).
  const iago = server.services.org.users.byEmail('iago@example.com')!;
  const auth = { Authorization: `Basic ${Buffer.from(`iago@example.com:${iago.apiKey}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' };
  const queue = await httpsJson(httpsPort, '/api/v1/register', { method: 'POST', headers: auth, body: 'event_types=%5B%22message%22%5D' });
  t.equal(queue.status, 200);
  const polled = await httpsJson(httpsPort, `/api/v1/events?queue_id=${queue.body.queue_id}&last_event_id=-1`, { headers: auth });
  t.match(polled.body.events, [{ type: 'heartbeat' }], 'a parked GET /events comes back through the proxy');

  // An upload of several MiB passes nginx's body limit.
  const bytes = Buffer.alloc(3 * 1024 * 1024, 7);
  const boundary = 'parley-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    bytes, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const uploaded = await httpsJson(httpsPort, '/api/v1/user_uploads', { method: 'POST', headers: { ...auth, 'Content-Type': `multipart/form-data; boundary=${boundary}` }, body });
  t.equal(uploaded.status, 200, JSON.stringify(uploaded.body).slice(0, 200));

  const access = readFileSync(join(dir, 'logs/access.log'), 'utf8');
  t.match(access, /"BREW \/api\/v1\/users HTTP\/1\.1" 405/, 'nginx answered the unknown method itself');
});
