/**
 * Joining a BigBlueButton call (`GET /calls/bigbluebutton/join`, Zulip's `join_bigbluebutton`):
 * the link's meeting is (re)created on the server's BigBlueButton, then the caller is sent to
 * its join URL. Nothing of ours is read or written; the one outside call has Zulip's 5 s limit.
 */
import { badRequest } from '../domain/errors.js';
import { createUrl, joinUrl, readCreateAnswer, verifyMeeting } from '../domain/bigbluebutton-join.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { RawAnswer } from '../shared/handler-result.js';

const TIMEOUT_MS = 5000;

export async function joinBigBlueButton(services: Services, user: UserRecord, signed: string): Promise<RawAnswer> {
  const server = services.config.bigBlueButton;
  if (!server) throw badRequest('BigBlueButton is not configured.');
  const meeting = verifyMeeting(signed, server.secret);
  if (!meeting) throw badRequest('Invalid signature.');
  let xml: string;
  try {
    const response = await fetch(createUrl(server.url, server.secret, meeting), { signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!response.ok) throw new Error(`status ${response.status}`);
    xml = await response.text();
  } catch {
    throw badRequest('Error connecting to the BigBlueButton server.');
  }
  const answer = readCreateAnswer(xml);
  if ('error' in answer) throw badRequest(answer.error);
  const location = joinUrl(server.url, server.secret, meeting, { id: user.id, fullName: user.fullName }, answer.createTime);
  return new RawAnswer(302, { Location: location, 'Cache-Control': 'no-store' }, '');
}
