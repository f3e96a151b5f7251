/**
 * Unit tests of the linkifier rules: RFC 6570 templates (well-formedness, variables, expansion),
 * re2 patterns translated to JavaScript (and re2's refusals), Zulip's validation of linkifiers and
 * playgrounds, and the renderer's use of linkifiers in messages and topics.
 */
import { test } from 'tap';
import type { ApiError } from '../../src/domain/errors.js';
import { checkLinkifier, checkPlayground, compiledLinkifiers } from '../../src/domain/linkifiers.js';
import { translatePattern } from '../../src/domain/linkifier-pattern.js';
import { renderMarkdown, topicLinks, type MarkdownContext } from '../../src/domain/markdown/index.js';
import { expandTemplate, templateVariables } from '../../src/domain/url-template.js';

test('URL templates', async (t) => {
  t.same(templateVariables('https://github.com/{org}/{repo}/issues/{id}'), ['org', 'repo', 'id']);
  t.same(templateVariables('https://x.example.com/{+path}{?q,page}{#frag}{id:3}{list*}'), ['path', 'q', 'page', 'frag', 'id', 'list']);
  t.same(templateVariables('https://x.example.com/no-variables'), []);
  for (const bad of ['https://x/{id', 'https://x/id}', 'https://x/{}', 'https://x/{!id}', 'https://x/{i d}', 'https://x/ space', 'https://x/{id:0}', 'https://x/%zz']) {
    t.equal(templateVariables(bad), undefined, bad);
  }
  t.equal(expandTemplate('https://x.example.com/{id}', { id: 'a b/c' }), 'https://x.example.com/a%20b%2Fc', 'simple expansion encodes reserved characters');
  t.equal(expandTemplate('https://x.example.com/{+path}', { path: 'a/b' }), 'https://x.example.com/a/b', '+ keeps them');
  t.equal(expandTemplate('https://x.example.com/{id}{?q}', { id: '1', q: undefined }), 'https://x.example.com/1', 'an unmatched group is left out');
});

test('re2 patterns as JavaScript', async (t) => {
  const sourceOf = (pattern: string) => {
    const translated = translatePattern(pattern);
    return 'error' in translated ? translated.error : translated.source;
  };
  t.same(translatePattern('#(?P<id>[0-9]+)'), { source: '#(?<id>[0-9]+)', flags: '', groups: ['id'] });
  t.same(translatePattern('(?i)ticket-(?P<id>\\d+)'), { source: 'ticket-(?<id>\\d+)', flags: 'i', groups: ['id'] });
  t.same(sourceOf('\\#(?P<id>\\d+)\\-x'), '\\u{23}(?<id>\\d+)\\u{2d}x', 'identity escapes JavaScript refuses become code points');
  t.same(sourceOf('[]a]'), '[\\]a]', 'a leading ] in a class is a literal');
  t.same(sourceOf('\\Afoo'), '^foo');
  t.same(sourceOf('(?i:abc)'), '(?:abc)', 'inline modifiers are dropped');
  const refusals: [string, string][] = [
    ['(foo', 'missing ): (foo'],
    ['foo)', 'unexpected ): foo)'],
    ['[abc', 'missing ]: [abc'],
    ['*a', 'missing argument to repetition operator: *'],
    ['a(?=b)', 'invalid perl operator: (?='],
    ['a(?!b)', 'invalid perl operator: (?!'],
    ['(?<=a)b', 'invalid perl operator: (?<'],
    ['(a)\\1', 'invalid escape sequence: \\1'],
    ['(?P<x>a)(?P=x)', 'invalid named capture group: (?P='],
  ];
  for (const [pattern, message] of refusals) t.same(translatePattern(pattern), { error: message }, pattern);
});

test("Zulip's validation", async (t) => {
  const refusal = (run: () => void) => {
    try {
      run();
      return undefined;
    } catch (error) {
      return [(error as ApiError).message, (error as ApiError).extra];
    }
  };
  const existing = [{ id: 1, pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://x.example.com/{id}' }];
  t.equal(refusal(() => checkLinkifier('T(?P<id>[0-9]+)', 'https://x.example.com/{id}', existing)), undefined);
  t.match(refusal(() => checkLinkifier('#(?P<id>[0-9]+)', 'https://x.example.com/{id', existing)), [
    'Invalid URL template.', { errors: { url_template: ['Invalid URL template.'], __all__: ['Realm filter with this Realm and Pattern already exists.'] } },
  ], 'every error by field, the first one shown');
  t.match(refusal(() => checkLinkifier('(?P<b>x)(?P<a>y)', 'https://x.example.com/', [])), ["Group 'a' in linkifier pattern is not present in URL template."], 'the first missing name in order');
  t.equal(refusal(() => checkPlayground('Python', 'Python', 'https://p.example.com/?c={code}', [])), undefined);
  t.match(refusal(() => checkPlayground('', '', '', [])), ['This field cannot be blank.', { errors: { url_template: ['This field cannot be blank.'], name: ['This field cannot be blank.'], pygments_language: ['This field cannot be blank.'] } }]);
});

test('linkifiers in messages and topics', async (t) => {
  const compiled = compiledLinkifiers([
    { id: 1, pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://x.example.com/issues/{id}' },
    { id: 2, pattern: 'PR(?P<id>[0-9]+)', urlTemplate: 'javascript:alert({id})' },
  ]);
  const context: MarkdownContext = { userByName: () => [], userById: () => undefined, groupByName: () => undefined, channelByName: () => undefined, linkifiers: () => compiled };
  const html = (content: string) => renderMarkdown(content, context).html;
  t.equal(html('#1, (#2) "#3" :#4 x#5 #6a #7.'),
    '<p><a href="https://x.example.com/issues/1">#1</a>, (<a href="https://x.example.com/issues/2">#2</a>) "<a href="https://x.example.com/issues/3">#3</a>" ' +
      ':<a href="https://x.example.com/issues/4">#4</a> x#5 #6a <a href="https://x.example.com/issues/7">#7</a>.</p>', 'after a delimiter, not before a letter');
  t.equal(html('**#1** [#2](https://zulip.com) `#3`'), '<p><strong><a href="https://x.example.com/issues/1">#1</a></strong> <a href="https://zulip.com">#2</a> <code>#3</code></p>', 'not in links or code');
  t.equal(html('PR12'), '<p>PR12</p>', 'a URL Zulip would not link is not linked');
  t.same(topicLinks('#8 and https://zulip.com/x', compiled), [{ text: '#8', url: 'https://x.example.com/issues/8' }, { text: 'https://zulip.com/x', url: 'https://zulip.com/x' }]);
  t.same(topicLinks('', compiled), []);
  t.equal(compiledLinkifiers(undefined).length, 0);
});
