/** Unit tests of the pure message and channel rules: topics, content, HTML diffs, reports, channel names and colours. */
import { test } from 'tap';
import { ApiError } from '../../src/domain/errors.js';
import {
  EMPTY_TOPIC_DISPLAY_NAME,
  RESOLVED_TOPIC_PREFIX,
  displayTopic,
  isResolved,
  normalizeContent,
  normalizeTopic,
  topicKey,
  topicResolutionChange,
} from '../../src/domain/topics.js';
import { htmlDiff } from '../../src/domain/html-diff.js';
import { REPORT_REASON_LABELS, REPORT_TYPES, reportContent, reportTopic, validateReport, type ReportInput } from '../../src/domain/report.js';
import { CHANNEL_COLORS, channelSlug, checkChannelName, isHexColor, pickChannelColor } from '../../src/domain/channels.js';

const badRequest = (message: string) => ({ constructor: ApiError, code: 'BAD_REQUEST', status: 400, message });
const topicOptions = { maxLength: 60, emptyTopicDisplayName: EMPTY_TOPIC_DISPLAY_NAME };
const emoji = '😀'; // one code point, two UTF-16 units
const codePoints = (text: string) => Array.from(text).length;

test('topics: normalisation for sending and editing', async (t) => {
  t.equal(EMPTY_TOPIC_DISPLAY_NAME, 'general chat');
  t.equal(normalizeTopic('  lunch \n', topicOptions), 'lunch');
  t.equal(normalizeTopic('general chat', topicOptions), '');
  t.equal(normalizeTopic('  general chat ', topicOptions), '', 'stripped before the comparison');
  t.equal(normalizeTopic('(no topic)', topicOptions), '');
  t.equal(normalizeTopic('', topicOptions), '');
  t.equal(normalizeTopic('General Chat', topicOptions), 'General Chat', 'the comparison is exact');
  t.equal(normalizeTopic('allgemein', { maxLength: 60, emptyTopicDisplayName: 'allgemein' }), '');
  t.equal(normalizeTopic('\x1fhi\x85', topicOptions), 'hi', "Python's strip() set, not JS trim()");
  t.equal(normalizeTopic('\ufeffhi', topicOptions), '\ufeffhi', 'U+FEFF is not Python whitespace, and is printable');

  t.throws(() => normalizeTopic('a\x00b', topicOptions), badRequest('Invalid character in topic, at position 2!'));
  t.throws(() => normalizeTopic(`${emoji}${emoji}\x07`, topicOptions), badRequest('Invalid character in topic, at position 3!'), 'positions count code points');
  t.throws(() => normalizeTopic('  a\nb', topicOptions), badRequest('Invalid character in topic, at position 2!'), 'positions count after stripping');
  t.throws(() => normalizeTopic('x\ud800', topicOptions), badRequest('Invalid character in topic, at position 2!'), 'a lone surrogate (Cs)');
  t.throws(() => normalizeTopic('x\ufdd0', topicOptions), badRequest('Invalid character in topic, at position 2!'), 'a noncharacter');
  t.throws(() => normalizeTopic('x\u{10ffff}', topicOptions), badRequest('Invalid character in topic, at position 2!'), 'a plane-16 noncharacter');
  t.equal(normalizeTopic('tab\u200bzero-width', topicOptions), 'tab\u200bzero-width', 'format characters (Cf) are allowed');

  const sixty = emoji.repeat(60);
  t.equal(normalizeTopic(sixty, topicOptions), sixty, 'exactly the limit in code points is kept, though it is 120 UTF-16 units');
  t.equal(normalizeTopic(emoji.repeat(61), topicOptions), emoji.repeat(57) + '...');
  t.equal(codePoints(normalizeTopic('x'.repeat(100), topicOptions)), 60);
  t.equal(normalizeTopic('abcdefgh', { ...topicOptions, maxLength: 5 }), 'ab...');
});

