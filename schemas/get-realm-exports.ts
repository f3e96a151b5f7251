/** Parameters of GET /export/realm, GET /export/realm/consents, DELETE /export/realm/{export_id} and the tarball's download: none but the path's. */
export const getRealmExports = {
  "$id": "get-realm-exports",
  "description": "GET /export/realm, GET /export/realm/consents, DELETE /export/realm/{export_id}",
  "type": "object",
  "properties": {}
} as const;
