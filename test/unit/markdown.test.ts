/** Unit tests of the Markdown renderer (Zulip's HTML forms, mentions and their flags) and of the emoji data. */
import { test } from 'tap';
import { isUnicodeEmojiCode, unicodeEmojiCode, unicodeEmojiName, ZULIP_EXTRA_EMOJI } from '../../src/domain/emoji.js';
import { renderMarkdown, type MarkdownContext } from '../../src/domain/markdown/index.js';
import { encodeHashComponent } from '../../src/domain/markdown/narrow-url.js';
import { parseTime } from '../../src/domain/markdown/time.js';

const users = [
  { id: 4, fullName: 'King Hamlet' },
  { id: 5, fullName: 'Othello, the Moor of Venice' },
  { id: 7, fullName: 'Twin' },
  { id: 8, fullName: 'Twin' },
];
const groups = [{ id: 3, name: 'support' }];
const channels = [
  { id: 5, name: 'Denmark' },
  { id: 6, name: 'core team' },
];

const context: MarkdownContext = {
  userByName: (name) => users.filter((user) => user.fullName.toLowerCase() === name.toLowerCase()),
  userById: (id) => users.find((user) => user.id === id),
  groupByName: (name) => groups.find((group) => group.name.toLowerCase() === name.toLowerCase()),
  channelByName: (name) => channels.find((channel) => channel.name.toLowerCase() === name.toLowerCase()),
  realmEmoji: (name) => (name === 'parrot' ? { id: '9', name: 'parrot', url: '/user_avatars/2/emoji/images/9.gif' } : undefined),
  uploadPreview: (pathId) => (pathId.endsWith('.png') ? { width: 128, height: 128, frames: 1 } : pathId.endsWith('.gif') ? { width: 128, height: 56, frames: 3 } : undefined),
};

const html = (content: string): string => renderMarkdown(content, context).html;

const HAMLET = '<span class="user-mention" data-user-id="4">@King Hamlet</span>';
const TADA = '<span aria-label="tada" class="emoji emoji-1f389" role="img" title="tada">:tada:</span>';

test('emoji data: names to Zulip codes and back', async (t) => {
  t.equal(unicodeEmojiCode('tada'), '1f389');
  t.equal(unicodeEmojiCode('heart'), '2764', 'the U+FE0F selector is dropped');
  t.equal(unicodeEmojiCode('+1'), '1f44d');
  t.equal(unicodeEmojiCode('thumbsup'), '1f44d', 'every short name works');
  t.equal(unicodeEmojiCode('octopus'), '1f419');
  t.equal(unicodeEmojiCode('hash'), '0023-20e3', 'four hex digits at least, FE0F dropped inside a sequence');
  t.equal(unicodeEmojiCode('no_such_emoji'), undefined);
  t.equal(unicodeEmojiCode('skin-tone-2'), undefined, 'bare skin tones are not emoji in Zulip');
  t.equal(unicodeEmojiName('1f44d'), '+1', 'the canonical name is the first one');
  t.equal(unicodeEmojiName('2764'), 'heart');
  t.equal(unicodeEmojiName('zulip'), undefined);
  t.ok(isUnicodeEmojiCode('1f389'));
  t.notOk(isUnicodeEmojiCode('2764-fe0f'), 'codes never carry FE0F');
  t.notOk(isUnicodeEmojiCode('zulip'));
  t.same(ZULIP_EXTRA_EMOJI, { zulip: 'zulip' });
  t.equal(ZULIP_EXTRA_EMOJI['toString'], undefined, 'no inherited names');
  t.equal(unicodeEmojiCode('toString'), undefined);
});