test('topics: display, keys and resolution', async (t) => {
  t.equal(displayTopic('', false, 'general chat'), 'general chat');
  t.equal(displayTopic('', true, 'general chat'), '');
  t.equal(displayTopic('lunch', false, 'general chat'), 'lunch');
  t.equal(topicKey('Lunch Plans'), topicKey('lunch plans'));
  t.equal(topicKey('ÄRGER'), 'ärger');
  t.equal(RESOLVED_TOPIC_PREFIX, '\u2714 ');
  t.ok(isResolved('✔ done'));
  t.notOk(isResolved('✔done'), 'the prefix includes the space');
  t.notOk(isResolved('done ✔'));

  t.equal(topicResolutionChange('bug', '✔ bug'), 'resolved');
  t.equal(topicResolutionChange('✔ bug', 'bug'), 'unresolved');
  t.equal(topicResolutionChange('✔ ✔ bug', 'bug'), 'unresolved', "Python's lstrip('✔ ') strips every leading mark");
  t.equal(topicResolutionChange('bug', '✔ other'), undefined, 'a rename that adds the prefix is a move');
  t.equal(topicResolutionChange('✔ bug', 'other'), undefined);
  t.equal(topicResolutionChange('✔ bug', '✔ bug 2'), undefined, 'both resolved');
  t.equal(topicResolutionChange('bug', 'bug 2'), undefined);
  t.equal(topicResolutionChange('bug', 'bug'), undefined);

  // A 59-code-point topic no longer fits once prefixed: the stored name is cut to 57 + '...'.
  const long = 'y'.repeat(20) + emoji + 'z'.repeat(38);
  t.equal(codePoints(long), 59);
  const resolvedLong = normalizeTopic(RESOLVED_TOPIC_PREFIX + long, topicOptions);
  t.equal(codePoints(resolvedLong), 60);
  t.ok(resolvedLong.endsWith('...'));
  t.equal(topicResolutionChange(long, resolvedLong), 'resolved', 'resolving a topic that had to be truncated');
  const fits = 'w'.repeat(58);
  t.equal(topicResolutionChange(fits, normalizeTopic(RESOLVED_TOPIC_PREFIX + fits, topicOptions)), 'resolved', '58 still fits');
  t.equal(topicResolutionChange('abcdef', '✔ abc...'), undefined, 'a short name ending in ... was typed, not truncated');
});

test('content: normalize_body', async (t) => {
  t.equal(normalizeContent('\n\n  indented\n\n  \t', 10000), '  indented', 'leading newlines go, leading spaces stay');
  t.equal(normalizeContent('text \n', 10000), 'text');
  t.throws(() => normalizeContent('', 10000), badRequest('Message must not be empty'));
  t.throws(() => normalizeContent(' \n\t ', 10000), badRequest('Message must not be empty'));
  t.throws(() => normalizeContent('a\x00b', 10000), badRequest('Message must not contain null bytes'));

  const mark = '\n[message truncated]';
  t.equal(mark.length, 20);
  const atLimit = emoji.repeat(10000);
  t.equal(normalizeContent(atLimit, 10000), atLimit, 'exactly the limit in code points is kept');
  const cut = normalizeContent(emoji.repeat(10001), 10000);
  t.equal(cut, emoji.repeat(9980) + mark);
  t.equal(codePoints(cut), 10000);
  t.equal(normalizeContent('abcdefghijklmnopqrstuvwxyz', 25), 'abcde' + mark);
});

