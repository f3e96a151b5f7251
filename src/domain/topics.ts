/** Zulip's text rules for topics and message bodies: normalisation, display, resolution, truncation. */
import { badRequest } from './errors.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from './realm.js';
import { ApiError } from './errors.js';

export { EMPTY_TOPIC_DISPLAY_NAME };

/** U+2714 HEAVY CHECK MARK and a space: a resolved topic is only a renamed one. */
export const RESOLVED_TOPIC_PREFIX = '✔ ';

const CONTENT_TRUNCATION_MARK = '\n[message truncated]';
export const TOPIC_TRUNCATION_MARK = '...';

// Python's str.isspace() set, which is what Zulip's strip() removes. It differs from JS
// trim(): Python also strips \x1c-\x1f and \x85, and keeps U+FEFF.
const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const LEADING_SPACE = new RegExp(`^[${PY_SPACE}]+`);
const TRAILING_SPACE = new RegExp(`[${PY_SPACE}]+$`);

/** Python's `str.strip()`. */
export function pyStrip(text: string): string {
  return pyRstrip(text).replace(LEADING_SPACE, '');
}

/** Python's `str.rstrip()`. */
export function pyRstrip(text: string): string {
  return text.replace(TRAILING_SPACE, '');
}

/** Length in code points, as Python's len() counts and as Zulip's limits are stated. */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Zulip's truncate_content: cut to `maxLength` code points, ending with `mark`. */
export function truncateContent(text: string, maxLength: number, mark: string): string {
  const chars = Array.from(text);
  if (chars.length <= maxLength) return text;
  return chars.slice(0, maxLength - codePointLength(mark)).join('') + mark;
}

// Unicode categories Cc and Cs plus the 66 noncharacters: Zulip's check_string_is_printable.
const NON_PRINTABLE = /[\p{Cc}\p{Cs}\p{Noncharacter_Code_Point}]/u;

/** 1-indexed position, in code points, of the first non-printable character; undefined if none. */
export function nonPrintablePosition(text: string): number | undefined {
  let position = 0;
  for (const char of text) {
    position++;
    if (NON_PRINTABLE.test(char)) return position;
  }
  return undefined;
}

/** Zulip's topic normalisation for sending and editing (the empty topic is a real topic since FL 334). */
export function normalizeTopic(topic: string, options: { maxLength: number; emptyTopicDisplayName: string }): string {
  let name = pyStrip(topic);
  // Clients that don't know the empty topic send its display name, or the legacy placeholder.
  if (name === options.emptyTopicDisplayName || name === '(no topic)') name = '';
  const position = nonPrintablePosition(name);
  if (position !== undefined) throw badRequest(`Invalid character in topic, at position ${position}!`);
  // Too long is not an error in Zulip: the topic is silently shortened.
  return truncateContent(name, options.maxLength, TOPIC_TRUNCATION_MARK);
}

/** How a topic is displayed and returned: clients without `allow_empty_topic_name` get the display name. */
export function displayTopic(topic: string, allowEmpty: boolean, emptyTopicDisplayName: string): string {
  return topic === '' && !allowEmpty ? emptyTopicDisplayName : topic;
}

/** The key topics are grouped and looked up by: Zulip matches topics case-insensitively. */
export function topicKey(topic: string): string {
  return topic.toLowerCase();
}

export function isResolved(topic: string): boolean {
  return topic.startsWith(RESOLVED_TOPIC_PREFIX);
}

/** Python's `lstrip("✔ ")`: strips any run of those characters, not the prefix once. */
function stripResolvedMarks(topic: string): string {
  return topic.replace(/^[✔ ]+/u, '');
}

/**
 * Whether renaming `oldTopic` to `newTopic` resolves or unresolves it (Zulip's rule). Zulip
 * compares the new name before truncation; given only the stored (possibly truncated) name, a
 * new name ending in '...' also counts when the old name is long enough to have been cut there.
 */
export function topicResolutionChange(oldTopic: string, newTopic: string): 'resolved' | 'unresolved' | undefined {
  const oldResolved = isResolved(oldTopic);
  const newResolved = isResolved(newTopic);
  if (newResolved && !oldResolved) {
    const bare = newTopic.slice(RESOLVED_TOPIC_PREFIX.length);
    if (bare === oldTopic) return 'resolved';
    const truncated =
      bare.endsWith(TOPIC_TRUNCATION_MARK) &&
      codePointLength(RESOLVED_TOPIC_PREFIX) + codePointLength(oldTopic) > codePointLength(newTopic) &&
      oldTopic.startsWith(bare.slice(0, -TOPIC_TRUNCATION_MARK.length));
    return truncated ? 'resolved' : undefined;
  }
  if (oldResolved && !newResolved && stripResolvedMarks(oldTopic) === newTopic) return 'unresolved';
  return undefined;
}

/** Zulip's normalize_body for message content: trailing whitespace and leading blank lines go. */
export function normalizeContent(content: string, maxLength: number): string {
  // Leading spaces stay: they can be meaningful Markdown (an indented code block).
  const body = pyRstrip(content).replace(/^\n+/, '');
  if (body === '') throw badRequest('Message must not be empty');
  if (body.includes('\x00')) throw badRequest('Message must not contain null bytes');
  // Too long is not an error in Zulip: the message is cut and says so.
  return truncateContent(body, maxLength, CONTENT_TRUNCATION_MARK);
}

/** `topic`, or its legacy name `subject`; both at once is Zulip's REQUEST_CONFUSING_VAR. */
export function topicParameter(params: { topic?: string; subject?: string }): string | undefined {
  if (params.topic !== undefined && params.subject !== undefined) {
    throw new ApiError('REQUEST_CONFUSING_VAR', "Can't decide between 'topic' and 'subject' arguments", 400, { var_name1: 'topic', var_name2: 'subject' });
  }
  return params.topic ?? params.subject;
}
