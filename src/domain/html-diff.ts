/** The `content_html_diff` of message edit history: a word diff of two rendered messages, as HTML. */
import { diffArrays } from 'diff';

/** A tag, or a word; either carries the whitespace that follows it. */
interface Token {
  text: string;
  isTag: boolean;
  /** What the diff compares: the token without its trailing whitespace. */
  key: string;
}

// A tag may hold '>' only inside a quoted attribute value. A '<' that opens no tag (unescaped
// text) is read as a word, so no input character is lost.
const TOKEN = /<(?:[^<>"']|"[^"]*"|'[^']*')*>\s*|[^<\s]+\s*|<[^<\s]*\s*|\s+/g;

function tokenize(html: string): Token[] {
  return Array.from(html.matchAll(TOKEN), ([text]) => {
    const key = text.trimEnd();
    return { text, isTag: key.startsWith('<') && key.endsWith('>'), key };
  });
}

const INSERTED = '<span class="highlight_text_inserted">';
const DELETED = '<span class="highlight_text_deleted">';

/**
 * Wraps a run of words in a highlight span. Trailing whitespace stays outside, as lxml's
 * htmldiff does, so a deleted word keeps its neighbours apart; a run of only whitespace is
 * no visible change and is left bare.
 */
function wrap(open: string, run: string): string {
  const core = run.trimEnd();
  return core === '' ? run : `${open}${core}</span>${run.slice(core.length)}`;
}

/**
 * Zulip's content_html_diff, wrapped in <div>…</div>. Tags are never split or highlighted: the
 * output has exactly the new message's tags, so it is as well-formed as the new message. Text
 * that was removed is shown where it was, but its tags are dropped, since keeping them could
 * leave elements open or closed twice.
 */
export function htmlDiff(before: string, after: string): string {
  const changes = diffArrays(tokenize(before), tokenize(after), {
    comparator: (left, right) => left.key === right.key,
  });
  let out = '';
  let deleted = '';
  let inserted = '';
  let insertedRun = '';
  const flushInsertedRun = () => {
    inserted += wrap(INSERTED, insertedRun);
    insertedRun = '';
  };
  // Deleted text comes first in a change, then the inserted tokens, like lxml's output.
  const flushChange = () => {
    flushInsertedRun();
    out += deleted + inserted;
    deleted = '';
    inserted = '';
  };
  for (const change of changes) {
    if (change.removed) {
      let run = '';
      for (const token of change.value) {
        if (!token.isTag) {
          run += token.text;
        } else {
          deleted += wrap(DELETED, run);
          // The tag goes, but its whitespace may be all that separated two words.
          run = token.text.slice(token.key.length);
        }
      }
      deleted += wrap(DELETED, run);
    } else if (change.added) {
      for (const token of change.value) {
        if (token.isTag) {
          flushInsertedRun();
          inserted += token.text;
        } else {
          insertedRun += token.text;
        }
      }
      flushInsertedRun();
    } else {
      flushChange();
      // Tokens that match keep the new message's spelling, whitespace included.
      for (const token of change.value) out += token.text;
    }
  }
  flushChange();
  return `<div>${out}</div>`;
}
