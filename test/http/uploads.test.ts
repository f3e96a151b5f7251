/**
 * Uploads through HTTP: POST /user_uploads (one file, Zulip's answer and errors), the size limit
 * from the organization's setting refused before the body is read, the file served to its owner
 * with its type, disposition and byte ranges, the JSON form's short-lived URL, durability
 * (content-addressed, surviving a restart) and the limit in POST /register.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { login } from '../helpers/client.js';
import { durableServerEnv, exited, killAndRemove, startProcess } from '../helpers/process.js';
import { test } from 'tap';
import { setRealm, world } from '../helpers/world.js';
import { error } from '../helpers/messages.js';
import { fetchRaw, upload, uploaded } from '../helpers/uploads.js';
import { register, take } from '../helpers/events.js';
import { HAMLET } from '../helpers/demo-ids.js';


test('POST /user_uploads', async (t) => {
  t.test('stores one file and answers uri, url and filename as Zulip', async (t) => {
    const { hamlet, org } = await world(t);
    const answer = await uploaded(hamlet, 'notes.txt', 'hello world\n');
    t.match(answer.url, new RegExp(`^/user_uploads/${org.id}/[0-9a-f]{1,2}/[\\w-]{24}/notes\\.txt$`));
    t.equal(answer.uri, answer.url);
    t.equal(answer.filename, 'notes.txt');
  });

  t.test('sanitizes the stored name but answers the name as uploaded', async (t) => {
    const { hamlet } = await world(t);
    const answer = await uploaded(hamlet, 'my report (final) #2.txt', 'x');
    t.match(answer.url, /\/my-report-final-2\.txt$/);
    t.equal(answer.filename, 'my report (final) #2.txt');
    const unicode = await uploaded(hamlet, 'Ünïcødé  名前.txt', 'y');
    t.match(unicode.url, /\/Ünïcødé-名前\.txt$/);
  });

  t.test('refuses no file and more than one', async (t) => {
    const { hamlet } = await world(t);
    t.same(error(await hamlet.post('/user_uploads', {})), [400, 'BAD_REQUEST', 'You must specify a file to upload']);
    t.same(error(await upload(hamlet, [{ name: 'a.txt', data: 'a' }, { name: 'b.txt', data: 'b' }])), [400, 'BAD_REQUEST', 'You may only upload one file at a time']);
  });

  t.test('needs credentials', async (t) => {
    const { anonymous } = await world(t);
    t.equal((await upload(anonymous, { name: 'a.txt', data: 'a' })).status, 401);
  });

  t.test('the organization setting limits the size, before the body is read', async (t) => {
    const { hamlet, server } = await world(t);
    await setRealm(server, { max_file_upload_size_mib: 1 });
    const limit = [400, 'BAD_REQUEST', 'Uploaded file is larger than the allowed limit of 1 MiB'];
    t.same(error(await upload(hamlet, { name: 'big.bin', data: Buffer.alloc(1024 * 1024 + 1) })), limit, 'a file over the limit');
    t.equal((await upload(hamlet, { name: 'fits.bin', data: Buffer.alloc(1024 * 1024) })).status, 200, 'a file at the limit');
    // A declared length far over the limit is answered without the body being sent.
    const refused = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(`${server.url}/api/v1/user_uploads`, {
        method: 'POST',
        headers: { authorization: hamlet.authorization!, 'content-type': 'multipart/form-data; boundary=X', 'content-length': String(200 * 1024 * 1024) },
      }, (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body }));
      });
      request.on('error', reject);
      request.flushHeaders();
    });
    t.same([refused.status, JSON.parse(refused.body).msg], [400, limit[2]]);
    const state = await hamlet.post('/register', { fetch_event_types: ['realm'] });
    t.equal(state.body.max_file_upload_size_mib, 1, 'register reports the limit');
  });

  t.test('register reports the default limit and no quota', async (t) => {
    const { hamlet } = await world(t);
    const state = await hamlet.post('/register', { fetch_event_types: ['realm'] });
    t.equal(state.body.max_file_upload_size_mib, 25);
    t.equal(state.body.realm_upload_quota_mib, null);
  });

  t.test('sends an attachment add event to the uploader only', async (t) => {
    const { hamlet, othello } = await world(t);
    const mine = await register(hamlet, { event_types: ['attachment'] });
    const theirs = await register(othello, { event_types: ['attachment'] });
    const answer = await uploaded(hamlet, 'a.txt', 'abc');
    const events = await take(mine);
    t.equal(events.length, 1);
    t.match(events[0], { type: 'attachment', op: 'add', attachment: { name: 'a.txt', path_id: answer.url.slice('/user_uploads/'.length), size: 3, messages: [] }, upload_space_used: 3 });
    t.type(events[0].attachment.create_time, 'number');
    t.same(await take(theirs), []);
  });
});

test('GET /user_uploads/{realm_id_str}/{filename}', async (t) => {
  t.test('serves the file to its owner with its type and disposition', async (t) => {
    const { hamlet } = await world(t);
    const text = await uploaded(hamlet, 'notes.txt', 'hello world\n', 'text/plain');
    const got = await fetchRaw(hamlet, text.url);
    t.equal(got.status, 200);
    t.equal(got.bytes.toString(), 'hello world\n');
    t.equal(got.headers.get('content-type'), 'text/plain; charset=utf-8');
    t.equal(got.headers.get('content-disposition'), 'inline; filename="notes.txt"');
    t.equal(got.headers.get('accept-ranges'), 'bytes');
    const html = await uploaded(hamlet, 'page.html', '<script>alert(1)</script>', 'text/html');
    const page = await fetchRaw(hamlet, html.url);
    t.equal(page.headers.get('content-type'), 'text/html');
    t.equal(page.headers.get('content-disposition'), 'attachment; filename="page.html"', 'not an inline type: a download');
    t.equal(page.headers.get('x-content-type-options'), 'nosniff');
    const guessed = await uploaded(hamlet, 'doc.pdf', '%PDF-1.4');
    t.equal((await fetchRaw(hamlet, guessed.url)).headers.get('content-type'), 'application/pdf', 'no type sent: guessed from the name');
    const named = await uploaded(hamlet, 'café.txt', 'x');
    t.equal((await fetchRaw(hamlet, encodeURI(named.url))).headers.get('content-disposition'), "inline; filename*=utf-8''caf%C3%A9.txt");
  });

  t.test('HEAD gives the headers and the length', async (t) => {
    const { hamlet } = await world(t);
    const answer = await uploaded(hamlet, 'notes.txt', '0123456789');
    const head = await fetchRaw(hamlet, answer.url, { method: 'HEAD' });
    t.equal(head.status, 200);
    t.equal(head.headers.get('content-length'), '10');
    t.equal(head.bytes.length, 0);
  });

  t.test('answers byte ranges: 206 with Content-Range, 416 past the end', async (t) => {
    const { hamlet } = await world(t);
    const answer = await uploaded(hamlet, 'digits.txt', '0123456789');
    const part = await fetchRaw(hamlet, answer.url, { headers: { range: 'bytes=2-5' } });
    t.same([part.status, part.bytes.toString(), part.headers.get('content-range')], [206, '2345', 'bytes 2-5/10']);
    const open = await fetchRaw(hamlet, answer.url, { headers: { range: 'bytes=7-' } });
    t.same([open.status, open.bytes.toString(), open.headers.get('content-range')], [206, '789', 'bytes 7-9/10']);
    const suffix = await fetchRaw(hamlet, answer.url, { headers: { range: 'bytes=-3' } });
    t.same([suffix.status, suffix.bytes.toString()], [206, '789']);
    const past = await fetchRaw(hamlet, answer.url, { headers: { range: 'bytes=10-20' } });
    t.same([past.status, past.headers.get('content-range')], [416, 'bytes */10']);
    const several = await fetchRaw(hamlet, answer.url, { headers: { range: 'bytes=0-1,3-4' } });
    t.same([several.status, several.bytes.toString()], [200, '0123456789'], 'several ranges: the whole file');
  });

  t.test('an unlinked file is its owner\'s only; unknown paths are 404', async (t) => {
    const { hamlet, othello, anonymous, org } = await world(t);
    const answer = await uploaded(hamlet, 'secret.txt', 'mine');
    const other = await fetchRaw(othello, answer.url);
    t.same([other.status, other.bytes.toString()], [403, '<p>You are not authorized to view this file.</p>']);
    t.equal((await fetchRaw(anonymous, answer.url)).status, 401);
    t.equal((await fetchRaw(hamlet, `/user_uploads/${org.id}/ab/nothing/here.txt`)).status, 404);
    t.equal((await fetchRaw(hamlet, answer.url.replace(`/${org.id}/`, `/${org.id + 1}/`))).status, 404, 'another organization\'s id');
  });

  t.test('the JSON form answers a short-lived URL that needs no credentials', async (t) => {
    const { hamlet, othello, anonymous } = await world(t);
    const answer = await uploaded(hamlet, 'notes.txt', 'temporary');
    const json = await hamlet.get(answer.url);
    t.equal(json.status, 200);
    t.match(json.body.url, /^\/user_uploads\/temporary\/[^/]+\/notes\.txt$/);
    const got = await fetchRaw(anonymous, json.body.url);
    t.same([got.status, got.bytes.toString()], [200, 'temporary']);
    const forged = json.body.url.replace(/temporary\/[^.]+/, 'temporary/AAAA');
    const forgedAnswer = await fetchRaw(anonymous, forged);
    t.same([forgedAnswer.status, JSON.parse(forgedAnswer.bytes.toString()).msg], [400, 'Invalid token']);
    const renamed = json.body.url.replace(/notes\.txt$/, 'other.txt');
    const wrongName = await fetchRaw(anonymous, renamed);
    t.same([wrongName.status, JSON.parse(wrongName.bytes.toString()).msg], [400, 'Invalid filename']);
    t.same(error(await othello.get(answer.url)), [403, 'BAD_REQUEST', 'You are not authorized to view this file.']);
  });

  t.test('files are content-addressed, durable, and survive a restart', async (t) => {
    const { hamlet, server } = await world(t);
    const data = Buffer.from('the same bytes twice');
    const first = await uploaded(hamlet, 'one.txt', data);
    const second = await uploaded(hamlet, 'two.txt', data);
    t.not(first.url, second.url, 'two attachments');
    const sha = createHash('sha256').update(data).digest('hex');
    t.same(await server.services.files.storedHashes(), [sha], 'one stored file');
    t.same(readFileSync(server.services.files.blobPath(sha)), data);
    const restarted = await server.restart();
    t.teardown(() => restarted.destroy());
    const again = await fetchRaw(hamlet, first.url);
    t.same([again.status, again.bytes.toString()], [200, data.toString()]);
    t.equal((await hamlet.get('/attachments')).body.attachments.length, 2);
  });

  t.test('hamlet is who uploaded', async (t) => {
    const { hamlet, server } = await world(t);
    const answer = await uploaded(hamlet, 'a.txt', 'a');
    t.equal(server.services.attachments.byPathId(answer.url.slice('/user_uploads/'.length))?.ownerId, HAMLET);
  });
});

