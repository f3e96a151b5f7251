/** Unicode emoji names and codes (from iamcal's emoji-data) in Zulip's code format, plus Zulip's extra emoji. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The `reaction_type` values Zulip uses for the three kinds of emoji. */
export type EmojiReactionType = 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';

/**
 * Zulip's extra emoji (reaction type `zulip_extra_emoji`): name → code. No prototype, so that a
 * name like `toString` finds nothing.
 */
export const ZULIP_EXTRA_EMOJI: Readonly<Record<string, string>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, string>, { zulip: 'zulip' }),
);

interface EmojiRecord {
  unified: string;
  short_names: string[];
  category: string;
}

interface EmojiMaps {
  codeByName: Map<string, string>;
  nameByCode: Map<string, string>;
}

// Immutable once built; built on first use so that importing this module costs nothing.
let maps: EmojiMaps | undefined;

/**
 * Zulip's code for an emoji: lowercase hex codepoints joined by `-`, without the U+FE0F
 * presentation selector anywhere (what `non_qualified` holds when iamcal provides it).
 */
function zulipCode(unified: string): string {
  return unified
    .toLowerCase()
    .split('-')
    .filter((codepoint) => codepoint !== 'fe0f')
    .join('-');
}

function emojiMaps(): EmojiMaps {
  if (maps) return maps;
  // Read rather than require: the 1.5 MB of records should not stay in the module cache.
  const path = createRequire(import.meta.url).resolve('emoji-datasource/emoji.json');
  const records = JSON.parse(readFileSync(path, 'utf8')) as EmojiRecord[];
  const codeByName = new Map<string, string>();
  const nameByCode = new Map<string, string>();
  for (const record of records) {
    // Zulip has no emoji for the bare skin-tone modifiers.
    if (record.category === 'Component') continue;
    const code = zulipCode(record.unified);
    if (!nameByCode.has(code) && record.short_names.length > 0) nameByCode.set(code, record.short_names[0]);
    for (const name of record.short_names) if (!codeByName.has(name)) codeByName.set(name, code);
  }
  maps = { codeByName, nameByCode };
  return maps;
}

/** The Unicode emoji code for any of an emoji's names (`tada` → `1f389`), or undefined. */
export function unicodeEmojiCode(name: string): string | undefined {
  return emojiMaps().codeByName.get(name);
}

/** The canonical (first) name of the Unicode emoji with this code, or undefined. */
export function unicodeEmojiName(code: string): string | undefined {
  return emojiMaps().nameByCode.get(code);
}

export function isUnicodeEmojiCode(code: string): boolean {
  return emojiMaps().nameByCode.has(code);
}
