/**
 * Unit tests of code highlighting: highlight.js scopes mapped to Pygments' short classes, plain
 * text classed as Pygments' names, operators and punctuation, and the HTML Zulip's code blocks hold.
 */
import { test } from 'tap';
import { highlightCode } from '../../src/domain/markdown/highlight.js';
import { classifyPlain, refineClass, scopeClass } from '../../src/domain/markdown/pygments-classes.js';

test('scope classes', async (t) => {
  const cases: [string, string][] = [
    ['keyword', 'k'], ['built_in', 'nb'], ['type', 'kt'], ['literal', 'kc'], ['number', 'm'], ['string', 's'],
    ['comment', 'c'], ['title.function', 'nf'], ['title.class', 'nc'], ['title.function.invoke', 'n'],
    ['title.class.inherited', 'n'], ['variable.language', 'bp'], ['variable.constant', 'no'], ['meta', 'cp'],
    ['attr', 'na'], ['name', 'nt'], ['regexp', 'sr'], ['subst', 'si'], ['char.escape', 'se'], ['addition', 'gi'],
    ['deletion', 'gd'], ['selector-class', 'nc'], ['params', ''], ['tag', ''],
  ];
  for (const [scope, cls] of cases) t.equal(scopeClass(scope), cls, scope);
  t.equal(scopeClass('title.function.something_new'), 'nf', 'an unknown refinement falls back to its parent');
  t.equal(scopeClass('unheard-of'), '', 'an unknown scope marks nothing');
});

test('refined classes', async (t) => {
  t.same(['42', '0x1F', '0b101', '0o17', '1.5', '2e10'].map((n) => refineClass('m', n)), ['mi', 'mh', 'mb', 'mo', 'mf', 'mf']);
  t.same(['"a"', "'a'", '`a`', 'f"a', 'rb\'x\''].map((s) => refineClass('s', s)), ['s2', 's1', 'sb', 's2', 's1']);
  t.same(['# x', '// x', '/* x */', '-- x', '<!-- x -->'].map((c) => refineClass('c', c)), ['c1', 'c1', 'cm', 'c1', 'c']);
  t.same([refineClass('cp', '@decorator'), refineClass('cp', '#include')], ['nd', 'cp']);
  t.equal(refineClass('k', 'def'), 'k', 'others unchanged');
});

test('plain text', async (t) => {
  t.same(classifyPlain('foo(self, x) -> y', 'Python'), [
    { text: 'foo', cls: 'n' }, { text: '(', cls: 'p' }, { text: 'self', cls: 'bp' }, { text: ',', cls: 'p' },
    { text: ' ', cls: '' }, { text: 'x', cls: 'n' }, { text: ')', cls: 'p' }, { text: ' ', cls: '' },
    { text: '->', cls: 'o' }, { text: ' ', cls: '' }, { text: 'y', cls: 'n' },
  ]);
  t.same(classifyPlain('a.b', 'JavaScript').map((p) => p.cls), ['nx', 'p', 'nx'], 'JavaScript names are Name.Other');
  t.equal(classifyPlain('héllo ² ✓ 12', 'Python').map((p) => p.text).join(''), 'héllo ² ✓ 12', 'no character is lost');
});

test('highlighted HTML', async (t) => {
  t.equal(
    highlightCode('class Solution:\n    def f(self, days: int):', 'py', 'Python'),
    '<span class="k">class</span> <span class="nc">Solution</span><span class="p">:</span>\n' +
      '    <span class="k">def</span> <span class="nf">f</span><span class="p">(</span><span class="bp">self</span>' +
      '<span class="p">,</span> <span class="n">days</span><span class="p">:</span> <span class="nb">int</span><span class="p">):</span>',
    'Zulip\'s classes for Python, neighbours of one class merged',
  );
  t.equal(
    highlightCode('x = """a\nb""" # <c>', 'python', 'Python'),
    '<span class="n">x</span> <span class="o">=</span> <span class="s2">"""a</span>\n<span class="s2">b"""</span> <span class="c1"># &lt;c&gt;</span>',
    'a token spanning lines is closed at each line end; text is escaped',
  );
  t.equal(highlightCode('const a = 1; // c', 'js', 'JavaScript'), '<span class="k">const</span> <span class="nx">a</span> <span class="o">=</span> <span class="mi">1</span><span class="p">;</span> <span class="c1">// c</span>');
  t.equal(highlightCode('x', 'text', 'Text only'), undefined, 'plain text is not highlighted');
  t.equal(highlightCode('x', 'inventedlanguage', 'inventedlanguage'), undefined, 'nor an unknown language');
});
