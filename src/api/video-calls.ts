/**
 * Video calls: `GET /calls/bigbluebutton/create` (the server's BigBlueButton, set up by
 * PARLEY_BIG_BLUE_BUTTON_URL and _SECRET) and the link it makes, `GET /calls/bigbluebutton/join`
 * (outside /api/v1), which redirects to the BigBlueButton server's join URL.
 */
import { badRequest } from '../domain/errors.js';
import { joinPath, newMeeting } from '../domain/video-calls.js';
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { joinBigBlueButton } from '../queries/bigbluebutton.js';
import { me, type Request } from './route.js';

/** GET /calls/bigbluebutton/create */
export function createBigBlueButtonCall(services: Services, request: Request<typeof schemas.createBigBlueButtonVideoCall>) {
  const user = me(request);
  const server = services.config.bigBlueButton;
  if (!server) throw badRequest('BigBlueButton is not configured.');
  return { url: joinPath(newMeeting(request.params.meeting_name, request.params.voice_only, user.id), server.secret) };
}

/** GET /calls/bigbluebutton/join (outside /api/v1) */
export function joinBigBlueButtonCall(services: Services, request: Request<typeof schemas.joinBigBlueButtonVideoCall>) {
  return joinBigBlueButton(services, me(request), request.params.bigbluebutton);
}
