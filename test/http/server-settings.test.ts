/**
 * Black-box tests of GET /server_settings, on a fresh demo organization.
 */
import { test } from 'tap';
import { world } from '../helpers/world.js';

test('GET /server_settings', async (t) => {
  t.test('GET /server_settings', async (t) => {
    const { server, anonymous } = await world(t);
    const settings = await anonymous.get('/server_settings');
    t.equal(settings.status, 200);
    t.match(settings.body, {
      result: 'success',
      zulip_feature_level: 416,
      push_notifications_enabled: false,
      email_auth_enabled: true,
      require_email_format_usernames: true,
      realm_url: server.url,
      realm_uri: server.url,
      realm_name: 'Parley Demo',
      realm_description: '<p>The coolest place in the universe.</p>',
      realm_web_public_access_enabled: false,
      authentication_methods: { password: true, email: true, ldap: false },
      external_authentication_methods: [],
    });
    t.type(settings.body.zulip_version, 'string');
    t.type(settings.body.zulip_merge_base, 'string');
    t.match(settings.body.realm_icon, /^https:\/\/secure\.gravatar\.com\/avatar\/d41d8cd98f00b204e9800998ecf8427e\?d=identicon$/);
  });
});
