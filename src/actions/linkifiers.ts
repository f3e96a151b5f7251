/**
 * Linkifiers and code playgrounds (Zulip's do_add_linkifier, do_update_linkifier,
 * do_remove_linkifier, check_reorder_linkifiers, do_add_realm_playground,
 * do_remove_realm_playground): administrators only; each change stores the organization's new
 * list in the realm record and tells everyone the whole list (`realm_linkifiers`,
 * `realm_playgrounds`). Messages already sent keep their HTML, as in Zulip; topic links follow at once.
 */
import { badRequest } from '../domain/errors.js';
import { checkLinkifier, checkPlayground, checkPygmentsLanguage, linkifierObject, playgroundObject, type LinkifierRecord, type PlaygroundRecord } from '../domain/linkifiers.js';
import { realmAdminError } from '../domain/roles.js';
import type { UserRecord } from '../domain/users.js';
import { everyone } from '../queries/people.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';

function requireAdmin(user: UserRecord): void {
  const refusal = realmAdminError(user.role);
  if (refusal) throw badRequest(refusal);
}

function saveLinkifiers(services: Services, tx: Transaction, linkifiers: readonly LinkifierRecord[]): void {
  const { org } = services;
  org.saveRealm({ ...org.realm, linkifiers }, tx);
  tx.emit({ type: 'realm_linkifiers', realm_linkifiers: linkifiers.map(linkifierObject) }, everyone(services));
}

function savePlaygrounds(services: Services, tx: Transaction, playgrounds: readonly PlaygroundRecord[]): void {
  const { org } = services;
  org.saveRealm({ ...org.realm, playgrounds }, tx);
  tx.emit({ type: 'realm_playgrounds', realm_playgrounds: playgrounds.map(playgroundObject) }, everyone(services));
}

const linkifiersOf = (services: Services) => services.org.realm.linkifiers ?? [];

function findLinkifier(services: Services, id: number): LinkifierRecord {
  const found = linkifiersOf(services).find((l) => l.id === id);
  if (!found) throw badRequest('Linkifier not found.');
  return found;
}

/** POST /realm/filters: the new linkifier applies last. */
export async function addLinkifier(services: Services, user: UserRecord, pattern: string, urlTemplate: string): Promise<number> {
  requireAdmin(user);
  return services.write((tx) => {
    const record = { id: 0, pattern: pattern.trim(), urlTemplate: urlTemplate.trim() };
    checkLinkifier(record.pattern, record.urlTemplate, linkifiersOf(services));
    record.id = services.counters.nextRealmId(services.org.id, 'linkifier', tx);
    saveLinkifiers(services, tx, [...linkifiersOf(services), record]);
    return record.id;
  });
}

/** PATCH /realm/filters/{filter_id} */
export async function updateLinkifier(services: Services, user: UserRecord, id: number, pattern: string, urlTemplate: string): Promise<void> {
  requireAdmin(user);
  await services.write((tx) => {
    findLinkifier(services, id);
    const record = { id, pattern: pattern.trim(), urlTemplate: urlTemplate.trim() };
    checkLinkifier(record.pattern, record.urlTemplate, linkifiersOf(services).filter((l) => l.id !== id));
    saveLinkifiers(services, tx, linkifiersOf(services).map((l) => (l.id === id ? record : l)));
  });
}

/** DELETE /realm/filters/{filter_id} */
export async function removeLinkifier(services: Services, user: UserRecord, id: number): Promise<void> {
  requireAdmin(user);
  await services.write((tx) => {
    findLinkifier(services, id);
    saveLinkifiers(services, tx, linkifiersOf(services).filter((l) => l.id !== id));
  });
}

/** PATCH /realm/linkifiers: every linkifier's id exactly once, in the new order. */
export async function reorderLinkifiers(services: Services, user: UserRecord, orderedIds: readonly number[]): Promise<void> {
  requireAdmin(user);
  await services.write((tx) => {
    if (new Set(orderedIds).size < orderedIds.length) throw badRequest('The ordered list must not contain duplicated linkifiers');
    const current = linkifiersOf(services);
    const byId = new Map(current.map((l) => [l.id, l]));
    if (orderedIds.length !== current.length || orderedIds.some((id) => !byId.has(id))) {
      throw badRequest('The ordered list must enumerate all existing linkifiers exactly once');
    }
    // Nothing to order: Zulip returns before writing or telling anyone.
    if (current.length === 0) return;
    saveLinkifiers(services, tx, orderedIds.map((id) => byId.get(id)!));
  });
}

const playgroundsOf = (services: Services) => services.org.realm.playgrounds ?? [];

/** POST /realm/playgrounds */
export async function addPlayground(services: Services, user: UserRecord, name: string, pygmentsLanguage: string, urlTemplate: string): Promise<number> {
  requireAdmin(user);
  checkPygmentsLanguage(pygmentsLanguage);
  return services.write((tx) => {
    const record = { id: 0, name: name.trim(), pygmentsLanguage: pygmentsLanguage.trim(), urlTemplate: urlTemplate.trim() };
    checkPlayground(record.name, record.pygmentsLanguage, record.urlTemplate, playgroundsOf(services));
    record.id = services.counters.nextRealmId(services.org.id, 'playground', tx);
    savePlaygrounds(services, tx, [...playgroundsOf(services), record]);
    return record.id;
  });
}

/** DELETE /realm/playgrounds/{playground_id} */
export async function removePlayground(services: Services, user: UserRecord, id: number): Promise<void> {
  requireAdmin(user);
  await services.write((tx) => {
    if (!playgroundsOf(services).some((p) => p.id === id)) throw badRequest('Invalid playground');
    savePlaygrounds(services, tx, playgroundsOf(services).filter((p) => p.id !== id));
  });
}
