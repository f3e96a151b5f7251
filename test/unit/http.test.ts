/** Unit tests of the HTTP front's pure parts: routing, parameter parsing, validation messages, rate limits, answers joined from parts. */
import { test } from 'tap';
import { Router } from '../../src/http/router.js';
import { parseApiQuery, parseBody, parseUrlEncoded, type RawParams, type UploadedFile } from '../../src/http/params.js';
import { compileValidators } from '../../src/http/validation.js';
import { RateLimiter } from '../../src/http/rate-limit.js';
import { ApiError } from '../../src/domain/errors.js';
import { clientFromUserAgent } from '../../src/http/request-head.js';
import { successBody, successBytes } from '../../src/http/envelope.js';
import { RawJson } from '../../src/shared/handler-result.js';
import { SCHEMAS } from '../../schemas/registry.js';

test('router: static, integer, email and path parameters', async (t) => {
  const router = new Router<string>();
  router.add('GET', '/users/me', 'me');
  router.add('GET', '/users/{user_id:int}', 'by-id');
  router.add('GET', '/users/{email:email}', 'by-email');
  router.add('PATCH', '/users/{user_id:int}', 'patch-id');
  router.add('GET', '/users/me/{stream_id:int}/topics', 'topics');
  router.add('PATCH', '/navigation_views/{fragment:path}', 'view');
  router.add('GET', '/streams/{name}', 'by-name');

  t.equal(router.match('/users/me')?.methods.get('GET'), 'me');
  const byId = router.match('/users/12')!;
  t.equal(byId.methods.get('GET'), 'by-id');
  t.same(byId.params, { user_id: 12 });
  t.same([...byId.methods.keys()].sort(), ['GET', 'PATCH']);
  const byEmail = router.match('/users/iago%40example.com')!;
  t.equal(byEmail.methods.get('GET'), 'by-email');
  t.same(byEmail.params, { email: 'iago@example.com' });
  t.same(router.match('/users/me/5/topics')?.params, { stream_id: 5 });
  const view = router.match('/navigation_views/narrow/channel/5-general')!;
  t.equal(view.methods.get('PATCH'), 'view');
  t.same(view.params, { fragment: 'narrow/channel/5-general' });
  t.same(router.match('/streams/Denmark')?.params, { name: 'Denmark' });
  t.equal(router.match('/users/not-an-email'), undefined, 'a segment that is neither an id nor an email matches nothing');
  t.equal(router.match('/nothing/here'), undefined);
  t.equal(router.match('/users/%E0%A4%A'), undefined, 'malformed percent-encoding does not throw');
  t.throws(() => router.add('GET', '/users/me', 'again'), /duplicate/);
  t.ok([...router.routes()].some((r) => r.pattern === '/users/{user_id:int}' && r.method === 'PATCH'));
});

test('params: query strings, url-encoded and multipart bodies', async (t) => {
  const raw: RawParams = {};
  parseUrlEncoded('a=1&b=x%20y&c=+plus+&a=2', raw);
  t.same(raw, { a: '2', b: 'x y', c: ' plus ' }, 'last value wins; + is a space');
  // API query strings are kept parsed: each request still gets its own parameters, the same ones.
  const narrow = 'narrow=%5B%7B%22operator%22%3A%22is%22%2C%22operand%22%3A%22unread%22%7D%5D&anchor=newest&anchor=oldest';
  const first: RawParams = {};
  const second: RawParams = { extra: 'x' };
  parseApiQuery(narrow, first);
  first.anchor = 'changed by its request';
  parseApiQuery(narrow, second);
  t.same(second, { extra: 'x', narrow: '[{"operator":"is","operand":"unread"}]', anchor: 'oldest' }, 'as parseUrlEncoded reads it, whatever another request did');
  parseBody(Buffer.from('b=body&d=%5B1%2C2%5D'), 'application/x-www-form-urlencoded; charset=utf-8', raw, () => undefined);
  t.same(raw, { a: '2', b: 'body', c: ' plus ', d: '[1,2]' }, 'the body overrides the query');

  const multipart = Buffer.from(
    '--XX\r\nContent-Disposition: form-data; name="content"\r\n\r\nhello\r\n--XX\r\nContent-Disposition: form-data; name="to"\r\n\r\n[1]\r\n--XX--\r\n',
  );
  const fields: RawParams = {};
  const fakeParts = (body: ArrayBuffer, type: string) => {
    t.match(type, /boundary=XX/);
    t.equal(Buffer.from(body).toString(), multipart.toString());
    return [
      { name: 'content', data: new TextEncoder().encode('hello').buffer as ArrayBuffer },
      { name: 'to', data: new TextEncoder().encode('[1]').buffer as ArrayBuffer },
    ];
  };
  parseBody(multipart, 'multipart/form-data; boundary=XX', fields, fakeParts);
  t.same(fields, { content: 'hello', to: '[1]' });
  t.throws(() => parseBody(Buffer.from('{}'), 'application/json', {}, fakeParts), ApiError);
  t.throws(() => parseBody(multipart, 'multipart/form-data; boundary=XX', {}, () => undefined), /Malformed multipart/);

  // Parts with a file name: files on routes that take them (bytes untouched), parameters elsewhere.
  const bytes = new Uint8Array([0xff, 0x00, 0xfe]);
  const withFile = () => [
    { name: 'note', data: new TextEncoder().encode('hi').buffer as ArrayBuffer },
    { name: 'file', filename: 'a.bin', type: 'application/x-thing', data: bytes.buffer as ArrayBuffer },
  ];
  const files: UploadedFile[] = [];
  const params: RawParams = {};
  parseBody(Buffer.from('x'), 'multipart/form-data; boundary=XX', params, withFile, files);
  t.same(params, { note: 'hi' });
  t.same(files, [{ field: 'file', filename: 'a.bin', contentType: 'application/x-thing', data: Buffer.from(bytes) }]);
  const asText: RawParams = {};
  parseBody(Buffer.from('x'), 'multipart/form-data; boundary=XX', asText, withFile);
  t.same(Object.keys(asText), ['note', 'file'], 'without a file list, a file part is a parameter as before');
});