test('kill -9 during uploads leaves no half file: every stored file is whole and named by a record', async (t) => {
  const { dataDir, env } = await durableServerEnv({ PARLEY_LOG_LEVEL: 'error' });
  let server = await startProcess(env);
  t.teardown(() => killAndRemove(server.child, dataDir));
  const uploadsDir = join(dataDir, 'uploads');
  const acknowledged = new Map<string, string>(); // url → sha256 of what was sent
  for (let cycle = 0; cycle < 3; cycle++) {
    const hamlet = await login(server.url, 'hamlet@example.com');
    // A request whose body stops halfway: its bytes are in the server's memory when it dies.
    const partial = httpRequest(`${server.url}/api/v1/user_uploads`, {
      method: 'POST',
      headers: { authorization: hamlet.authorization!, 'content-type': 'multipart/form-data; boundary=XYZ', 'content-length': String(4 * 1024 * 1024) },
    });
    partial.on('error', () => {});
    partial.write(`--XYZ\r\nContent-Disposition: form-data; name="file"; filename="half.bin"\r\n\r\n` + 'h'.repeat(1024 * 1024));
    // Killed once 1, 4 or 7 uploads are answered: the others are being read, hashed or written.
    const killAfter = 1 + cycle * 3;
    let answered = 0;
    let reached!: () => void;
    const enough = new Promise<void>((resolve) => (reached = resolve));
    const sends = [...Array(12).keys()].map(async (i) => {
      const data = randomBytes(2 * 1024 * 1024 + i);
      const answer = await upload(hamlet, { name: `file-${cycle}-${i}.bin`, data }).catch(() => undefined);
      if (answer?.status === 200) acknowledged.set(answer.body.url, createHash('sha256').update(data).digest('hex'));
      if (++answered >= killAfter) reached();
      return answer;
    });
    await enough;
    server.child.kill('SIGKILL');
    await exited(server.child);
    await Promise.allSettled(sends);
    server = await startProcess(env);

    const tmp = existsSync(join(uploadsDir, 'tmp')) ? readdirSync(join(uploadsDir, 'tmp')) : [];
    t.same(tmp, [], `cycle ${cycle}: nothing left half-written`);
    const stored = readdirSync(join(uploadsDir, 'blobs')).flatMap((dir) => readdirSync(join(uploadsDir, 'blobs', dir)).map((name) => join(uploadsDir, 'blobs', dir, name)));
    const whole = stored.filter((path) => createHash('sha256').update(readFileSync(path)).digest('hex') === path.slice(path.lastIndexOf('/') + 1));
    t.equal(whole.length, stored.length, `cycle ${cycle}: every stored file (${stored.length}) is whole`);
    const after = await login(server.url, 'hamlet@example.com');
    const listed: { path_id: string }[] = (await after.get('/attachments')).body.attachments;
    const listedHashes = new Set<string>();
    for (const attachment of listed) {
      const got = await fetchRaw(after, `/user_uploads/${attachment.path_id}`);
      listedHashes.add(createHash('sha256').update(got.bytes).digest('hex'));
    }
    t.same([...listedHashes].sort(), stored.map((path) => path.slice(path.lastIndexOf('/') + 1)).sort(), `cycle ${cycle}: the stored files are exactly the listed attachments'`);
    const lost = [...acknowledged].filter(([url, sha]) => !listed.some((a) => `/user_uploads/${a.path_id}` === url) || !listedHashes.has(sha));
    t.same(lost, [], `cycle ${cycle}: every answered upload survived (${acknowledged.size} so far)`);
  }
});
