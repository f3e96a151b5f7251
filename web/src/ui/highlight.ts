/**
 * Code blocks in colour: the server marks a block's language (`data-code-language`) but sends it
 * uncoloured, so highlight.js colours it here. Loaded on first use, in its own chunk, so that the
 * first screen does not carry it.
 */
type HighlightJs = typeof import('highlight.js').default;

let loading: Promise<HighlightJs> | undefined;

export function highlightCode(root: HTMLElement): void {
  const blocks = root.querySelectorAll<HTMLElement>('div.codehilite[data-code-language] code:not(.hljs)');
  if (blocks.length === 0) return;
  loading ??= import('highlight.js/lib/common').then((m) => m.default);
  void loading.then((hljs) => {
    for (const code of blocks) {
      const language = code.closest<HTMLElement>('[data-code-language]')?.dataset.codeLanguage?.toLowerCase() ?? '';
      if (!hljs.getLanguage(language) || code.classList.contains('hljs')) continue;
      // highlight.js escapes the text it reads from the element; its output is spans with classes only.
      code.innerHTML = hljs.highlight(code.textContent ?? '', { language, ignoreIllegals: true }).value;
      code.classList.add('hljs');
    }
  });
}