test('html diff: Zulip content_html_diff', async (t) => {
  const ins = (text: string) => `<span class="highlight_text_inserted">${text}</span>`;
  const del = (text: string) => `<span class="highlight_text_deleted">${text}</span>`;
  t.equal(htmlDiff('<p>Hello!</p>', '<p>Howdy!</p>'), `<div><p>${del('Hello!')}${ins('Howdy!')}</p></div>`, 'replace: deleted first');
  t.equal(htmlDiff('<p>same text</p>', '<p>same text</p>'), '<div><p>same text</p></div>', 'unchanged');
  t.equal(htmlDiff('<p>a c</p>', '<p>a b c</p>'), `<div><p>a ${ins('b')} c</p></div>`, 'insert: the space stays outside the span');
  t.equal(htmlDiff('<p>a b c</p>', '<p>a c</p>'), `<div><p>a ${del('b')} c</p></div>`, 'delete keeps words apart');
  t.equal(htmlDiff('<p>foo bar</p>', '<p>baz bar</p>'), `<div><p>${del('foo')} ${ins('baz')} bar</p></div>`);
  t.equal(htmlDiff('<p>one two three four</p>', '<p>one 2 3 four five</p>'), `<div><p>one ${del('two three')} ${ins('2 3')} four ${ins('five')}</p></div>`, 'runs of words share a span');
  t.equal(htmlDiff('<p>a</p>', '<p>a</p>\n<p>b</p>'), `<div><p>a</p>\n<p>${ins('b')}</p></div>`, 'an added paragraph: its tags as they are, its text inserted');
  t.equal(htmlDiff('<p>a</p>\n<p>b</p>', '<p>a</p>'), `<div><p>a</p>${del('b')}</div>`, 'a removed paragraph: its text, without its tags');
  t.equal(htmlDiff('<p>hello world</p>', '<h1>hello world</h1>'), '<div><h1>hello world</h1></div>', 'a changed tag is the new tag');
  t.equal(htmlDiff('<p><a href="x">link</a></p>', '<p><a href="y">link</a></p>'), '<div><p><a href="y">link</a></p></div>');
  t.equal(htmlDiff('<p>a <em>b</em> c</p>', '<p>a c</p>'), `<div><p>a ${del('b')} c</p></div>`, 'deleted tags are dropped');
  t.equal(htmlDiff('<p>a  b</p>', '<p>a b</p>'), '<div><p>a b</p></div>', 'whitespace alone is no change; the new spelling wins');
  t.equal(htmlDiff('<p>x <strong>y</strong></p>', '<p>x <strong>y z</strong></p>'), `<div><p>x <strong>y ${ins('z')}</strong></p></div>`);
  t.equal(htmlDiff('', '<p>new</p>'), `<div><p>${ins('new')}</p></div>`);
  t.equal(htmlDiff('<p>1 &lt; 2</p>', '<p>1 &lt; 3</p>'), `<div><p>1 &lt; ${del('2')}${ins('3')}</p></div>`);
  t.equal(htmlDiff('<p>1 < 2</p>', '<p>1 < 3</p>'), `<div><p>1 < ${del('2')}${ins('3')}</p></div>`, 'a bare < is text, not a tag');
  t.equal(
    htmlDiff('<p><a title="a>b" href="x">link</a> text</p>', '<p><a title="a>b" href="x">link</a> texts</p>'),
    `<div><p><a title="a>b" href="x">link</a> ${del('text')}${ins('texts')}</p></div>`,
    'a quoted > does not end a tag',
  );

  // The tags of the result are exactly the new message's tags, so it is as well-formed as that.
  const tags = (html: string) => html.match(/<[^>]*>/g)!.filter((tag) => !tag.includes('highlight_text') && tag !== '</span>');
  const before = '<ul>\n<li>one</li>\n<li>two <code>x</code></li>\n</ul>\n<blockquote>\n<p>quoted</p>\n</blockquote>';
  const after = '<ol>\n<li>one</li>\n</ol>\n<p>two <em>y</em> and <code>x</code></p>';
  t.same(tags(htmlDiff(before, after)), ['<div>', ...tags(after), '</div>']);
});

const alice = { id: 10, fullName: 'Alice' };
const bob = { id: 11, fullName: 'Bob' };
const carol = { id: 12, fullName: 'Carol' };
const dave = { id: 9, fullName: 'Dave' };
const time = 1746100800; // 2025-05-01T12:00:00Z
const at = '<time:2025-05-01T12:00:00+00:00>';

function report(overrides: Partial<ReportInput> & { message?: ReportInput['message'] }): ReportInput {
  return {
    reporter: alice,
    reportedUser: bob,
    reportType: 'spam',
    description: 'Buy now',
    message: { id: 77, content: 'cheap stuff', timestampSeconds: time, kind: 'channel', channelId: 3, channelName: 'general', topic: 'deals' },
    realmUrl: 'https://chat.example.com',
    ...overrides,
  };
}

test('reports: validation, labels and topic', async (t) => {
  t.same(REPORT_TYPES, ['spam', 'harassment', 'inappropriate', 'norms', 'other']);
  t.same(REPORT_REASON_LABELS, {
    spam: 'Spam',
    harassment: 'Harassment',
    inappropriate: 'Inappropriate content',
    norms: 'Violates community norms',
    other: 'Other reason',
  });
  t.doesNotThrow(() => validateReport('spam', ''));
  t.doesNotThrow(() => validateReport('other', 'because'));
  t.throws(() => validateReport('other', ''), badRequest('An explanation is required.'));
  t.throws(() => validateReport('other', '  \n'), badRequest('An explanation is required.'));
  t.doesNotThrow(() => validateReport('norms', emoji.repeat(1000)), '1000 code points is the limit');
  t.throws(() => validateReport('norms', 'x'.repeat(1001)), badRequest('description is too long (limit: 1000 characters)'));
  t.throws(() => validateReport('other', ' '.repeat(1001)), badRequest('description is too long (limit: 1000 characters)'), 'the length is checked first');
  t.equal(reportTopic(bob), 'Bob moderation');
});

