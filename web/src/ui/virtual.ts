/** A Preact hook around @tanstack/virtual-core: only the rows near the viewport are in the DOM. */
import { elementScroll, observeElementOffset, observeElementRect, Virtualizer, type VirtualizerOptions } from '@tanstack/virtual-core';
import { useLayoutEffect, useReducer, useState } from 'preact/hooks';

type Options = Omit<VirtualizerOptions<HTMLDivElement, Element>, 'scrollToFn' | 'observeElementRect' | 'observeElementOffset' | 'onChange'>;

export function useVirtualizer(options: Options): Virtualizer<HTMLDivElement, Element> {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const full: VirtualizerOptions<HTMLDivElement, Element> = {
    ...options,
    scrollToFn: elementScroll,
    observeElementRect,
    observeElementOffset,
    onChange: () => rerender(undefined as never),
  };
  const [virtualizer] = useState(() => new Virtualizer(full));
  virtualizer.setOptions(full);
  useLayoutEffect(() => virtualizer._didMount(), [virtualizer]);
  useLayoutEffect(() => virtualizer._willUpdate());
  return virtualizer;
}
