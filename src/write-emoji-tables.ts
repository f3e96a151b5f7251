/**
 * Build step (`npm run build`): writes the Unicode emoji name tables beside the compiled
 * `domain/emoji.js`, so that a server reads them instead of indexing emojibase's sets on its
 * first emoji. Made from the installed emojibase-data each build, so they never go stale.
 */
import { writeFileSync } from 'node:fs';
import { emojiTablesJson } from './domain/emoji.js';

writeFileSync(new URL('./domain/emoji-tables.json', import.meta.url), emojiTablesJson());
