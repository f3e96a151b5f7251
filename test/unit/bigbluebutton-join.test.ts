/** The BigBlueButton join link's pure rules: the signed meeting, Python's `quote` encoding, the checksums, the XML answer. */
import { createHash } from 'node:crypto';
import { test } from 'tap';
import { createUrl, joinUrl, readCreateAnswer, verifyMeeting } from '../../src/domain/bigbluebutton-join.js';
import { signMeeting } from '../../src/domain/video-calls.js';

const MEETING = { meeting_id: 'zulip-123456789012', name: "Tom's (daily) / sync*", lock_settings_disable_cam: false, moderator: 4 };

test('a signed meeting is read back only with the secret it was signed with', async (t) => {
  const signed = signMeeting(MEETING, 's3cret');
  t.same(verifyMeeting(signed, 's3cret'), MEETING);
  t.equal(verifyMeeting(signed, 'other'), null, 'another secret');
  const [payload, signature] = signed.split('.');
  const changed = Buffer.from(JSON.stringify({ ...MEETING, moderator: 5 })).toString('base64url');
  t.equal(verifyMeeting(`${changed}.${signature}`, 's3cret'), null, 'a changed meeting');
  t.equal(verifyMeeting(payload!, 's3cret'), null, 'no signature');
  const notAMeeting = signMeeting({ ...MEETING, moderator: 'x' as unknown as number }, 's3cret');
  t.equal(verifyMeeting(notAMeeting, 's3cret'), null, 'a payload of the wrong shape');
});

test("create and join URLs: Python's quote, booleans as Python prints them, BigBlueButton's checksum", async (t) => {
  const create = new URL(createUrl('https://bbb.example.com/bigbluebutton', 'sec', MEETING));
  t.equal(create.origin + create.pathname, 'https://bbb.example.com/bigbluebutton/api/create', 'a slash is added to the base');
  const query = create.search.slice(1).replace(/&checksum=.*$/, '');
  t.equal(query, 'meetingID=zulip-123456789012&name=Tom%27s%20%28daily%29%20/%20sync%2A&lockSettingsDisableCam=False');
  t.equal(create.searchParams.get('checksum'), createHash('sha256').update(`create${query}sec`).digest('hex'));
  const join = (id: number) => new URL(joinUrl('https://bbb.example.com/b/', 'sec', MEETING, { id, fullName: 'King Hamlet' }, '1700'));
  t.equal(join(4).search.replace(/&checksum=.*$/, ''), '?meetingID=zulip-123456789012&role=MODERATOR&fullName=King%20Hamlet&createTime=1700');
  t.equal(join(5).searchParams.get('role'), 'VIEWER');
});

test("the create call's answer", async (t) => {
  t.same(readCreateAnswer('<response><returncode>SUCCESS</returncode><createTime>1531155809613</createTime></response>'), { createTime: '1531155809613' });
  t.same(readCreateAnswer('<response><returncode>FAILED</returncode><messageKey>checksumError</messageKey></response>'), { error: 'Error authenticating to the BigBlueButton server.' });
  t.same(readCreateAnswer('<response><returncode>FAILED</returncode><messageKey>other</messageKey></response>'), { error: 'BigBlueButton server returned an unexpected error.' });
  t.same(readCreateAnswer('not xml'), { error: 'BigBlueButton server returned an unexpected error.' });
});
