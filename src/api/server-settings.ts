/** `GET /server_settings`: what a client reads before it logs in. */
import { pushConfigured } from '../queries/push-devices.js';
import { realmIconUrl, realmSetting, renderedRealmDescription } from '../domain/realm.js';
import { ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from '../domain/versions.js';
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import type { Request } from './route.js';

/** GET /server_settings */
export function getServerSettings(services: Services, _request: Request<typeof schemas.getServerSettings>) {
  const { org } = services;
  return {
    authentication_methods: {
      password: true,
      dev: false,
      email: true,
      ldap: false,
      remoteuser: false,
      github: false,
      azuread: false,
      gitlab: false,
      apple: false,
      google: false,
      saml: false,
      'openid connect': false,
    },
    external_authentication_methods: [],
    zulip_feature_level: ZULIP_FEATURE_LEVEL,
    zulip_version: ZULIP_VERSION,
    zulip_merge_base: ZULIP_MERGE_BASE,
    push_notifications_enabled: pushConfigured(services),
    is_incompatible: false,
    email_auth_enabled: true,
    require_email_format_usernames: true,
    realm_url: org.url,
    realm_uri: org.url,
    realm_name: org.realm.name,
    realm_icon: realmIconUrl(org.realm.subdomain),
    realm_description: renderedRealmDescription(org.realm.description),
    realm_web_public_access_enabled:
      realmSetting(org.realm, 'web_public_streams_enabled') && realmSetting(org.realm, 'enable_spectator_access'),
  };
}
