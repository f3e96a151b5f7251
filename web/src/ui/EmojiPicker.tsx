/** The emoji picker: custom emoji first, then a search over every Unicode emoji name. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { App } from '../app/app.js';
import { POPULAR, type EmojiChoice } from '../app/emoji.js';
import { rank } from '../state/autocomplete.js';

const SHOWN = 80;

export function emojiChoices(app: App): EmojiChoice[] {
  // Asked for here (the picker opened, or ':' typed) if the timer after the start has not yet; the
  // signal read re-renders the caller (picker, compose box) when the data arrives.
  app.emoji.need(app.registration?.server_emoji_data_url);
  app.emoji.loaded.value;
  const custom: EmojiChoice[] = Object.values(app.realm.emoji)
    .filter((e) => !e.deactivated)
    .map((e) => ({ name: e.name, code: e.id, type: 'realm_emoji', glyph: e.source_url, isImage: true }));
  return [...custom, ...(app.emoji.data?.unicode ?? [])];
}

export function EmojiPicker({ app, onPick, onClose }: { app: App; onPick: (choice: EmojiChoice) => void; onClose: () => void }) {
  const [query, setQuery] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const all = emojiChoices(app);
  const popular = POPULAR.map((n) => app.emoji.data?.byName.get(n)).filter((e): e is EmojiChoice => e !== undefined);
  const custom = all.filter((e) => e.isImage);
  const shown = query ? rank(all, query, (e) => e.name, SHOWN) : [...custom, ...popular, ...all.filter((e) => !e.isImage && !popular.includes(e))].slice(0, SHOWN);
  return (
    <div class="emoji-picker" role="dialog" aria-label="Choose an emoji" onKeyDown={(e) => e.key === 'Escape' && (e.stopPropagation(), onClose())}>
      <input ref={input} type="search" placeholder="Search emoji" aria-label="Search emoji" value={query} onInput={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={(e) => e.key === 'Enter' && shown[0] && (e.preventDefault(), onPick(shown[0]))} />
      <div class="emoji-grid" role="listbox">
        {shown.map((e) => (
          <button type="button" role="option" key={`${e.type}:${e.code}:${e.name}`} title={`:${e.name}:`} aria-label={e.name} onClick={() => onPick(e)}>
            {e.isImage ? <img src={e.glyph} alt="" class="emoji" /> : e.glyph}
          </button>
        ))}
      </div>
    </div>
  );
}
