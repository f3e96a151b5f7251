/** Addresses, CIDR ranges and the client's address behind trusted proxies (PARLEY_TRUSTED_PROXIES). */
import { test } from 'tap';
import { canonicalIp, clientAddress, inRanges, parseIp, parseRange, type IpRange } from '../../src/domain/ip-ranges.js';

const ranges = (...texts: string[]): IpRange[] => texts.map((text) => parseRange(text)!);

test('addresses: IPv4, IPv6, mapped, and uWS\'s long form are one address each', async (t) => {
  t.equal(parseIp('127.0.0.1'), parseIp('::ffff:127.0.0.1'));
  t.equal(parseIp('0000:0000:0000:0000:0000:ffff:7f00:0001'), parseIp('127.0.0.1'), 'uWS reports IPv4 peers in full IPv6 text');
  t.equal(parseIp('2001:db8::1'), parseIp('2001:0db8:0000:0000:0000:0000:0000:0001'));
  t.equal(parseIp('[::1]'), parseIp('::1'));
  t.equal(parseIp('fe80::1%eth0'), parseIp('fe80::1'));
  t.equal(canonicalIp('0000:0000:0000:0000:0000:ffff:7f00:0001'), '127.0.0.1');
  t.equal(canonicalIp('2001:db8::1'), '2001:db8:0:0:0:0:0:1');
  for (const bad of ['', 'example.com', '1.2.3', '256.1.1.1', '::g']) t.equal(parseIp(bad), undefined, `not an address: '${bad}'`);
});

test('ranges', async (t) => {
  t.ok(inRanges('10.1.2.3', ranges('10.0.0.0/8')));
  t.notOk(inRanges('11.0.0.1', ranges('10.0.0.0/8')));
  t.ok(inRanges('0000:0000:0000:0000:0000:ffff:0a00:0001', ranges('10.0.0.0/8')), 'a mapped peer is in an IPv4 range');
  t.ok(inRanges('192.168.1.77', ranges('192.168.1.64/26')));
  t.notOk(inRanges('192.168.1.128', ranges('192.168.1.64/26')));
  t.ok(inRanges('2001:db8::42', ranges('2001:db8::/32')));
  t.notOk(inRanges('2001:db9::42', ranges('2001:db8::/32')));
  t.ok(inRanges('127.0.0.1', ranges('127.0.0.1')), 'a single address');
  t.ok(inRanges('8.8.8.8', ranges('0.0.0.0/0')));
  t.notOk(inRanges('2001:db8::1', ranges('0.0.0.0/0')), 'all of IPv4 is not all of IPv6');
  t.notOk(inRanges('127.0.0.1', []));
  for (const bad of ['10.0.0.0/33', '::/129', '10.0.0.0/8/1', 'proxy', '10.0.0.0/x', '']) t.equal(parseRange(bad), undefined, `not a range: '${bad}'`);
});

test('the client behind trusted proxies', async (t) => {
  const trusted = ranges('127.0.0.1', '10.0.0.0/8');
  t.equal(clientAddress('127.0.0.1', '203.0.113.7', trusted), '203.0.113.7', 'the proxy tells the client');
  t.equal(clientAddress('127.0.0.1', '203.0.113.7, 10.0.0.2', trusted), '203.0.113.7', 'through two proxies');
  t.equal(clientAddress('127.0.0.1', '198.51.100.9, 203.0.113.7', trusted), '203.0.113.7', 'what the client wrote itself stays to the left');
  t.equal(clientAddress('192.0.2.5', '203.0.113.7', trusted), '192.0.2.5', 'an untrusted peer cannot name another address');
  t.equal(clientAddress('127.0.0.1', '', trusted), '127.0.0.1', 'no header: the peer');
  t.equal(clientAddress('127.0.0.1', 'garbage, 203.0.113.7', trusted), '203.0.113.7', 'the rightmost untrusted hop counts');
  t.equal(clientAddress('127.0.0.1', '203.0.113.7, garbage', trusted), '127.0.0.1', 'a malformed hop where the proxy wrote: nothing of it is trusted');
  t.equal(clientAddress('127.0.0.1', '10.0.0.9, 10.0.0.2', trusted), '10.0.0.9', 'all hops trusted: the leftmost');
  t.equal(clientAddress('0000:0000:0000:0000:0000:ffff:7f00:0001', '2001:db8::1', trusted), '2001:db8:0:0:0:0:0:1');
  t.equal(clientAddress('0000:0000:0000:0000:0000:ffff:7f00:0001', '', []), '127.0.0.1', 'one key per client, however the socket spells it');
});
