/** Global times: `<time:2025-05-01T12:00:00+00:00>` → `<time datetime="2025-05-01T12:00:00Z">…</time>`. */
import type { StateInline } from 'markdown-it';
import { pushElement, type InlineElement } from './elements.js';

const TIME_OPEN = '<time:';
const LESS_THAN = 0x3c;

/**
 * Per inline parse: where the first `>` at or after some earlier position is. A time ends at the
 * first `>`, so remembering it keeps a run of unclosed `<time:` linear instead of quadratic.
 */
const nextCloseByParse = new WeakMap<StateInline, number>();

function closeAfter(state: StateInline, pos: number): number {
  const known = nextCloseByParse.get(state);
  if (known !== undefined && (known >= pos || known === -1)) return known;
  const close = state.src.indexOf('>', pos);
  nextCloseByParse.set(state, close);
  return close;
}

const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const UNIX_SECONDS = /^[+-]?\d+(?:\.\d+)?$/;
const MONTH_NAME = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?=[\s,\d]|$)/i;
const FOUR_DIGIT_YEAR = /\b\d{4}\b/;
const EXPLICIT_ZONE = /(?:\b(?:UTC|GMT)|\d\s*Z|[+-]\d{2}:?\d{2})$/i;
const ORDINAL_SUFFIX = /(\d)(?:st|nd|rd|th)\b/gi;
const GLUED_MERIDIEM = /(\d)(am|pm)\b/gi;

// Python's datetime, which Zulip uses, covers years 1 to 9999.
const MIN_TIME = Date.parse('0001-01-01T00:00:00Z');
const MAX_TIME = Date.parse('9999-12-31T23:59:59.999Z');

function isoTime(match: RegExpExecArray): number | undefined {
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '', zone] = match;
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number);
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return undefined;
  const millis = Number(fraction.padEnd(3, '0').slice(0, 3));
  const date = new Date(Date.UTC(2000, mo - 1, d, h, mi, s, millis));
  date.setUTCFullYear(y);
  if (date.getUTCDate() !== d) return undefined; // 2025-02-30
  return date.getTime() - zoneOffsetMinutes(zone) * 60_000;
}

function zoneOffsetMinutes(zone: string | undefined): number {
  if (!zone || zone.toUpperCase() === 'Z') return 0; // Zulip reads a time without a zone as UTC
  const digits = zone.replace(':', '');
  const sign = digits[0] === '-' ? -1 : 1;
  return sign * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5) || '0'));
}

/**
 * Zulip hands the text to dateutil, which reads almost anything. We read ISO 8601, Unix seconds,
 * and English dates with a month name and a four-digit year ("31 Dec 2017", "Jun 5th 2017, 10:30PM").
 */
export function parseTime(input: string): number | undefined {
  const text = input.trim();
  const iso = ISO_8601.exec(text);
  if (iso) return isoTime(iso);
  if (UNIX_SECONDS.test(text)) return Number(text) * 1000;
  if (!MONTH_NAME.test(text) || !FOUR_DIGIT_YEAR.test(text)) return undefined;
  const cleaned = text.replace(ORDINAL_SUFFIX, '$1').replace(GLUED_MERIDIEM, '$1 $2');
  // Without a zone, JavaScript would read local time; Zulip reads UTC.
  const time = EXPLICIT_ZONE.test(cleaned) ? Date.parse(cleaned) : Date.parse(`${cleaned} UTC`);
  return Number.isNaN(time) ? undefined : time;
}

/** Python's `isoformat()` with `+00:00` written `Z`: seconds always, microseconds only when non-zero. */
export function zulipIsoTime(time: number): string {
  const iso = new Date(time).toISOString(); // 2017-06-05T22:30:00.000Z
  const millis = iso.slice(20, 23);
  return millis === '000' ? `${iso.slice(0, 19)}Z` : `${iso.slice(0, 19)}.${millis}000Z`;
}

export function timeElement(input: string): InlineElement {
  const time = parseTime(input);
  if (time === undefined || !(time >= MIN_TIME && time <= MAX_TIME)) {
    return { tag: 'span', attributes: [['class', 'timestamp-error']], text: `Invalid time format: ${input}` };
  }
  return { tag: 'time', attributes: [['datetime', zulipIsoTime(time)]], text: input };
}

export function timeRule(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (state.src.charCodeAt(start) !== LESS_THAN || !state.src.startsWith(TIME_OPEN, start)) return false;
  const close = closeAfter(state, start + TIME_OPEN.length);
  if (close === -1 || close >= state.posMax) return false;
  pushElement(state, silent, timeElement(state.src.slice(start + TIME_OPEN.length, close)));
  state.pos = close + 1;
  return true;
}
