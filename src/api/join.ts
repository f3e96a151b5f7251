/** The join page of an invitation link: `GET /join/{key}` shows the form, `POST /join/{key}` creates the account. */
import { deadLinkError, joinWithInvitation } from '../actions/join.js';
import { ApiError } from '../domain/errors.js';
import type { PageAnswer, PageRequest } from '../http/front.js';
import { joinLink } from '../queries/invitations.js';
import type { Services } from '../services.js';
import { deadLinkPage, joinedPage, joinFormPage } from './join-html.js';

/** A dead link (unknown, expired, revoked, used) as its page: 404 or 410 with a sentence. */
function deadLink(error: ApiError): PageAnswer {
  return { status: error.status, html: deadLinkPage(error.message) };
}

/** GET /join/{key} */
export function showJoinForm(services: Services, request: PageRequest): PageAnswer {
  const key = String(request.params.key);
  const link = joinLink(services, key);
  if (link.state !== 'active') return deadLink(deadLinkError(link.state));
  return { status: 200, html: joinFormPage({ key, realmName: link.realmName, referrerName: link.referrerName, email: link.record!.email ?? undefined }) };
}

/** POST /join/{key} */
export async function submitJoinForm(services: Services, request: PageRequest): Promise<PageAnswer> {
  const key = String(request.params.key);
  const form = { fullName: request.form.full_name ?? '', password: request.form.password ?? '', email: request.form.email };
  try {
    const outcome = await joinWithInvitation(services, key, form);
    if ('joined' in outcome) {
      const user = outcome.joined;
      return { status: 200, html: joinedPage({ realmName: services.org.realm.name, realmUrl: services.org.url, email: user.deliveryEmail, fullName: user.fullName }) };
    }
    const link = joinLink(services, key);
    const html = joinFormPage({
      key, realmName: link.realmName, referrerName: link.referrerName, email: link.record?.email ?? undefined,
      fullName: form.fullName, enteredEmail: form.email, problem: outcome.formProblem,
    });
    return { status: 400, html };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 410)) return deadLink(error);
    throw error;
  }
}
