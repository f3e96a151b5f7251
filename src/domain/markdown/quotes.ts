/** Blockquotes silence mentions: the core `inline` step, told for each paragraph whether it sits in a quote. */
import type { StateCore } from 'markdown-it';
import { renderState } from './context.js';

/** Replaces markdown-it's core `inline` rule, which parses each block's inline content. */
export function inlineWithQuoteDepth(state: StateCore): void {
  const render = renderState(state.env);
  let depth = 0;
  for (const token of state.tokens) {
    if (token.type === 'blockquote_open') depth++;
    else if (token.type === 'blockquote_close') depth--;
    else if (token.type === 'inline') {
      render.quoted = depth > 0;
      state.md.inline.parse(token.content, state.md, state.env, (token.children ??= []));
    }
  }
  render.quoted = false;
}
