/** Which subdomains a new organization may take (Zulip's check_subdomain_available). */
import { test } from 'tap';
import { isReservedSubdomain, subdomainRefusal, SUBDOMAIN_ERRORS } from '../../src/domain/subdomain-rules.js';

test('a free name of lowercase letters, digits and inner hyphens is accepted', async (t) => {
  for (const name of ['red', 'team-a2', 'x9z', 'a'.repeat(40)]) t.equal(subdomainRefusal(name, false), undefined, name);
});

test('each broken rule gets Zulip\'s message', async (t) => {
  t.equal(subdomainRefusal('-red', false), SUBDOMAIN_ERRORS.extremalDash);
  t.equal(subdomainRefusal('red-', false), SUBDOMAIN_ERRORS.extremalDash);
  t.equal(subdomainRefusal('Red', false), SUBDOMAIN_ERRORS.badCharacter);
  t.equal(subdomainRefusal('re.d', false), SUBDOMAIN_ERRORS.badCharacter);
  t.equal(subdomainRefusal('ré', false), SUBDOMAIN_ERRORS.badCharacter);
  t.equal(subdomainRefusal('ab', false), SUBDOMAIN_ERRORS.tooShort);
  t.equal(subdomainRefusal('a'.repeat(41), false), SUBDOMAIN_ERRORS.tooLong);
  t.equal(subdomainRefusal('red', true), SUBDOMAIN_ERRORS.unavailable, 'taken by another organization');
  t.equal(subdomainRefusal('', false), SUBDOMAIN_ERRORS.unavailable, 'the root organization is made at the first start only');
});

test('reserved names and their plurals are unavailable', async (t) => {
  for (const name of ['www', 'api', 'admin', 'stream', 'streams', 'zulip', 'localhost', 'uploads', 'admins']) {
    t.ok(isReservedSubdomain(name), name);
    t.equal(subdomainRefusal(name, false), SUBDOMAIN_ERRORS.unavailable, name);
  }
  for (const name of ['red', 'blue', 'engineers-guild']) t.notOk(isReservedSubdomain(name), name);
});
