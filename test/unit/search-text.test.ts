/** The text rules of full-text search: parsing an operand, the index query, prepared text, highlights. */
import { test } from 'tap';
import { ftsQuery, highlightQuery, isEmptySearch, parseSearchText, prepareText, renderHighlights, TOKEN_BREAK, MARK_OPEN as O, MARK_CLOSE as C } from '../../src/domain/search-text.js';

test('parsing a search operand', async (t) => {
  t.same(parseSearchText(['The quick, brown fox!']), { words: ['quick', 'brown', 'fox'], phrases: [] }, 'lowercased, punctuation and stop words dropped');
  t.same(parseSearchText(['"brown fox" jumps']), { words: ['jumps'], phrases: [['brown', 'fox']] }, 'quoted phrases');
  t.same(parseSearchText(['東京tower']), { words: ['tower'], phrases: [['東', '京']] }, 'unspaced text becomes a phrase of characters');
  t.same(parseSearchText(['café', 'deploy']), { words: ['café', 'deploy'], phrases: [] }, 'several operands');
  t.ok(isEmptySearch(parseSearchText(['the of "" ,'])), 'only stop words and punctuation');
  t.notOk(isEmptySearch(parseSearchText(['"the"'])), 'a quoted stop word is a phrase');
});

test('the index query', async (t) => {
  const stems: Record<string, string> = { deployments: 'deploy', deploy: 'deploi', fox: 'fox' };
  const stem = (w: string) => stems[w] ?? w;
  t.equal(ftsQuery(parseSearchText(['deployments']), stem), '{content topic} : ("deploy" *)', 'a stem that prefixes the word replaces it');
  t.equal(ftsQuery(parseSearchText(['deploy']), stem), '{content topic} : (("deploy" * OR "deploi" *))', 'a stem that does not is an alternative');
  t.equal(ftsQuery(parseSearchText(['fox "a b"']), stem, ['c7']), 'scope : "c7" AND {content topic} : ("fox" * AND "a b")', 'scoped to a channel; phrases exact');
  t.equal(ftsQuery(parseSearchText(['fox']), stem, ['u3', 'c7']), 'scope : ("u3" OR "c7") AND {content topic} : ("fox" *)', 'scoped to a user\'s rows and channels');
  const expand = (prefix: string) => (prefix === 'deploi' ? undefined : ['deploy', 'deployment'].filter((t) => t.startsWith(prefix)));
  t.equal(ftsQuery(parseSearchText(['deploy']), stem, undefined, expand), '{content topic} : (("deploy" OR "deployment" OR "deploi" *))', 'listed terms are exact; a prefix with too many stays a prefix');
  t.equal(ftsQuery(parseSearchText(['zebra']), stem, undefined, expand), '{content topic} : ("zebra")', 'a prefix no term starts with');
  t.equal(highlightQuery(parseSearchText(['fox "a b"']), stem), '{content topic} : ("fox" * OR "a b")', 'highlights mark each term');
});

test('prepared text and highlights', async (t) => {
  t.equal(prepareText('東京 tower'), `東${TOKEN_BREAK}京 tower`, 'a break between unspaced characters only');
  t.equal(prepareText('plain text'), 'plain text');
  t.equal(renderHighlights(`<p>a ${O}fox${C} b</p>`), '<p>a <span class="highlight">fox</span> b</p>');
  t.equal(renderHighlights(`<a href="${O}fox${C}">x</a>`), '<a href="fox">x</a>', 'marks inside tags are dropped');
  t.equal(renderHighlights(`${O}brown <b>fox${C}</b>`), '<span class="highlight">brown </span><b><span class="highlight">fox</span></b>', 'a highlight never crosses a tag');
  t.equal(renderHighlights(`a &${O}amp${C}; b`), 'a &amp; b', 'nor a character reference');
  t.equal(renderHighlights(`東${TOKEN_BREAK}${O}京${TOKEN_BREAK}都${C}`), '東<span class="highlight">京都</span>', 'breaks removed');
});
