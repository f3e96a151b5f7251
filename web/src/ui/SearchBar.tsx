/** One search box with Zulip's operators (channel:, topic:, sender:, is:, has:, words); shows the current narrow as text. */
import { useEffect, useState } from 'preact/hooks';
import type { App } from '../app/app.js';
import { HOME, narrowKey, parseSearch, searchText, type Narrow, type Term } from '../state/narrow.js';

export function describe(app: App, narrow: Narrow): string {
  // The combined feed is what an empty search box shows.
  if (narrowKey(narrow) === narrowKey(HOME)) return '';
  return searchText(narrow, (t: Term) => {
    if (t.operator === 'channel' && typeof t.operand === 'number') return app.channelName(t.operand);
    if (t.operator === 'dm' && Array.isArray(t.operand)) return t.operand.map((id) => app.user(id)?.email ?? id).join(',');
    return undefined;
  });
}

/** Search terms with channel names turned into ids where the client knows them (so that the narrow updates live). */
export function resolveNames(app: App, narrow: Narrow): Narrow {
  return narrow.map((t) => {
    if (t.operator === 'channel' && typeof t.operand === 'string') {
      const sub = [...app.subscriptions.values(), ...app.channels.values()].find((s) => s.name.toLowerCase() === String(t.operand).toLowerCase());
      if (sub) return { ...t, operand: sub.stream_id };
    }
    return t;
  });
}

export function SearchBar({ app, onSearch, inputRef }: { app: App; onSearch: (narrow: Narrow) => void; inputRef: preact.RefObject<HTMLInputElement> }) {
  const narrow = app.narrow.value;
  const [text, setText] = useState('');
  // Again once registered: channel ids then have names.
  useEffect(() => setText(describe(app, narrow)), [narrow, app.subscriptions]);
  return (
    <form role="search" class="search" onSubmit={(e) => (e.preventDefault(), onSearch(text.trim() ? resolveNames(app, parseSearch(text)) : HOME))}>
      <input ref={inputRef} type="search" aria-label="Search messages" placeholder="Search (channel: topic: sender: is: has: words)" value={text}
        onInput={(e) => setText(e.currentTarget.value)} onKeyDown={(e) => e.key === 'Escape' && (e.currentTarget.blur(), setText(describe(app, narrow)))} />
    </form>
  );
}

/** The heading of a narrow: `#channel › topic`, `You and Iago`, `Starred`, or the search's text. */
export function placeName(app: App, narrow: Narrow): string {
  const channel = narrow.find((t) => t.operator === 'channel' && !t.negated);
  const topic = narrow.find((t) => t.operator === 'topic' && !t.negated);
  const dm = narrow.find((t) => t.operator === 'dm' && !t.negated);
  const plain = narrow.length === 1 || (narrow.length === 2 && channel && topic);
  if (narrow.length === 0 || narrowKey(narrow) === narrowKey(HOME)) return 'Combined feed';
  if (plain && channel && typeof channel.operand === 'number') return `#${app.channelName(channel.operand)}${topic ? ` › ${String(topic.operand)}` : ''}`;
  if (plain && dm && Array.isArray(dm.operand)) return dm.operand.length === 1 && dm.operand[0] === app.selfId ? 'Notes to self' : `You and ${dm.operand.map((id) => app.userName(id)).join(', ')}`;
  if (plain && narrow[0]!.operator === 'is' && narrow[0]!.operand === 'starred') return 'Starred';
  if (plain && narrow[0]!.operator === 'is' && narrow[0]!.operand === 'mentioned') return 'Mentions';
  return `Search: ${describe(app, narrow)}`;
}
