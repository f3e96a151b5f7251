/** Invitations: `/invites` (email invitations) and `/invites/multiuse` (reusable links). */
import * as actions from '../actions/invitations.js';
import { listInvites } from '../queries/invitations.js';
import type * as schemas from '../../schemas/index.js';
import type { Services } from '../services.js';
import { me, type Request } from './route.js';

/** GET /invites */
export function getInvites(services: Services, request: Request<typeof schemas.getInvites>) {
  return { invites: listInvites(services, me(request)) };
}

/** POST /invites */
export async function sendInvites(services: Services, request: Request<typeof schemas.sendInvites>) {
  await actions.inviteUsers(services, me(request), request.params);
  return {};
}

/** POST /invites/multiuse */
export async function createInviteLink(services: Services, request: Request<typeof schemas.createInviteLink>) {
  return { invite_link: await actions.createInviteLink(services, me(request), request.params) };
}

/** DELETE /invites/{invite_id} */
export async function revokeInvite(services: Services, request: Request<typeof schemas.revokeInvite, { invite_id: number }>) {
  await actions.revokeInvitation(services, me(request), 'email', request.params.invite_id);
  return {};
}

/** DELETE /invites/multiuse/{invite_id} */
export async function revokeInviteLink(services: Services, request: Request<typeof schemas.revokeInviteLink, { invite_id: number }>) {
  await actions.revokeInvitation(services, me(request), 'multiuse', request.params.invite_id);
  return {};
}

/** POST /invites/{invite_id}/resend */
export async function resendInvite(services: Services, request: Request<typeof schemas.resendInvite, { invite_id: number }>) {
  await actions.resendInvitation(services, me(request), request.params.invite_id);
  return {};
}
