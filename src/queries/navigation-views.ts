/** Reading a user's navigation views from their actor. */
import { navigationViewsKind } from '../actors/navigation-views.js';
import { PersonalRecords } from '../actors/personal-records.js';
import { navigationViewObject, type NavigationViewRecord } from '../domain/navigation-views.js';
import type { Services } from '../services.js';

export const navigationViewBook = (services: Services) => new PersonalRecords<NavigationViewRecord>(services.actors, navigationViewsKind);

/** The views the user configured or added, in the order they were first stored (Zulip lists its rows likewise). */
export function navigationViewsOf(services: Services, userId: number): Record<string, unknown>[] {
  return navigationViewBook(services).list(userId).map(navigationViewObject);
}
