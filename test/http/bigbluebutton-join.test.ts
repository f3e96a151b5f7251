/**
 * `GET /calls/bigbluebutton/join`: the link `GET /calls/bigbluebutton/create` returns asks a
 * BigBlueButton server (a fake one here, which checks the checksums as BigBlueButton does) to
 * create the meeting, then redirects to its join URL, the creator as moderator; Zulip's refusals
 * for a tampered link, a server that is down, refuses the checksum or answers an error.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'tap';
import { Api } from '../helpers/client.js';
import { OTHELLO } from '../helpers/demo-ids.js';
import { world } from '../helpers/world.js';

const SECRET = 'bbb-test-secret';

interface Call {
  call: string;
  query: URLSearchParams;
  checksumValid: boolean;
}

/** A BigBlueButton API: `/bigbluebutton/api/{call}?…&checksum=sha256(call + query + secret)`. */
async function fakeBigBlueButton(mode: { answer: 'success' | 'error' }) {
  const calls: Call[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url!, 'http://bbb');
    const raw = url.search.slice(1);
    const query = raw.replace(/&checksum=[0-9a-f]+$/, '');
    const call = url.pathname.replace('/bigbluebutton/api/', '');
    const checksumValid = url.searchParams.get('checksum') === createHash('sha256').update(call + query + SECRET).digest('hex');
    calls.push({ call, query: url.searchParams, checksumValid });
    res.setHeader('Content-Type', 'text/xml');
    if (!checksumValid) res.end('<response><returncode>FAILED</returncode><messageKey>checksumError</messageKey><message>Checksums do not match</message></response>');
    else if (mode.answer === 'error') res.end('<response><returncode>FAILED</returncode><messageKey>idNotUnique</messageKey></response>');
    else res.end(`<response><returncode>SUCCESS</returncode><meetingID>${url.searchParams.get('meetingID')}</meetingID><createTime>1700000000123</createTime></response>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bigbluebutton/`;
  return { url, calls, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const join = (api: Api, link: string) => fetch(`${api.baseUrl}${link}`, { headers: { authorization: api.authorization! }, redirect: 'manual' });

test('the BigBlueButton join link', async (t) => {
  const mode: { answer: 'success' | 'error' } = { answer: 'success' };
  const bbb = await fakeBigBlueButton(mode);
  t.teardown(bbb.close);
  const w = await world(t, { env: { PARLEY_BIG_BLUE_BUTTON_URL: bbb.url, PARLEY_BIG_BLUE_BUTTON_SECRET: SECRET } });
  const made = await w.hamlet.get('/calls/bigbluebutton/create', { meeting_name: "Hamlet's standup / daily", voice_only: true });
  t.equal(made.status, 200, JSON.stringify(made.body));
  const link: string = made.body.url;

  const moderator = await join(w.hamlet, link);
  t.equal(moderator.status, 302, 'the creator is redirected');
  const create = bbb.calls.at(-1)!;
  t.same([create.call, create.checksumValid], ['create', true], 'the meeting was created with a valid checksum');
  t.same([create.query.get('name'), create.query.get('lockSettingsDisableCam')], ["Hamlet's standup / daily", 'True']);
  const meetingId = create.query.get('meetingID')!;
  t.match(meetingId, /^zulip-\d{12}$/);
  const location = new URL(moderator.headers.get('location')!);
  t.equal(`${location.origin}${location.pathname}`, `${bbb.url}api/join`);
  const query = location.search.slice(1).replace(/&checksum=[0-9a-f]+$/, '');
  t.equal(query, `meetingID=${meetingId}&role=MODERATOR&fullName=King%20Hamlet&createTime=1700000000123`, "Zulip's parameters, encoded as Python's quote");
  t.equal(location.searchParams.get('checksum'), createHash('sha256').update(`join${query}${SECRET}`).digest('hex'), 'the join checksum');

  const viewer = await join(w.othello, link);
  t.equal(viewer.status, 302);
  t.equal(new URL(viewer.headers.get('location')!).searchParams.get('role'), 'VIEWER', 'anyone else joins as a viewer');
  t.equal(new URL(viewer.headers.get('location')!).searchParams.get('fullName'), 'Othello, the Moor of Venice');

  const answer = async (api: Api, path: string) => {
    const response = await join(api, path);
    const body = (await response.json()) as { code: string; msg: string };
    return [response.status, body.code, body.msg];
  };
  const [payload, signature] = decodeURIComponent(link.split('=')[1]!).split('.');
  const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), moderator: OTHELLO })).toString('base64url');
  t.same(await answer(w.othello, `/calls/bigbluebutton/join?bigbluebutton=${forged}.${signature}`), [400, 'BAD_REQUEST', 'Invalid signature.'], 'a tampered link');
  t.same(await answer(w.othello, '/calls/bigbluebutton/join'), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'bigbluebutton' argument"]);
  t.equal((await fetch(`${w.server.url}${link}`, { redirect: 'manual' })).status, 401, 'only for someone logged in');
  mode.answer = 'error';
  t.same(await answer(w.hamlet, link), [400, 'BAD_REQUEST', 'BigBlueButton server returned an unexpected error.']);

  // The same link on a server with another secret: BigBlueButton refuses the checksum; then no server at all.
  const otherSecret = await w.server.restart({ PARLEY_BIG_BLUE_BUTTON_SECRET: 'another secret' });
  const hamlet = new Api(otherSecret.url, w.hamlet.email, w.hamlet.apiKey);
  t.same(await answer(hamlet, link), [400, 'BAD_REQUEST', 'Invalid signature.'], 'a link signed with another secret');
  const relinked = (await hamlet.get('/calls/bigbluebutton/create', { meeting_name: 'again' })).body.url;
  t.same(await answer(hamlet, relinked), [400, 'BAD_REQUEST', 'Error authenticating to the BigBlueButton server.']);
  await bbb.close();
  t.same(await answer(hamlet, relinked), [400, 'BAD_REQUEST', 'Error connecting to the BigBlueButton server.']);
  const unconfigured = await otherSecret.restart({ PARLEY_BIG_BLUE_BUTTON_URL: '', PARLEY_BIG_BLUE_BUTTON_SECRET: '' });
  t.teardown(() => unconfigured.destroy());
  t.same(await answer(new Api(unconfigured.url, w.hamlet.email, w.hamlet.apiKey), link), [400, 'BAD_REQUEST', 'BigBlueButton is not configured.']);
});
