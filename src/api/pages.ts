/** The pages served outside /api/v1, as the HTTP front takes them: each view bound to the services. */
import type { PageRoute } from '../http/front.js';
import type { Services } from '../services.js';
import * as join from './join.js';
import { unsubscribe } from './unsubscribe.js';

export function bindPages(services: Services): PageRoute[] {
  return [
    { method: 'GET', path: '/join/{key}', handler: (request) => join.showJoinForm(services, request) },
    { method: 'POST', path: '/join/{key}', handler: (request) => join.submitJoinForm(services, request) },
    { method: 'GET', path: '/accounts/unsubscribe/missed_messages/{token}', handler: (request) => unsubscribe(services, request) },
    { method: 'POST', path: '/accounts/unsubscribe/missed_messages/{token}', handler: (request) => unsubscribe(services, request) },
  ];
}
