/** The emoji name tables the build writes are the ones emojibase's sets give now (never stale), and the server reads them. */
import { readFileSync } from 'node:fs';
import { test } from 'tap';
import { emojiTablesJson, unicodeEmojiCode, unicodeEmojiName } from '../../src/domain/emoji.js';

test('the built emoji tables match the installed emojibase data', async (t) => {
  const built = readFileSync(new URL('../../src/domain/emoji-tables.json', import.meta.url), 'utf8');
  t.equal(built, emojiTablesJson(), 'the file the build wrote is what the sets give');
  const tables = JSON.parse(built) as { codeByName: [string, string][]; nameByCode: [string, string][] };
  t.ok(tables.codeByName.length > 3000, 'thousands of names');
  t.equal(unicodeEmojiCode('tada'), '1f389');
  t.equal(unicodeEmojiName('1f389'), 'tada', 'the canonical name, as Zulip');
  t.equal(unicodeEmojiCode('+1'), unicodeEmojiCode('thumbs_up'), 'aliases reach one code');
});
