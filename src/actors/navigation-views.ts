/**
 * A user's navigation views (left-sidebar views: built-in ones configured, custom ones added),
 * one actor per user keyed by fragment, persisted with every change (see personal-records.ts).
 */
import type { NavigationViewRecord } from '../domain/navigation-views.js';
import { recordsKind } from './personal-records.js';

export const navigationViewsKind = recordsKind<NavigationViewRecord>('navigation_views');
