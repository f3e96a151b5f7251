/** Reading data exports: the list, the consent of each user, and the tarballs themselves (for administrators). */
import { join } from 'node:path';
import { ApiError } from '../domain/errors.js';
import { exportObject } from '../domain/realm-export.js';
import { isAdmin } from '../domain/roles.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { RawAnswer } from '../shared/handler-result.js';
import { ExportFiles } from '../store/export-files.js';

const NOT_ADMIN = () => new ApiError('BAD_REQUEST', 'Must be an organization administrator');

export const exportStore = (services: Services) => new ExportFiles(join(services.config.dataDir, 'exports'));

export function exportsOf(services: Services): Record<string, unknown>[] {
  return (services.org.realm.exports ?? []).map((e) => exportObject(e, services.org.url));
}

/** `GET /export/realm` */
export function listExports(services: Services, actor: UserRecord) {
  if (!isAdmin(actor.role)) throw NOT_ADMIN();
  return { exports: exportsOf(services) };
}

/** `GET /export/realm/consents`: each active person's `allow_private_data_export`. */
export function exportConsents(services: Services, actor: UserRecord) {
  if (!isAdmin(actor.role)) throw NOT_ADMIN();
  const people = [...services.org.users.all()].filter((u) => u.isActive && !u.isBot);
  return { export_consents: people.map((u) => ({ user_id: u.id, consented: u.settings.allow_private_data_export === true })) };
}

/** `GET /user_avatars/exports/{realm_id}/{token}/{file}`: a made export, to administrators. */
export async function serveExport(services: Services, actor: UserRecord, name: string): Promise<RawAnswer> {
  if (!isAdmin(actor.role)) throw new ApiError('BAD_REQUEST', 'Must be an organization administrator', 403);
  const record = (services.org.realm.exports ?? []).find((e) => e.file === name && e.deletedAt === null);
  const bytes = record ? await exportStore(services).read(name) : undefined;
  if (!bytes) throw new ApiError('BAD_REQUEST', 'File not found.', 404);
  const file = name.split('/').at(-1)!;
  return new RawAnswer(200, { 'Content-Type': 'application/gzip', 'Content-Disposition': `attachment; filename="${file}"` }, bytes);
}
