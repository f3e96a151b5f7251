/** Unit tests of key range ends: a prefix range holds every key with that prefix, whatever characters follow. */
import { test } from 'tap';
import { rmSync } from 'node:fs';
import fc from 'fast-check';
import { Database } from '../../src/store/database.js';
import { prefixEnd, prefixRange } from '../../src/store/keys.js';
import { tempDataDir } from '../helpers/server.js';

/** LevelDB's order for utf8 keys: their bytes. */
const compare = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** Any string of characters (code points; surrogates are not characters), up to 8 of them. */
const text = (minLength = 0) =>
  fc
    .array(fc.integer({ min: 0, max: 0x10ffff }).filter((c) => c < 0xd800 || c > 0xdfff).map((c) => String.fromCodePoint(c)), { minLength, maxLength: 8 })
    .map((chars) => chars.join(''));

const HIGH = ['\u00ff', '\u00ffes', '\uffff', '\u{1F600}', '\u{10FFFF}', '中文', '\ud7ff', '\ue000'];

test('prefixEnd: every key with the prefix sorts below it, every other key above the prefix sorts at or above it', async (t) => {
  const suffix = fc.oneof(fc.constantFrom(...HIGH), text());
  // A prefix made only of U+10FFFF has no end (prefixEnd throws; tested below).
  const prefix = fc
    .oneof(
      fc.tuple(text(), fc.constantFrom('!', '\u00ff', '\ud7ff', '\u{10FFFF}', '中')).map(([a, b]) => a + b),
      text(1),
    )
    .filter((s) => [...s].some((c) => c !== '\u{10FFFF}'));
  fc.assert(
    fc.property(prefix, suffix, text(), (p, s, other) => {
      const end = prefixEnd(p);
      if (!(compare(p + s, end) < 0)) return false;
      if (!(compare(p, end) < 0)) return false;
      // A key without the prefix that sorts above the prefix's keys' start is past the end.
      if (!other.startsWith(p) && compare(other, p) > 0 && compare(other, end) < 0) return false;
      return true;
    }),
    { numRuns: 1000 },
  );
  t.pass('1000 random prefixes and suffixes hold');
  t.equal(prefixEnd('1!topic!000000000002!'), '1!topic!000000000002"', 'a separator is followed by the next character');
  t.equal(prefixEnd('a\ud7ff'), 'a\ue000', 'surrogates are skipped: UTF-8 has no bytes for them');
  t.equal(prefixEnd('a\u{10FFFF}'), 'b', 'the last code point has no successor: the one before it is incremented');
  t.throws(() => prefixEnd(''));
  t.throws(() => prefixEnd('\u{10FFFF}'));
  for (const s of HIGH) t.ok(compare('p!' + s, prefixEnd('p!')) < 0, `'p!' + U+${s.codePointAt(0)!.toString(16)} is inside`);
  t.ok(compare('p!' + '\u00ff', 'p!' + '\xff') >= 0, "the old end (prefix + '\\xff') left U+00FF out");
});

test('prefixRange on LevelDB: a scan finds keys with U+00FF, U+FFFF and astral characters, and nothing outside', async (t) => {
  const dir = tempDataDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = await Database.open(dir, { sync: false });
  t.teardown(() => db.close());
  const inside = ['a', ...HIGH.filter((s) => s !== '\ud7ff')].map((s) => `1!topic!000000000002!${s}`);
  const outside = ['1!topic!000000000002', '1!topic!000000000002"', '1!topic!000000000003!a', '1!topic!000000000002 !x', '1!topic!00000000000\u00ff'];
  await db.commit([...inside, ...outside].map((key) => ({ type: 'put', key, value: 1 })));
  const found: string[] = [];
  for await (const key of db.scanKeys(prefixRange('1!topic!000000000002!'))) found.push(key);
  t.same(found.sort(), [...inside].sort());
  const reverse: string[] = [];
  for await (const [key] of db.scan(prefixRange('1!topic!000000000002!'), { reverse: true })) reverse.push(key);
  t.same(reverse.sort(), [...inside].sort(), 'a reverse walk starts at the real end');
});