test('reports: the message content, for each kind of message', async (t) => {
  t.equal(
    reportContent(report({})),
    [
      `@_**Alice|10** reported a message sent by @_**Bob|11** at ${at}.`,
      '```quote',
      '**Spam**. Buy now',
      '```',
      '',
      '``` spoiler Original message at #**general>deals@77**',
      'cheap stuff',
      '```',
    ].join('\n'),
    'channel message',
  );

  const header = (input: ReportInput) => reportContent(input).split('\n')[0];
  const direct = (participants: { id: number; fullName: string }[]) =>
    ({ id: 78, content: 'hi', timestampSeconds: time, kind: 'direct', participants }) as const;
  t.equal(header(report({ message: direct([bob, alice]) })), `@_**Alice|10** reported a direct message sent by @_**Bob|11** at ${at}.`, 'a DM the reporter received');
  t.equal(
    header(report({ reportedUser: alice, message: direct([alice, bob]) })),
    `@_**Alice|10** reported a direct message sent by @_**Alice|10** to @_**Bob|11** at ${at}.`,
    "the reporter's own DM names its recipient",
  );
  t.equal(
    header(report({ reportedUser: alice, message: direct([alice]) })),
    `@_**Alice|10** reported a direct message sent by @_**Alice|10** to @_**Alice|10** at ${at}.`,
    'a self-DM',
  );
  t.equal(
    header(report({ message: direct([bob, alice, carol]) })),
    `@_**Alice|10** reported a direct message sent by @_**Bob|11** to @_**Alice|10** and @_**Carol|12** at ${at}.`,
    'a group of three: no comma',
  );
  t.equal(
    header(report({ message: direct([carol, bob, alice, dave]) })),
    `@_**Alice|10** reported a direct message sent by @_**Bob|11** to @_**Alice|10**, @_**Carol|12**, and @_**Dave|9** at ${at}.`,
    'a group of four: sorted as strings, with the Oxford comma',
  );

  const link = (input: ReportInput) => reportContent(input).split('\n')[5];
  t.equal(link(report({ message: direct([bob, alice]) })), '``` spoiler [Original message](https://chat.example.com/#narrow/dm/10/near/78)', '1:1: the recipient only');
  t.equal(link(report({ reportedUser: alice, message: direct([alice, bob]) })), '``` spoiler [Original message](https://chat.example.com/#narrow/dm/11/near/78)');
  t.equal(link(report({ reportedUser: alice, message: direct([alice]) })), '``` spoiler [Original message](https://chat.example.com/#narrow/dm/10/near/78)');
  t.equal(link(report({ message: direct([carol, bob, alice, dave]) })), '``` spoiler [Original message](https://chat.example.com/#narrow/dm/9,10,11,12-group/near/78)', 'group: all ids, sorted');

  const channel = (channelName: string, topic: string) =>
    ({ id: 77, content: 'x', timestampSeconds: time, kind: 'channel', channelId: 3, channelName, topic }) as const;
  t.equal(link(report({ message: channel('general', '') })), '``` spoiler Original message at #**general>@77**');
  t.equal(
    link(report({ message: channel('dev & ops', 'a > b') })),
    '``` spoiler Original message at [#dev &amp; ops > a &gt; b @ 💬](#narrow/channel/3-dev-.26-ops/topic/a.20.3E.20b/near/77)',
    'names that break #**…** fall back to a Markdown link',
  );
  t.equal(
    link(report({ message: channel('*stars*', '') })),
    '``` spoiler Original message at [#&#42;stars&#42; > general chat @ 💬](#narrow/channel/3-*stars*/topic//near/77)',
  );
  t.equal(link(report({ message: channel('cost', '$$x$$ [y]') })), '``` spoiler Original message at [#cost > &#36;&#36;x&#36;&#36; &#91;y&#93; @ 💬](#narrow/channel/3-cost/topic/.24.24x.24.24.20.5By.5D/near/77)');

  const other = reportContent(report({ reportType: 'other', description: 'see **this**' }));
  t.match(other, '\n**Other reason**. see **this**\n');
  t.match(reportContent(report({ description: '' })), '\n**Spam**. \n', 'an empty description leaves the label alone');
});

