/**
 * Unicode emoji names and codes in Zulip's code format, plus Zulip's extra emoji. Names come
 * from emojibase's shortcode sets: CLDR's first (Zulip's names are mostly CLDR short names:
 * `thumbs_up`, `cat` is the whole cat), then iamcal's (`+1`, `tada`, `smile`), GitHub's and
 * JoyPixels'. Zulip's own name table is not published as a package; this union matches about
 * 80 % of its names and aliases.
 */
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

/** Shortcode sets, in order of preference when two give one name to different emoji. */
const NAME_ORDER = ['cldr', 'iamcal', 'github', 'joypixels'];
/** For an emoji's canonical name the everyday names (`+1`, `heart`, `tada`) come first, as in Zulip. */
const CANONICAL_ORDER = ['iamcal', 'cldr', 'github', 'joypixels'];

interface EmojiMaps {
  codeByName: Map<string, string>;
  nameByCode: Map<string, string>;
}

// Immutable once made; made on first use so that importing this module costs nothing.
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

/** Bare skin-tone modifiers: Zulip has no emoji for them. */
const SKIN_TONES = new Set(['1f3fb', '1f3fc', '1f3fd', '1f3fe', '1f3ff']);

/** The tables as `npm run build` leaves them beside this module (`src/write-emoji-tables.ts`). */
const TABLES_FILE = new URL('./emoji-tables.json', import.meta.url);

function emojiMaps(): EmojiMaps {
  // Reading the built tables takes a few milliseconds; building them from emojibase's sets takes
  // about a hundred, which the first reaction or emoji after a start would wait for.
  maps ??= readTables() ?? buildEmojiMaps();
  return maps;
}

function readTables(): EmojiMaps | undefined {
  try {
    const tables = JSON.parse(readFileSync(TABLES_FILE, 'utf8')) as { codeByName: [string, string][]; nameByCode: [string, string][] };
    return { codeByName: new Map(tables.codeByName), nameByCode: new Map(tables.nameByCode) };
  } catch {
    return undefined;
  }
}

/** The tables as the build writes them: both maps as entry lists, in their order. */
export function emojiTablesJson(): string {
  const built = buildEmojiMaps();
  return JSON.stringify({ codeByName: [...built.codeByName], nameByCode: [...built.nameByCode] });
}

function buildEmojiMaps(): EmojiMaps {
  const require = createRequire(import.meta.url);
  const codeByName = new Map<string, string>();
  const nameByCode = new Map<string, string>();
  // Read rather than require: the data should not stay in the module cache once indexed.
  const sets = new Map(NAME_ORDER.map((set) => {
    const path = require.resolve(`emojibase-data/en/shortcodes/${set}.json`);
    return [set, JSON.parse(readFileSync(path, 'utf8')) as Record<string, string | string[]>];
  }));
  const each = (order: string[], visit: (code: string, name: string) => void) => {
    for (const set of order) {
      for (const [hexcode, names] of Object.entries(sets.get(set)!)) {
        const code = zulipCode(hexcode);
        if (SKIN_TONES.has(code)) continue;
        for (const name of typeof names === 'string' ? [names] : names) visit(code, name);
      }
    }
  };
  each(NAME_ORDER, (code, name) => {
    if (!codeByName.has(name)) codeByName.set(name, code);
  });
  each(CANONICAL_ORDER, (code, name) => {
    if (!nameByCode.has(code)) nameByCode.set(code, name);
  });
  return { codeByName, nameByCode };
}

/** The Unicode emoji code for any of an emoji's names (`tada` → `1f389`), or undefined. */
export function unicodeEmojiCode(name: string): string | undefined {
  return emojiMaps().codeByName.get(name);
}

/** The canonical (first) name of the Unicode emoji with this code, or undefined. */
export function unicodeEmojiName(code: string): string | undefined {
  return emojiMaps().nameByCode.get(code);
}

/**
 * Every accepted Unicode emoji code with all the names that reach it, the canonical name first:
 * exactly what `unicodeEmojiCode` accepts, grouped by code (the `code_to_names` of Zulip's emoji
 * data file).
 */
export function emojiCodeToNames(): Map<string, string[]> {
  const { codeByName, nameByCode } = emojiMaps();
  const names = new Map<string, string[]>();
  for (const [name, code] of codeByName) {
    const list = names.get(code);
    if (!list) names.set(code, [name]);
    else if (name === nameByCode.get(code)) list.unshift(name);
    else list.push(name);
  }
  return names;
}

export function isUnicodeEmojiCode(code: string): boolean {
  return emojiMaps().nameByCode.has(code);
}