test('validation: Zulip messages for every kind of bad parameter', async (t) => {
  const sample = {
      $id: 'sample',
      type: 'object',
      properties: {
        count: { type: 'integer', default: 5 },
        flag: { type: 'boolean' },
        ids: { type: 'array', items: { type: 'integer' } },
        options: { type: 'object', properties: { mode: { type: 'string' } } },
        name: { type: 'string', maxLength: 5 },
        op: { type: 'string', enum: ['add', 'remove'] },
        to: { 'x-json-or-raw': true, anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'array' }] },
        narrow: { type: 'array', items: { type: 'object', required: ['operator'], properties: { operator: { type: 'string' } } } },
      },
      required: ['op'],
  } as const;
  const validator = compileValidators([sample]).get('sample')!;
  const fail = (raw: RawParams) => {
    try {
      validator.validate(raw);
    } catch (error) {
      return error as ApiError;
    }
    throw new Error('expected a validation error');
  };

  const ok = validator.validate({ op: 'add', ids: '[1,2]', flag: 'true', name: 'abc', zzz: '1', aaa: '2', to: 'Denmark' });
  t.same(ok.params, { op: 'add', ids: [1, 2], flag: true, name: 'abc', to: 'Denmark', count: 5 }, 'JSON decoded, strings as sent, defaults filled');
  t.same(ok.ignored, ['aaa', 'zzz'], 'unknown parameters are listed, sorted');
  t.same(validator.validate({ op: 'add', to: '[1,2]' }).params.to, [1, 2], 'json-or-raw decodes JSON when it can');
  t.same(validator.validate({ op: 'add', to: '7' }).params.to, 7);
  t.same(validator.validate({ op: 'add', name: '[1]' }).params.name, '[1]', 'plain strings are never JSON-decoded');

  const missing = fail({});
  t.equal(missing.code, 'REQUEST_VARIABLE_MISSING');
  t.equal(missing.message, "Missing 'op' argument");
  t.same(missing.extra, { var_name: 'op' });
  t.equal(fail({ op: 'add', count: '"x"' }).message, 'count is not an integer');
  t.equal(fail({ op: 'add', count: '1.5' }).message, 'count is not an integer');
  t.equal(fail({ op: 'add', count: 'abc' }).message, 'count is not valid JSON');
  t.equal(fail({ op: 'add', flag: '1' }).message, 'flag is not a boolean');
  t.equal(fail({ op: 'add', ids: '{}' }).message, 'ids is not a list');
  t.equal(fail({ op: 'add', ids: '[1,"a"]' }).message, 'ids[1] is not an integer');
  t.equal(fail({ op: 'add', options: '[]' }).message, 'options is not a dict');
  t.equal(fail({ op: 'add', name: 'toolong' }).message, 'name is too long (limit: 5 characters)');
  t.equal(fail({ op: 'other' }).message, 'Invalid op');
  t.equal(fail({ op: 'add', narrow: '[{"operator": 5}]' }).message, 'narrow[0]["operator"] is not a string');
  t.equal(fail({ op: 'add', narrow: '[{}]' }).message, 'operator key is missing from narrow[0]');
  t.equal(fail({ op: 'add', ids: '[1' }).code, 'BAD_REQUEST');
});