test('reports: the spoiler fence and the snippet', async (t) => {
  const withContent = (content: string) =>
    reportContent(report({ message: { id: 77, content, timestampSeconds: time, kind: 'channel', channelId: 3, channelName: 'general', topic: 'deals' } }));
  const fenceOf = (content: string) => withContent(content).split('\n')[5].split(' ')[0];
  t.equal(fenceOf('no fences, just `code`'), '```');
  t.equal(fenceOf('```\ncode\n```'), '````');
  t.equal(fenceOf('````python\ncode\n````\n```'), '`````', 'longer than the longest fence');
  t.equal(fenceOf('   ``````\nindented up to three spaces counts'), '```````');
  t.equal(fenceOf('    ``````\nfour spaces is not a fence'), '```');
  t.equal(fenceOf('text ```` inline'), '```', 'only fences at the start of a line count');
  t.ok(withContent('```\ncode\n```').endsWith('\n```\ncode\n```\n````'));

  const long = withContent(emoji.repeat(8501));
  const snippet = long.split('\n').slice(6, -1).join('\n');
  t.equal(snippet, emoji.repeat(8480) + '\n[message truncated]', 'cut to 8500 code points');
  t.equal(codePoints(snippet), 8500);
  t.ok(withContent(emoji.repeat(8500)).includes('\n' + emoji.repeat(8500) + '\n```'), 'the limit itself is kept');
});

test('channels: names', async (t) => {
  t.equal(checkChannelName('  design  ', 60), 'design');
  t.throws(() => checkChannelName('', 60), badRequest("Channel name can't be empty."));
  t.throws(() => checkChannelName(' \t ', 60), badRequest("Channel name can't be empty."));
  t.equal(checkChannelName(emoji.repeat(60), 60), emoji.repeat(60), 'the limit counts code points');
  t.throws(() => checkChannelName(emoji.repeat(61), 60), badRequest('Channel name too long (limit: 60 characters).'));
  t.throws(() => checkChannelName('abcdef', 5), badRequest('Channel name too long (limit: 5 characters).'));
  t.equal(checkChannelName(' '.repeat(10) + 'short' + ' '.repeat(10), 5), 'short', 'the length is of the stripped name');
  t.throws(() => checkChannelName(`${emoji}a\x1bb`, 60), badRequest('Invalid character in channel name, at position 3.'));
  t.throws(() => checkChannelName(' x\uffff', 60), badRequest('Invalid character in channel name, at position 2.'));
});

test('channels: colours and slugs', async (t) => {
  t.equal(CHANNEL_COLORS.length, 24);
  t.equal(CHANNEL_COLORS[0], '#76ce90');
  t.equal(CHANNEL_COLORS[23], '#a47462');
  t.equal(new Set(CHANNEL_COLORS).size, 24);
  t.equal(pickChannelColor([], 5), '#76ce90');
  t.equal(pickChannelColor(['#76ce90', '#A6C7E5'], 5), '#fae589');
  t.equal(pickChannelColor(new Set(['#76ce90', '#fae589']), 5), '#a6c7e5', 'any iterable');
  t.equal(pickChannelColor(CHANNEL_COLORS, 5), CHANNEL_COLORS[5], 'all used: by recipient id');
  t.equal(pickChannelColor(CHANNEL_COLORS, 50), CHANNEL_COLORS[2]);

  t.ok(isHexColor('#abc'));
  t.ok(isHexColor('#A1B2C3'));
  t.notOk(isHexColor('abc'));
  t.notOk(isHexColor('#abcd'));
  t.notOk(isHexColor('#abcdeg'));
  t.notOk(isHexColor('#abcdef0'));

  t.equal(channelSlug(9, 'Verona'), '9-Verona');
  t.equal(channelSlug(3, 'dev team'), '3-dev-team', 'spaces become dashes');
  t.equal(channelSlug(3, 'a.b(c)!\'*~_'), '3-a.2Eb.28c.29.21.27*~_');
  t.equal(channelSlug(4, 'café/日本'), '4-caf.C3.A9.2F.E6.97.A5.E6.9C.AC');
  t.equal(channelSlug(5, '100% & more'), '5-100.25-.26-more');
});
