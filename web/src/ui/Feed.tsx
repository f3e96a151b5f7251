/** The message feed of the current narrow: virtualised rows, history paging at the top, stuck to the bottom for new messages, read as seen. */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import type { App } from '../app/app.js';
import { feedRows, reuseRows, type FeedRow } from '../state/feed.js';
import { narrowKey } from '../state/narrow.js';
import type { MessageList } from '../state/messages.js';
import { useVirtualizer } from './virtual.js';
import type { Virtualizer } from '@tanstack/virtual-core';
import { ConversationHeader, MessageRow } from './MessageRow.js';
import { memo } from './memo.js';

const NEAR_TOP_PX = 400;
const NEAR_BOTTOM_PX = 80;
/** A conversation header's height as drawn (styles.css): a close estimate spares a re-measure and a scroll correction per row. */
const HEADER_PX = 42;

export function Feed({ app, onReply }: { app: App; onReply: (messageId: number) => void }) {
  const narrow = app.narrow.value;
  const key = narrowKey(narrow);
  const list = app.messages.list(narrow);
  const rows = useFeedRows(app, list);
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const firstKey = useRef<string | undefined>(undefined);
  const anchor = useRef<{ key: string; delta: number } | undefined>(undefined);
  const virtualizer = useRowVirtualizer(rows, scroller, firstKey.current === undefined && atBottom.current);

  // A new narrow starts at its newest message.
  useLayoutEffect(() => {
    atBottom.current = true;
    firstKey.current = undefined;
  }, [key]);

  // Older rows put on top keep what the reader looks at in place; new rows at the bottom are followed if the reader was there.
  useLayoutEffect(() => {
    if (!rows.length) return;
    const prepended = firstKey.current !== undefined && rows[0]!.key !== firstKey.current && anchor.current;
    firstKey.current = rows[0]!.key;
    if (prepended && anchor.current) {
      const index = rows.findIndex((r) => r.key === anchor.current!.key);
      const at = index >= 0 ? virtualizer.getOffsetForIndex(index, 'start')?.[0] : undefined;
      if (at !== undefined) virtualizer.scrollToOffset(at + anchor.current.delta);
      anchor.current = undefined;
      return;
    }
    if (atBottom.current) virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
  }, [rows]);

  const markVisible = useReadOnSight(app, scroller, virtualizer, rows);
  // One ref function for all rows, as TanStack's own adapters pass it: a new one on each render made
  // Preact detach and attach every row's ref, and each attach measured the row again (a forced
  // layout per row per render). Rows are measured when mounted, then by the virtualizer's ResizeObserver.
  const measure = useCallback((el: HTMLDivElement | null) => virtualizer.measureElement(el), [virtualizer]);

  // The cursor moved (keys or a click): its message is brought into view; MessageRow focuses it.
  const selected = app.selected.value;
  useEffect(() => {
    if (selected === undefined) return;
    const index = rows.findIndex((r) => r.kind === 'message' && r.message.id === selected);
    if (index < 0) return;
    atBottom.current = index === rows.length - 1;
    virtualizer.scrollToIndex(index, { align: 'auto' });
  }, [selected]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
    if (el.scrollTop < NEAR_TOP_PX && list && !list.foundOldest && !app.loading.value) {
      const first = virtualizer.getVirtualItems().find((item) => item.end > el.scrollTop);
      if (first) anchor.current = { key: String(first.key), delta: el.scrollTop - first.start };
      void app.loadOlder();
    }
    markVisible();
  };

  const items = virtualizer.getVirtualItems();
  return (
    <div class="feed" ref={scroller} onScroll={onScroll} role="log" aria-label="Messages" aria-live="polite" tabIndex={-1}>
      {list && list.foundOldest && rows.length > 0 && <div class="feed-start">This is the beginning of the conversation.</div>}
      {!list && <div class="feed-empty">Loading…</div>}
      {list && rows.length === 0 && <div class="feed-empty">No messages here yet.</div>}
      <div class="feed-inner" style={{ height: `${virtualizer.getTotalSize()}px` }}>
        {items.map((item) => {
          const row = rows[item.index]!;
          return (
            <div key={item.key} data-index={item.index} ref={measure} class="feed-row" style={{ transform: `translateY(${item.start}px)` }}>
              {row.kind === 'header'
                ? <Header app={app} row={row} context={app.rowContext} />
                : <Row app={app} row={row} onReply={onReply} selected={row.message.id === selected} unread={app.unread.has(row.message.id)} context={app.rowContext} />}
            </div>
          );
        })}
      </div>
    </div>
  );
}

