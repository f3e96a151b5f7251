/** Data exports: `POST`/`GET /export/realm`, `DELETE /export/realm/{export_id}`, `GET /export/realm/consents`, and the tarball (outside /api/v1). */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import * as actions from '../actions/realm-export.js';
import * as queries from '../queries/realm-export.js';

/** POST /export/realm */
export function exportRealm(services: Services, request: Request<typeof schemas.exportRealm>) {
  return actions.requestExport(services, me(request), request.params.export_type);
}

/** GET /export/realm */
export function getRealmExports(services: Services, request: Request<typeof schemas.getRealmExports>) {
  return queries.listExports(services, me(request));
}

/** DELETE /export/realm/{export_id} */
export function deleteRealmExport(services: Services, request: Request<typeof schemas.getRealmExports, { export_id: number }>) {
  return actions.deleteExport(services, me(request), request.params.export_id);
}

/** GET /export/realm/consents */
export function getExportConsents(services: Services, request: Request<typeof schemas.getRealmExports>) {
  return queries.exportConsents(services, me(request));
}

/** GET /user_avatars/exports/{realm_id}/{token}/{file} (outside /api/v1) */
export function serveExport(services: Services, request: Request<typeof schemas.getRealmExports, { realm_id: string; token: string; file: string }>) {
  const p = request.params;
  return queries.serveExport(services, me(request), `${p.realm_id}/${p.token}/${p.file}`);
}
