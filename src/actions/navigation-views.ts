/**
 * Adding, changing and removing a user's navigation views, each with its `navigation_view`
 * event to the user's queues (Zulip's zerver/actions/navigation_views.py).
 */
import {
  checkNameForFragment,
  isBuiltInView,
  NAVIGATION_VIEW_EXISTS,
  navigationViewMissing,
  navigationViewObject,
  strippedNonBlank,
  type NavigationViewRecord,
} from '../domain/navigation-views.js';
import { badRequest } from '../domain/errors.js';
import type { UserRecord } from '../domain/users.js';
import { navigationViewBook } from '../queries/navigation-views.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';

export interface NavigationViewChange {
  isPinned?: boolean;
  name?: string;
}

function checkNameUnused(services: Services, userId: number, name: string | undefined): void {
  if (name !== undefined && navigationViewBook(services).list(userId).some((view) => view.name === name)) throw badRequest(NAVIGATION_VIEW_EXISTS);
}

function add(services: Services, tx: Transaction, userId: number, view: NavigationViewRecord): void {
  navigationViewBook(services).put(userId, [[view.fragment, view]], tx);
  tx.emit({ type: 'navigation_view', op: 'add', navigation_view: navigationViewObject(view) }, [userId]);
}

/** POST /navigation_views: configures a built-in view, or adds a custom one (which needs a name). */
export async function addNavigationView(services: Services, user: UserRecord, rawFragment: string, isPinned: boolean, rawName: string | undefined): Promise<void> {
  const fragment = strippedNonBlank(rawFragment, 'fragment');
  const name = rawName === undefined ? undefined : strippedNonBlank(rawName, 'name');
  checkNameForFragment(fragment, name);
  await services.write((tx) => {
    if (navigationViewBook(services).get(user.id, fragment)) throw badRequest(NAVIGATION_VIEW_EXISTS);
    checkNameUnused(services, user.id, name);
    add(services, tx, user.id, { fragment, isPinned, name: name ?? null });
  });
}

/**
 * PATCH /navigation_views/{fragment}. A built-in view exists for every user even when never
 * configured: pinning or hiding it stores its first configuration (an `add` event, since
 * clients hold only configured views); an unknown custom fragment is NOT_FOUND.
 */
export async function updateNavigationView(services: Services, user: UserRecord, fragment: string, change: NavigationViewChange): Promise<void> {
  const name = change.name === undefined ? undefined : strippedNonBlank(change.name, 'name');
  if (isBuiltInView(fragment) && name !== undefined) throw badRequest('Built-in views cannot have a custom name.');
  await services.write((tx) => {
    checkNameUnused(services, user.id, name);
    const view = navigationViewBook(services).get(user.id, fragment);
    if (!view) {
      if (!isBuiltInView(fragment)) throw navigationViewMissing();
      if (change.isPinned !== undefined) add(services, tx, user.id, { fragment, isPinned: change.isPinned, name: null });
      return;
    }
    const data: Record<string, unknown> = {};
    const next = { ...view };
    if (name !== undefined) data.name = next.name = name;
    if (change.isPinned !== undefined) data.is_pinned = next.isPinned = change.isPinned;
    navigationViewBook(services).put(user.id, [[fragment, next]], tx);
    tx.emit({ type: 'navigation_view', op: 'update', fragment, data }, [user.id]);
  });
}

/** DELETE /navigation_views/{fragment}: forgets a configuration or a custom view. */
export async function removeNavigationView(services: Services, user: UserRecord, fragment: string): Promise<void> {
  await services.write((tx) => {
    if (!navigationViewBook(services).get(user.id, fragment)) throw navigationViewMissing();
    navigationViewBook(services).drop(user.id, [fragment], tx);
    tx.emit({ type: 'navigation_view', op: 'remove', fragment }, [user.id]);
  });
}
