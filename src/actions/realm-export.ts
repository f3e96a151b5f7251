/**
 * Data exports (Zulip's `export_realm`, `delete_realm_export`): the request is recorded and
 * answered at once; the export is made after the write is durable, outside the request, then
 * recorded as made (or failed) with a `realm_export` event to the administrators and, on
 * success, a note from the notification bot to whoever asked.
 */
import { badRequest } from '../domain/errors.js';
import { checkExportAllowed, deletionRefusal, EXPORT_TYPES, type RealmExportRecord } from '../domain/realm-export.js';
import { isAdmin } from '../domain/roles.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { exportFiles } from '../queries/export-data.js';
import { exportsOf, exportStore } from '../queries/realm-export.js';
import { notifyDirect } from './notifications.js';

const NOT_ADMIN = 'Must be an organization administrator';

function humanAdmins(services: Services): number[] {
  return [...services.org.users.all()].filter((u) => u.isActive && !u.isBot && isAdmin(u.role)).map((u) => u.id);
}

/** Replaces one export record and tells the administrators (Zulip's `notify_realm_export`), unless `quiet`. */
function saveExport(services: Services, tx: Transaction, record: RealmExportRecord, quiet = false): void {
  const { org } = services;
  const others = (org.realm.exports ?? []).filter((e) => e.id !== record.id);
  const exports = [...others, record].sort((a, b) => a.id - b.id);
  org.saveRealm({ ...org.realm, exports }, tx);
  if (!quiet) tx.emit({ type: 'realm_export', exports: exportsOf(services) }, humanAdmins(services));
}

/** `POST /export/realm` */
export async function requestExport(services: Services, actor: UserRecord, type: number): Promise<{ id: number }> {
  if (!isAdmin(actor.role)) throw badRequest(NOT_ADMIN);
  if (!EXPORT_TYPES.includes(type)) throw badRequest('Invalid export_type');
  const now = services.clock.now() / 1000;
  const record = await services.write((tx) => {
    checkExportAllowed(services.org.realm.exports ?? [], now);
    const created: RealmExportRecord = {
      id: services.counters.nextRealmId(services.org.id, 'realm_export', tx), actingUserId: actor.id, type, status: 'requested',
      requestedAt: now, failedAt: null, deletedAt: null, file: null,
    };
    saveExport(services, tx, created);
    // Made once the request is durable, after the answer: an export can take minutes.
    tx.afterCommit.push(() => services.background.run(() => makeExport(services, created.id)));
    return created;
  });
  return { id: record.id };
}

const current = (services: Services, id: number) => services.org.realm.exports?.find((e) => e.id === id);

/**
 * Makes the tarball and records the outcome; never throws. The export is first recorded as
 * started (Zulip's `export_realm_wrapper`; nothing for the clients to hear, it stays pending), so
 * that a start after a stop or crash knows it was under way (see `resumeExports`).
 */
export async function makeExport(services: Services, id: number): Promise<void> {
  const record = current(services, id);
  if (!record || record.status !== 'requested') return;
  try {
    await services.write((tx) => saveExport(services, tx, { ...current(services, id)!, status: 'started' }, true));
    const file = await exportStore(services).write(services.org.id, await exportFiles(services, record.type));
    await services.write((tx) => {
      saveExport(services, tx, { ...current(services, id)!, status: 'succeeded', file });
      const actor = services.org.users.get(record.actingUserId);
      if (actor?.isActive) notifyDirect(services, tx, actor, 'Your data export is complete. [View and download exports](/#organization/data-exports-admin).');
    });
  } catch (error) {
    services.logger.error({ err: error, exportId: id }, 'data export failed');
    await services
      .write((tx) => saveExport(services, tx, { ...current(services, id)!, status: 'failed', failedAt: services.clock.now() / 1000 }))
      .catch(() => undefined);
  }
}

/**
 * On start, the exports a stop or crash left pending, as Zulip's deferred-work worker takes its
 * redelivered `realm_export` events: one never started is made now; one that was under way is
 * marked failed (Zulip: "possible OOM during export?"), with its `realm_export` event, and is
 * not retried, since what stopped it may stop it again.
 */
export async function resumeExports(services: Services): Promise<void> {
  const pending = (services.org.realm.exports ?? []).filter((e) => e.status === 'requested' || e.status === 'started');
  for (const record of pending) {
    if (record.status === 'requested') {
      services.background.run(() => makeExport(services, record.id));
      continue;
    }
    services.logger.error({ exportId: record.id }, 'marking a data export failed: it was under way when the server stopped');
    await services.write((tx) => saveExport(services, tx, { ...current(services, record.id)!, status: 'failed', failedAt: services.clock.now() / 1000 }));
  }
}

/** `DELETE /export/realm/{export_id}` */
export async function deleteExport(services: Services, actor: UserRecord, id: number): Promise<Record<string, never>> {
  if (!isAdmin(actor.role)) throw badRequest(NOT_ADMIN);
  const file = await services.write((tx) => {
    const record = current(services, id);
    const refusal = deletionRefusal(record);
    if (refusal) throw badRequest(refusal);
    saveExport(services, tx, { ...record!, status: 'deleted', deletedAt: services.clock.now() / 1000 });
    return record!.file;
  });
  if (file) await exportStore(services).remove(file);
  return {};
}
