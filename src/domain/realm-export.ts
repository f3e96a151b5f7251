/** Data exports of an organization (Zulip's `RealmExport`): their kinds, life, limits and the API's object. */
import { badRequest } from './errors.js';

/** Zulip's export types at feature level 416 (integers; strings from level 449 on). */
export const ExportType = { PUBLIC: 1, FULL_WITH_CONSENT: 2 } as const;
export const EXPORT_TYPES: readonly number[] = Object.values(ExportType);

export type ExportStatus = 'requested' | 'started' | 'succeeded' | 'failed' | 'deleted';

export interface RealmExportRecord {
  id: number;
  actingUserId: number;
  type: number;
  status: ExportStatus;
  /** Unix seconds (with fractions, as Zulip's timestamps). */
  requestedAt: number;
  failedAt: number | null;
  deletedAt: number | null;
  /** The file's name below the exports directory, once made. */
  file: string | null;
}

/** Zulip's limit: five exports a week per organization. */
const EXPORT_LIMIT = 5;
const WEEK_SECONDS = 7 * 86400;

export function checkExportAllowed(exports: readonly RealmExportRecord[], now: number): void {
  if (exports.filter((e) => e.requestedAt >= now - WEEK_SECONDS).length >= EXPORT_LIMIT) throw badRequest('Exceeded rate limit.');
}

/** Zulip's `delete_realm_export` refusals, in its order. */
export function deletionRefusal(record: RealmExportRecord | undefined): string | null {
  if (!record) return 'Invalid data export ID';
  if (record.deletedAt !== null) return 'Export already deleted';
  if (record.status === 'failed') return 'Export failed, nothing to delete';
  if (record.status === 'requested' || record.status === 'started') return 'Export still in progress';
  return null;
}

/** The export object of `GET /export/realm` and `realm_export` events. */
export function exportObject(record: RealmExportRecord, realmUrl: string): Record<string, unknown> {
  const done = record.status === 'succeeded' && record.file !== null && record.deletedAt === null;
  return {
    id: record.id,
    acting_user_id: record.actingUserId,
    export_time: record.requestedAt,
    deleted_timestamp: record.deletedAt,
    failed_timestamp: record.failedAt,
    export_url: done ? `${realmUrl}/user_avatars/exports/${record.file}` : null,
    pending: record.status === 'requested' || record.status === 'started',
    export_type: record.type,
  };
}