test('paragraphs, line breaks, escaping of raw HTML', async (t) => {
  t.equal(html(''), '');
  t.equal(html('hello'), '<p>hello</p>');
  t.equal(html('a\n\nb'), '<p>a</p>\n<p>b</p>');
  t.equal(html('test\nbar'), '<p>test<br>\nbar</p>');
  t.equal(html('<script>alert(1)</script>'), '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
  t.equal(html('<<script>script>evil()<</script>/script>'), '<p>&lt;&lt;script&gt;script&gt;evil()&lt;&lt;/script&gt;/script&gt;</p>');
  t.equal(html('*<h1>Hello world</h1>*'), '<p><em>&lt;h1&gt;Hello world&lt;/h1&gt;</em></p>');
  t.equal(html(`it's "quoted" & fine`), `<p>it's "quoted" &amp; fine</p>`, 'quotes stay as typed in text');
  t.equal(html('/me is happy'), '<p>/me is happy</p>');
});

test('Zulip inline syntax: emphasis, strikethrough, code spans, headings, lists', async (t) => {
  t.equal(html('*foo* **bar**'), '<p><em>foo</em> <strong>bar</strong></p>');
  t.equal(html('_foo_ __bar__'), '<p>_foo_ __bar__</p>', 'no underscore emphasis');
  t.equal(html('const char *x = (char *)y'), '<p>const char *x = (char *)y</p>');
  t.equal(html('I ~~like software~~ love hardware'), '<p>I <del>like software</del> love hardware</p>');
  t.equal(html('~~~~~~~~x:  y~~~~~~'), '<p>~~~~~~~~x:  y~~~~~~</p>');
  t.equal(html('` outer ` ```    space    ```'), '<p><code> outer </code> <code>    space    </code></p>');
  t.equal(html('`<&nbsp;>`'), '<p><code>&lt;&amp;nbsp;&gt;</code></p>');
  t.equal(html('# Hello world'), '<h1>Hello world</h1>');
  t.equal(html('#Hello world'), '<p>#Hello world</p>');
  t.equal(html('Some text with a list:\n\n* One item\n* Two items'), '<p>Some text with a list:</p>\n<ul>\n<li>One item</li>\n<li>Two items</li>\n</ul>');
  t.equal(html('Hello [world]\n\n[world]: https://google.com'), '<p>Hello [world]</p>\n<p>[world]: <a href="https://google.com">https://google.com</a></p>', 'no reference links');
});

test('user mentions: by name, by id, silent, unknown, ambiguous', async (t) => {
  const mention = renderMarkdown('@**King Hamlet** hi', context);
  t.equal(mention.html, `<p>${HAMLET} hi</p>`);
  t.same([...mention.mentionedUserIds], [4]);
  t.equal(html('@**king hamlet**'), `<p>${HAMLET}</p>`, 'names match case-insensitively, the real name is shown');
  t.equal(html('@**King Hamlet|4**'), `<p>${HAMLET}</p>`);
  t.equal(html('@**|4**'), `<p>${HAMLET}</p>`);
  t.equal(html('@**Othello, the Moor of Venice**'), '<p><span class="user-mention" data-user-id="5">@Othello, the Moor of Venice</span></p>');

  const silent = renderMarkdown('@_**King Hamlet**', context);
  t.equal(silent.html, '<p><span class="user-mention silent" data-user-id="4">King Hamlet</span></p>');
  t.equal(silent.mentionedUserIds.size, 0, 'a silent mention notifies nobody');

  const unknown = renderMarkdown('@**Nobody Here**', context);
  t.equal(unknown.html, '<p>@<strong>Nobody Here</strong></p>', 'left to the other rules, as in Zulip');
  t.equal(unknown.mentionedUserIds.size, 0);
  t.equal(html('@**Twin**'), '<p>@<strong>Twin</strong></p>', 'an ambiguous name is not a mention');
  const twin = renderMarkdown('@**Twin|8**', context);
  t.equal(twin.html, '<p><span class="user-mention" data-user-id="8">@Twin</span></p>');
  t.same([...twin.mentionedUserIds], [8]);
  t.equal(html('@**Twin|4**'), '<p>@<strong>Twin|4</strong></p>', 'a name that is not the id’s user is invalid');
  t.equal(html('@**King Hamlet|99**'), '<p>@<strong>King Hamlet|99</strong></p>');
  t.equal(html('a@**King Hamlet**'), '<p>a@<strong>King Hamlet</strong></p>', 'not a mention in the middle of a word');
  t.equal(html('(@**King Hamlet**)'), `<p>(${HAMLET})</p>`);
  const both = renderMarkdown('@**King Hamlet** and @**Othello, the Moor of Venice** and @_**Twin|7**', context);
  t.same([...both.mentionedUserIds].sort(), [4, 5]);
});

test('wildcard mentions set the flags; silent ones render but do not', async (t) => {
  for (const name of ['all', 'everyone', 'channel', 'stream']) {
    const result = renderMarkdown(`@**${name}**`, context);
    t.equal(result.html, `<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@${name}</span></p>`);
    t.ok(result.streamWildcard, name);
    t.notOk(result.topicWildcard);
  }
  const topic = renderMarkdown('@**topic**', context);
  t.equal(topic.html, '<p><span class="topic-mention">@topic</span></p>');
  t.ok(topic.topicWildcard);
  t.notOk(topic.streamWildcard);

  const silent = renderMarkdown('@_**all** @_**topic**', context);
  t.equal(
    silent.html,
    '<p><span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span> <span class="topic-mention silent">topic</span></p>',
  );
  t.notOk(silent.streamWildcard);
  t.notOk(silent.topicWildcard);
});

test('group mentions', async (t) => {
  const group = renderMarkdown('@*support* please', context);
  t.equal(group.html, '<p><span class="user-group-mention" data-user-group-id="3">@support</span> please</p>');
  t.same([...group.mentionedGroupIds], [3]);
  const silent = renderMarkdown('@_*Support*', context);
  t.equal(silent.html, '<p><span class="user-group-mention silent" data-user-group-id="3">support</span></p>');
  t.equal(silent.mentionedGroupIds.size, 0);
  t.equal(html('@*nobody*'), '<p>@<em>nobody</em></p>');
});

test('code and quotes: no mentions in code, silenced mentions in quotes', async (t) => {
  const code = renderMarkdown('`@**King Hamlet**` and\n```\n@**all** @*support*\n```', context);
  t.equal(
    code.html,
    '<p><code>@**King Hamlet**</code> and</p>\n<div class="codehilite"><pre><span></span><code>@**all** @*support*\n</code></pre></div>',
  );
  t.equal(code.mentionedUserIds.size, 0);
  t.equal(code.mentionedGroupIds.size, 0);
  t.notOk(code.streamWildcard);

  const quoted = renderMarkdown('> @**King Hamlet** @*support* @**all**', context);
  t.equal(
    quoted.html,
    '<blockquote>\n<p><span class="user-mention silent" data-user-id="4">King Hamlet</span> ' +
      '<span class="user-group-mention silent" data-user-group-id="3">support</span> ' +
      '<span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span></p>\n</blockquote>',
  );
  t.equal(quoted.mentionedUserIds.size + quoted.mentionedGroupIds.size, 0);
  t.notOk(quoted.streamWildcard);
  const fenced = renderMarkdown('```quote\n@**King Hamlet** said\n```\n@**King Hamlet**', context);
  t.equal(
    fenced.html,
    `<blockquote>\n<p><span class="user-mention silent" data-user-id="4">King Hamlet</span> said</p>\n</blockquote>\n<p>${HAMLET}</p>`,
  );
  t.same([...fenced.mentionedUserIds], [4], 'the mention after the quote counts');
});

test('fenced code blocks', async (t) => {
  t.equal(
    html('Hamlet said:\n~~~~.python \ndef speak(self):\n    x = 1\n~~~~'),
    '<p>Hamlet said:</p>\n<div class="codehilite" data-code-language="Python"><pre><span></span><code>' +
      '<span class="k">def</span> <span class="nf">speak</span><span class="p">(</span><span class="bp">self</span><span class="p">):</span>\n' +
      '    <span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\n</code></pre></div>',
  );
  t.equal(
    html('``` inventedlanguage\nx = 1\n```'),
    '<div class="codehilite" data-code-language="inventedlanguage"><pre><span></span><code>x = 1\n</code></pre></div>',
  );
  t.equal(html('```js\nx\n```'), '<div class="codehilite" data-code-language="JavaScript"><pre><span></span><code><span class="nx">x</span>\n</code></pre></div>');
  t.equal(html('```text\nx = 1\n```'), '<div class="codehilite" data-code-language="Text only"><pre><span></span><code>x = 1\n</code></pre></div>', 'plain text: no tokens');
  t.equal(
    html('Hamlet once said\n~~~~\ndef func():\n    x = 1\n\n    y = 2\t\t\n~~~~\nAnd all was good.'),
    '<p>Hamlet once said</p>\n<div class="codehilite"><pre><span></span><code>def func():\n    x = 1\n\n    y = 2\n</code></pre></div>\n<p>And all was good.</p>',
    'trailing whitespace is dropped',
  );
  t.equal(
    html('& &amp; &amp;amp;\n~~~~\n& &amp; &amp;amp;\n~~~~\n    & &amp; &amp;amp;'),
    '<p>&amp; &amp; &amp;amp;</p>\n<div class="codehilite"><pre><span></span><code>&amp; &amp;amp; &amp;amp;amp;\n</code></pre></div>\n' +
      '<div class="codehilite"><pre><span></span><code>&amp; &amp;amp; &amp;amp;amp;\n</code></pre></div>',
  );
  t.equal(html('~~~\n<h1>stay normal</h1>\n~~~'), '<div class="codehilite"><pre><span></span><code>&lt;h1&gt;stay normal&lt;/h1&gt;\n</code></pre></div>');
  t.equal(html('```\necho "hi" \'x\'\n```'), '<div class="codehilite"><pre><span></span><code>echo &quot;hi&quot; &#39;x&#39;\n</code></pre></div>');
  t.equal(html('    def foo(): pass'), '<div class="codehilite"><pre><span></span><code>def foo(): pass\n</code></pre></div>');
  t.equal(html('``` one ```\n\n``` two ```'), '<p><code> one </code></p>\n<p><code> two </code></p>', 'not fences');
});

test('quote and spoiler fences', async (t) => {
  t.equal(
    html('Hamlet said:\n~~~ quote\nTo be or **not** to be.\n\nThat is the question\n~~~'),
    '<p>Hamlet said:</p>\n<blockquote>\n<p>To be or <strong>not</strong> to be.</p>\n<p>That is the question</p>\n</blockquote>',
  );
  t.equal(
    html('```quote\nShe wrote:\n```python\nx = 1\n```\nend\n```'),
    '<blockquote>\n<p>She wrote:</p>\n<div class="codehilite" data-code-language="Python"><pre><span></span><code>' +
      '<span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\n</code></pre></div>\n<p>end</p>\n</blockquote>',
    'a fence inside a quote does not close it',
  );
  t.equal(
    html('```spoiler header\ncontent\n```\noutside spoiler\n'),
    '<div class="spoiler-block"><div class="spoiler-header">\n<p>header</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>',
  );
  t.equal(
    html('```spoiler\ncontent\n```'),
    '<div class="spoiler-block"><div class="spoiler-header">\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>',
  );
  t.equal(
    html('```spoiler <script>alert(1)</script>\n<script>alert(1)</script>\n```'),
    '<div class="spoiler-block"><div class="spoiler-header">\n<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n</div></div>',
  );
  t.equal(
    html('~~~quote\n```spoiler header\ncontent\n```\noutside spoiler\n~~~\noutside quote'),
    '<blockquote>\n<div class="spoiler-block"><div class="spoiler-header">\n<p>header</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>\n</blockquote>\n<p>outside quote</p>',
  );
  const spoiled = renderMarkdown('```spoiler @**King Hamlet**\n@*support*\n```', context);
  t.same([...spoiled.mentionedUserIds], [4], 'spoilers do not silence mentions');
  t.same([...spoiled.mentionedGroupIds], [3]);
});

test('blockquotes', async (t) => {
  t.equal(html('> Hello World!\n\n> Hello Universe!'), '<blockquote>\n<p>Hello World!</p>\n</blockquote>\n<blockquote>\n<p>Hello Universe!</p>\n</blockquote>');
});

test('channel and topic links', async (t) => {
  t.equal(html('#**Denmark**'), '<p><a class="stream" data-stream-id="5" href="/#narrow/channel/5-Denmark">#Denmark</a></p>');
  t.equal(html('#**denmark**'), '<p><a class="stream" data-stream-id="5" href="/#narrow/channel/5-Denmark">#Denmark</a></p>');
  t.equal(
    html('#**Denmark>some topic**'),
    '<p><a class="stream-topic" data-stream-id="5" href="/#narrow/channel/5-Denmark/topic/some.20topic">#Denmark &gt; some topic</a></p>',
  );
  t.equal(
    html('#**core team>a.b (c)**'),
    '<p><a class="stream-topic" data-stream-id="6" href="/#narrow/channel/6-core-team/topic/a.2Eb.20.28c.29">#core team &gt; a.b (c)</a></p>',
  );
  t.equal(
    html('#**Denmark>x@12**'),
    '<p><a class="message-link" href="/#narrow/channel/5-Denmark/topic/x/near/12">#Denmark &gt; x @ 💬</a></p>',
  );
  t.equal(html('#**Atlantis**'), '<p>#<strong>Atlantis</strong></p>', 'unknown channels stay as typed');
  t.equal(encodeHashComponent("it's (100%) *done*!"), "it.27s.20.28100.25.29.20*done*.21");
});

test('emoji', async (t) => {
  t.equal(html(':tada:'), `<p>${TADA}</p>`);
  t.equal(html(':heart: :+1:'), '<p><span aria-label="heart" class="emoji emoji-2764" role="img" title="heart">:heart:</span> <span aria-label="+1" class="emoji emoji-1f44d" role="img" title="+1">:+1:</span></p>');
  t.equal(html(':zulip:'), '<p><img alt=":zulip:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/zulip.png" title="zulip"></p>');
  t.equal(html(':parrot:'), '<p><img alt=":parrot:" class="emoji" src="/user_avatars/2/emoji/images/9.gif" title="parrot"></p>');
  t.equal(html(':not_an_emoji: x::y::z'), '<p>:not_an_emoji: x::y::z</p>');
  t.equal(html(':skin-tone-2:'), '<p>:skin-tone-2:</p>');
  t.equal(html(':toString: :constructor:'), '<p>:toString: :constructor:</p>');
  t.equal(
    html(':octopus:hello:tada:'),
    `<p><span aria-label="octopus" class="emoji emoji-1f419" role="img" title="octopus">:octopus:</span>hello${TADA}</p>`,
  );
  t.equal(html('`:tada:`'), '<p><code>:tada:</code></p>');
  t.equal(html('Extra\u{1f389}Terrestrial'), `<p>Extra${TADA}Terrestrial</p>`, 'Unicode emoji are wrapped too');
  t.equal(
    html('\u2b06\ufe0f #\ufe0f\u20e3'),
    '<p><span aria-label="arrow up" class="emoji emoji-2b06" role="img" title="arrow up">:arrow_up:</span> ' +
      '<span aria-label="hash" class="emoji emoji-0023-20e3" role="img" title="hash">:hash:</span></p>',
  );
  t.equal(html('\u2764 1 #'), '<p>\u2764 1 #</p>', 'text-presentation characters stay text');
});

test('links', async (t) => {
  t.equal(html('[hello](https://github.com)'), '<p><a href="https://github.com">hello</a></p>');
  t.equal(html('[](https://github.com)'), '<p><a href="https://github.com">https://github.com</a></p>');
  t.equal(html('https://github.com'), '<p><a href="https://github.com">https://github.com</a></p>');
  t.equal(html('at https://zulip.com/api. Check it!'), '<p>at <a href="https://zulip.com/api">https://zulip.com/api</a>. Check it!</p>');
  t.equal(html('with short example.com url'), '<p>with short <a href="http://example.com">example.com</a> url</p>');
  t.equal(html('python class views.py is'), '<p>python class views.py is</p>');
  t.equal(html('a@b.com'), '<p><a href="mailto:a@b.com">a@b.com</a></p>');
  t.equal(html('[call me](tel:+14155551234)'), '<p><a href="tel:+14155551234">call me</a></p>');
  t.equal(html('[foo](javascript:alert(1))'), '<p>[foo](javascript:alert(1))</p>');
  t.equal(html('[foo](javascript://foo.com)'), '<p>[foo](javascript://foo.com)</p>');
  t.equal(html('javascript://foo.com'), '<p>javascript://foo.com</p>');
  t.equal(html('![alt](https://x.com/a.png)'), '<p>!<a href="https://x.com/a.png">alt</a></p>', 'no image syntax');
  t.equal(
    html('http://example.com/?a=1&b=2"'),
    '<p><a href="http://example.com/?a=1&amp;b=2">http://example.com/?a=1&amp;b=2</a>"</p>',
  );
});

test('global times', async (t) => {
  t.equal(html('<time:2025-05-01T12:00:00+00:00>'), '<p><time datetime="2025-05-01T12:00:00Z">2025-05-01T12:00:00+00:00</time></p>');
  t.equal(html('<time:2025-05-01T14:00:00+02:00>'), '<p><time datetime="2025-05-01T12:00:00Z">2025-05-01T14:00:00+02:00</time></p>');
  t.equal(html("Let's meet at <time:1496701800>."), `<p>Let's meet at <time datetime="2017-06-05T22:30:00Z">1496701800</time>.</p>`);
  t.equal(html('<time:31 Dec 2017>'), '<p><time datetime="2017-12-31T00:00:00Z">31 Dec 2017</time></p>');
  t.equal(html('<time:Jun 5th 2017, 10:30PM>'), '<p><time datetime="2017-06-05T22:30:00Z">Jun 5th 2017, 10:30PM</time></p>');
  t.equal(html('<time:<alert(1)>>'), '<p><span class="timestamp-error">Invalid time format: &lt;alert(1)</span>&gt;</p>');
  t.equal(html('<time:**hello world**>'), '<p><span class="timestamp-error">Invalid time format: **hello world**</span></p>');
  t.equal(parseTime('2025-02-30'), undefined);
  t.equal(parseTime('1496701800.5'), 1496701800500);
});

test('uploaded images get Zulip 9\'s inline preview after their paragraph', async (t) => {
  const png = '2/ab/TOKEN/img.png';
  const gif = '2/cd/TOKEN/anim.gif';
  const preview = (path: string, title: string, extra = '') =>
    `<div class="message_inline_image"><a href="/user_uploads/${path}" title="${title}"><img ${extra}data-original-dimensions="128x128" src="/user_uploads/thumbnail/${path}/840x560.webp"></a></div>`;
  t.equal(html(`[image](/user_uploads/${png})`), `<p><a href="/user_uploads/${png}">image</a></p>\n${preview(png, 'image')}`);
  t.equal(
    html(`Test 1\n[img.png](/user_uploads/${png})\n\nNext`),
    `<p>Test 1<br>\n<a href="/user_uploads/${png}">img.png</a></p>\n${preview(png, 'img.png')}<p>Next</p>`,
    'the next block follows the preview directly, as in Zulip',
  );
  t.equal(
    html(`[a](/user_uploads/${png}) [b](/user_uploads/${gif})`),
    `<p><a href="/user_uploads/${png}">a</a> <a href="/user_uploads/${gif}">b</a></p>\n${preview(png, 'a')}` +
      `<div class="message_inline_image"><a href="/user_uploads/${gif}" title="b"><img data-animated="true" data-original-dimensions="128x56" src="/user_uploads/thumbnail/${gif}/840x560-anim.webp"></a></div>`,
    'several images of one paragraph, an animated one with its animated thumbnail',
  );
  t.equal(html('[text](/user_uploads/2/ef/TOKEN/notes.txt)'), '<p><a href="/user_uploads/2/ef/TOKEN/notes.txt">text</a></p>', 'not an image: no preview');
  t.equal(html('`/user_uploads/2/ab/TOKEN/img.png`'), '<p><code>/user_uploads/2/ab/TOKEN/img.png</code></p>', 'code is not a link');
});
