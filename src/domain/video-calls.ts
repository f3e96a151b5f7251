/** BigBlueButton calls as Zulip makes them: a meeting id and a signed join link that nobody can alter on the way. */
import { createHmac, randomInt } from 'node:crypto';

export interface BigBlueButtonMeeting {
  meeting_id: string;
  name: string;
  lock_settings_disable_cam: boolean;
  moderator: number;
}

/** Zulip's meeting ids: `zulip-` and twelve digits. */
export function newMeeting(name: string, voiceOnly: boolean, moderatorId: number): BigBlueButtonMeeting {
  return { meeting_id: `zulip-${randomInt(100000000000, 999999999999)}`, name, lock_settings_disable_cam: voiceOnly, moderator: moderatorId };
}

/** `payload.signature`, both base64url: what `/calls/bigbluebutton/join` checks before creating the meeting. */
export function signMeeting(meeting: BigBlueButtonMeeting, secret: string): string {
  const payload = Buffer.from(JSON.stringify(meeting)).toString('base64url');
  const signature = createHmac('sha256', `bigbluebutton join:${secret}`).update(payload).digest('base64url');
  return `${payload}.${signature}`;
}

export function joinPath(meeting: BigBlueButtonMeeting, secret: string): string {
  return `/calls/bigbluebutton/join?bigbluebutton=${encodeURIComponent(signMeeting(meeting, secret))}`;
}
