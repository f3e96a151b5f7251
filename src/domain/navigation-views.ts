/**
 * Navigation views (Zulip 11, feature level 390): left-sidebar entries a user pins or hides.
 * The built-in views exist for every user (the web app shows them without any record); a record
 * says how the user configured one, or adds a custom view, which needs a name.
 */
import { badRequest, notFound } from './errors.js';
import { pyStrip } from './topics.js';

export interface NavigationViewRecord {
  /** The view's URL hash, its identifier (it may contain slashes). */
  fragment: string;
  isPinned: boolean;
  /** Custom views only; null for a built-in view. */
  name: string | null;
}

/** Zulip's BUILT_IN_VIEW_FRAGMENTS (zerver/views/navigation_views.py). */
export const BUILT_IN_VIEW_FRAGMENTS: readonly string[] = [
  'inbox',
  'recent',
  'feed',
  'drafts',
  'narrow/has/reaction/sender/me',
  'narrow/is/mentioned',
  'narrow/is/starred',
];

export const isBuiltInView = (fragment: string) => BUILT_IN_VIEW_FRAGMENTS.includes(fragment);

export const NAVIGATION_VIEW_EXISTS = 'Navigation view already exists.';
export const navigationViewMissing = () => notFound('Navigation view does not exist.');

/** Zulip's StringConstraints(strip_whitespace=True, min_length=1) for `fragment` and `name`. */
export function strippedNonBlank(value: string, name: string): string {
  const stripped = pyStrip(value);
  if (stripped === '') throw badRequest(`${name} cannot be blank`);
  return stripped;
}

/** The name rule of adding a view: built-in views have none, custom views must have one. */
export function checkNameForFragment(fragment: string, name: string | undefined): void {
  if (isBuiltInView(fragment)) {
    if (name !== undefined) throw badRequest('Built-in views cannot have a custom name.');
  } else if (!name) {
    throw badRequest('Custom views must have a valid name.');
  }
}

export function navigationViewObject(view: NavigationViewRecord): Record<string, unknown> {
  return { fragment: view.fragment, is_pinned: view.isPinned, name: view.name };
}