test('validation: every schema of the project compiles', async (t) => {
  const validators = compileValidators(SCHEMAS, { eager: true });
  t.equal(validators.size, SCHEMAS.length, 'one validator per schema, no two schemas with one $id');
  t.ok(validators.has('get-users'));
});

test('rate limiter: a sliding window of N requests', async (t) => {
  let now = 1000;
  const limiter = new RateLimiter({ max: 3, windowSeconds: 60 }, () => now);
  t.same(limiter.peek('a').remaining, 3, 'peeking an unknown key counts nothing');
  t.equal(limiter.hit('a').remaining, 2);
  now += 10;
  t.equal(limiter.hit('a').remaining, 1);
  t.equal(limiter.hit('a').remaining, 0);
  const refused = limiter.hit('a');
  t.equal(refused.allowed, false);
  t.equal(refused.retryAfter, 50, 'the oldest request leaves the window in 50 s');
  t.equal(limiter.hit('b').allowed, true, 'keys are independent');
  now += 50;
  const again = limiter.hit('a');
  t.equal(again.allowed, true, 'once the oldest request has left the window');
  t.equal(again.remaining, 0);
  now += 1000;
  limiter.sweep();
  t.equal(limiter.peek('a').remaining, 3, 'swept keys start afresh');
});

test('answers of parts: text fields encoded in place, encoded parts joined, in one valid JSON object', async (t) => {
  const parts = [Buffer.from('"big":[1,2,3]'), [Buffer.from('"split":"a'), Buffer.from('b"')]];
  const text = JSON.stringify({ name: 'Ærø ✓ 𝄞', n: 1 }).slice(1, -1);
  const first = successBytes(new RawJson(text, undefined, parts), ['bogus']);
  t.same(JSON.parse(first.toString('utf8')), { result: 'success', msg: '', name: 'Ærø ✓ 𝄞', n: 1, big: [1, 2, 3], split: 'ab', ignored_parameters_unsupported: ['bogus'] }, 'multi-byte text counted in bytes');
  const copy = Buffer.from(first);
  const second = successBytes(new RawJson('', undefined, [Buffer.from('"x":true')]), []);
  t.same(JSON.parse(second.toString('utf8')), { result: 'success', msg: '', x: true }, 'a shorter answer after a longer one (the buffer is reused)');
  t.same(JSON.parse(copy.toString('utf8')).split, 'ab', 'the first answer, copied before, intact');
});

test('client from the User-Agent: its first word, as trim and split on / or white space would take it', async (t) => {
  // The rule the scan replaces, kept here as the reference it must agree with.
  const reference = (userAgent: string) => userAgent.trim().split(/[\/\s]/, 1)[0] || 'Unspecified';
  const samples = [
    '', ' ', '\t', 'ZulipPython/0.9.0 (Linux)', '  ZulipMobile/27.1 (Android 13)', 'curl/8.5.0', 'wrk', 'Mozilla/5.0 (X11)',
    '/leading-slash', 'name with spaces', '\u00a0\u3000Wide\u2003space', 'tab\there', 'line\nbreak', '\ufeffBOM/1', 'Ünïcode/1', 'a',
  ];
  for (const userAgent of samples) t.equal(clientFromUserAgent(userAgent), reference(userAgent), JSON.stringify(userAgent));
  t.equal(clientFromUserAgent('ZulipPython/0.9.0 (Linux)'), 'ZulipPython');
  t.equal(clientFromUserAgent(''), 'Unspecified');
});

test('envelope: an answer of encoded pieces is the same JSON as the one of text', async (t) => {
  const bytes = (text: string) => Buffer.from(text);
  const cases: { fields: string; pieces: (Buffer | Buffer[])[]; ignored: string[] }[] = [
    { fields: '', pieces: [[bytes('"messages":['), bytes('{"id":1'), bytes(',"flags":[]}'), bytes('],"found_anchor":true')]], ignored: [] },
    { fields: '"a":1', pieces: [[bytes('"m":['), bytes(']')], bytes('"z":"é"')], ignored: ['bar', 'foo'] },
    { fields: '"a":1', pieces: [], ignored: ['q'] },
    { fields: '', pieces: [], ignored: [] },
  ];
  for (const { fields, pieces, ignored } of cases) {
    const asText = [fields, ...pieces.map((piece) => (Buffer.isBuffer(piece) ? piece : Buffer.concat(piece)).toString())].filter((part) => part !== '').join(',');
    const expected = successBody(new RawJson(asText), ignored);
    t.equal(successBytes(new RawJson(fields, undefined, pieces), ignored).toString(), expected);
    t.same(JSON.parse(expected).result, 'success');
  }
});
