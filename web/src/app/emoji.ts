/** Unicode emoji names and codes (the server's emoji data file) and custom emoji, for the picker and autocompletion. */
import { signal } from '@preact/signals';

export interface EmojiChoice {
  name: string;
  code: string;
  type: 'unicode_emoji' | 'realm_emoji';
  /** The glyph for unicode emoji, the image URL for custom ones. */
  glyph: string;
  isImage: boolean;
}

export interface EmojiData {
  unicode: EmojiChoice[];
  byName: Map<string, EmojiChoice>;
}

export function glyphOf(code: string): string {
  try {
    return String.fromCodePoint(...code.split('-').map((part) => parseInt(part, 16)));
  } catch {
    return '';
  }
}

export async function loadEmoji(url: string): Promise<EmojiData> {
  const answer = await fetch(url, { credentials: 'omit' });
  const data = (await answer.json()) as { code_to_names: Record<string, string[]> };
  const unicode: EmojiChoice[] = [];
  const byName = new Map<string, EmojiChoice>();
  for (const [code, names] of Object.entries(data.code_to_names)) {
    const glyph = glyphOf(code);
    for (const name of names) {
      const choice: EmojiChoice = { name, code, type: 'unicode_emoji', glyph, isImage: false };
      byName.set(name, choice);
      if (name === names[0]) unicode.push(choice);
    }
  }
  return { unicode, byName };
}

/** The emoji data, loaded once: `data` when here; `loaded` moves then (what shows it reads that signal). */
export class EmojiLoader {
  data: EmojiData | undefined;
  readonly loaded = signal(0);
  private asked = false;

  /** Starts loading from the registration's `server_emoji_data_url` unless loaded or loading. */
  need(url: unknown): void {
    if (this.data || this.asked || typeof url !== 'string') return;
    this.asked = true;
    loadEmoji(url).then((data) => ((this.data = data), this.loaded.value++), () => (this.asked = false));
  }
}

/** Frequently used first in the picker, as Zulip's "popular" set. */
export const POPULAR = ['+1', 'tada', 'smile', 'heart', 'working_on_it', 'octopus', 'thumbs_up', 'joy', 'eyes', 'check'];