/**
 * The rows of a list. Rows whose message did not change keep their object: the memoised rows then
 * skip them (a read mark, a new message or a reaction re-renders the rows it touches, not all).
 */
function useFeedRows(app: App, list: MessageList | undefined): FeedRow[] {
  const kept = useRef(new Map<string, FeedRow>());
  // Read in the feed's render: a change to the messages or to what rows show re-renders the feed
  // (and the rows it touches), nothing else does.
  const feed = app.versions.feed.value;
  // The rows' unread marks (a read mark moves both versions; this says so here too).
  app.watch('unread');
  return useMemo(() => reuseRows(kept.current, list ? feedRows(app.messages.messagesOf(list), app.selfId) : []), [list, list?.ids, feed]);
}

/** The feed's size as last seen: every narrow's feed has the same box. */
let lastRect: { width: number; height: number } = { width: 0, height: 0 };

/**
 * The virtualizer over the rows. A narrow opens at its newest messages (`opening`): its first rows
 * drawn are those (from the estimated sizes), not the oldest ones followed by a second render once
 * the feed's layout effect has scrolled to the bottom (that render cost as much as the first). The
 * new feed starts with the size of the one before it: started at zero, it drew a few rows, measured
 * its box, and rendered again to fill it.
 */
function useRowVirtualizer(rows: FeedRow[], scroller: { current: HTMLDivElement | null }, opening: boolean): Virtualizer<HTMLDivElement, Element> {
  const virtualizer = useVirtualizer({
    initialRect: lastRect,
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (rows[i]?.kind === 'header' ? HEADER_PX : rows[i]?.kind === 'message' && rows[i].continued ? 28 : 56),
    getItemKey: (i) => rows[i]?.key ?? i,
    overscan: 8,
    measureElement: measureRow,
  });
  if (virtualizer.scrollRect) lastRect = virtualizer.scrollRect;
  if (opening && rows.length) virtualizer.scrollOffset = Math.max(0, virtualizer.getTotalSize() - (virtualizer.scrollRect?.height ?? lastRect.height));
  return virtualizer;
}

/**
 * The rows, memoised: besides their own props they show the unread mark (`unread`) and names,
 * roles, channels, topic policies and custom emoji (`context`, app.rowContext), compared here.
 */
const Row = memo(({ unread: _unread, context: _context, ...props }: Parameters<typeof MessageRow>[0] & { unread: boolean; context: number }) => <MessageRow {...props} />);
const Header = memo(({ context: _context, ...props }: Parameters<typeof ConversationHeader>[0] & { context: number }) => <ConversationHeader {...props} />);

/**
 * A row's height: from the ResizeObserver's entry (read after layout, all rows at once), or, when the
 * row is just mounted, the size already known (measured before, or estimated). The library's own
 * reads offsetHeight on mount, which made each switch lay the page out inside its render.
 */
function measureRow(el: Element, entry: ResizeObserverEntry | undefined, v: Virtualizer<HTMLDivElement, Element>): number {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  if (entry) return Math.round(el.getBoundingClientRect().height);
  const index = v.indexFromElement(el);
  return v.itemSizeCache.get(v.options.getItemKey(index)) ?? v.measurementsCache[index]?.size ?? v.options.estimateSize(index);
}

/** Messages on screen in a visible tab become read: after each render, on scroll, and when the tab comes back. */
function useReadOnSight(app: App, scroller: { current: HTMLDivElement | null }, virtualizer: Virtualizer<HTMLDivElement, Element>, rows: FeedRow[]): () => void {
  const markVisible = () => {
    const el = scroller.current;
    if (!el || document.visibilityState !== 'visible') return;
    const top = el.scrollTop;
    const bottom = top + el.clientHeight;
    const seen: number[] = [];
    for (const item of virtualizer.getVirtualItems()) {
      const row = rows[item.index];
      if (row?.kind === 'message' && item.start < bottom && item.end > top && Number.isInteger(row.message.id)) seen.push(row.message.id);
    }
    if (seen.length) app.markSeen(seen);
  };
  useEffect(() => {
    markVisible();
    document.addEventListener('visibilitychange', markVisible);
    window.addEventListener('focus', markVisible);
    return () => {
      document.removeEventListener('visibilitychange', markVisible);
      window.removeEventListener('focus', markVisible);
    };
  });
  return markVisible;
}
