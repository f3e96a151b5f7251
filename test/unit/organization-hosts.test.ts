/** Host header → organization, and each organization's URL (domain/organization-hosts.ts). */
import { test } from 'tap';
import { bareHost, isValidSubdomain, organizationUrl, subdomainOfHost } from '../../src/domain/organization-hosts.js';

const ROOT = 'https://chat.example.com';

test('the root host, its aliases, addresses, localhost and hosts not below the root are the root organization', async (t) => {
  for (const host of ['chat.example.com', 'CHAT.Example.COM', 'chat.example.com:443', 'chat.example.com.', 'chat.example.com..:8080', 'www.chat.example.com',
    '127.0.0.1', '127.0.0.1:9991', '10.1.2.3', '[::1]', '[::1]:9991', '[2001:db8::1]:443', 'localhost', 'localhost:9991', 'LocalHost.', '',
    // As Zulip's get_subdomain: a host that is not below the root names the root (a proxy's or balancer's own name).
    'example.com', 'evil.com', 'chat.example.com.evil.com', 'xchat.example.com', 'a.localhost', 'test']) {
    t.equal(subdomainOfHost(ROOT, host), '', `'${host}' is the root`);
  }
});

test('a subdomain under the root host is that organization, whatever the case, port or trailing dot', async (t) => {
  t.equal(subdomainOfHost(ROOT, 'a.chat.example.com'), 'a');
  t.equal(subdomainOfHost(ROOT, 'Team-A.Chat.Example.com:443'), 'team-a');
  t.equal(subdomainOfHost(ROOT, 'team-a.chat.example.com.'), 'team-a');
  t.equal(subdomainOfHost(ROOT, 'b2.chat.example.com:8443'), 'b2', 'the port is not compared: a proxy may change it');
});

test('names below the root that no organization can have', async (t) => {
  for (const host of ['a.b.chat.example.com', '-a.chat.example.com', 'a-.chat.example.com', 'a_b.chat.example.com', '.chat.example.com']) {
    t.equal(subdomainOfHost(ROOT, host), undefined, `'${host}' is no organization's`);
  }
});

test('a root on an address or localhost puts its organizations below localhost', async (t) => {
  for (const root of ['http://127.0.0.1:9991', 'http://localhost:9991', 'http://[::1]:9991']) {
    t.equal(subdomainOfHost(root, 'a.localhost:9991'), 'a', `${root}: a.localhost`);
    t.equal(subdomainOfHost(root, 'A.LOCALHOST.'), 'a');
    t.equal(subdomainOfHost(root, '127.0.0.1:9991'), '');
    t.equal(subdomainOfHost(root, 'a.b.localhost'), undefined);
    t.equal(organizationUrl(root, 'a'), 'http://a.localhost:9991');
    t.equal(organizationUrl(root, ''), root);
  }
});

test('an organization\'s URL keeps the root\'s scheme, port and path', async (t) => {
  t.equal(organizationUrl(ROOT, ''), ROOT);
  t.equal(organizationUrl(ROOT, 'a'), 'https://a.chat.example.com');
  t.equal(organizationUrl('http://chat.example.com:8080/', 'a'), 'http://a.chat.example.com:8080');
  t.equal(organizationUrl('https://chat.example.com/zulip', 'team'), 'https://team.chat.example.com/zulip');
  for (const subdomain of ['a', 'team-a', 'b2']) t.equal(subdomainOfHost(ROOT, new URL(organizationUrl(ROOT, subdomain)).host), subdomain, `${subdomain} round-trips`);
});

test('subdomains an organization may have', async (t) => {
  for (const good of ['', 'a', 'team-a', 'a1', 'x'.repeat(63)]) t.ok(isValidSubdomain(good), `'${good}'`);
  for (const bad of ['www', 'A', '-a', 'a-', 'a.b', 'a_b', ' a', 'x'.repeat(64)]) t.notOk(isValidSubdomain(bad), `'${bad}'`);
  t.equal(bareHost('A.Example.COM.:80'), 'a.example.com');
  t.equal(bareHost('[::1]:80'), '[::1]');
});
