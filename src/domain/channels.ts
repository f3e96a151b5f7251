/** Channel rules that need no storage: name validation, subscription colours, narrow-URL slugs. */
import { badRequest } from './errors.js';
import { codePointLength, nonPrintablePosition, pyStrip } from './topics.js';

/** Zulip's check_stream_name, run on the stripped name, which it returns. */
export function checkChannelName(name: string, maxLength: number): string {
  const stripped = pyStrip(name);
  if (stripped === '') throw badRequest("Channel name can't be empty.");
  if (codePointLength(stripped) > maxLength) throw badRequest(`Channel name too long (limit: ${maxLength} characters).`);
  const position = nonPrintablePosition(stripped);
  if (position !== undefined) throw badRequest(`Invalid character in channel name, at position ${position}.`);
  return stripped;
}

/** Zulip's STREAM_ASSIGNMENT_COLORS, in its order: clients show these swatches. */
export const CHANNEL_COLORS: readonly string[] = [
  '#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55',
  '#b0a5fd', '#addfe5', '#f5ce6e', '#c2726a', '#94c849', '#bd86e5',
  '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063', '#9987e1', '#e4523d',
  '#c2c2c2', '#4f8de4', '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462',
];

/**
 * The colour of a new subscription: the first palette colour the user isn't using yet, so a
 * user's first channels all look different; once all are used, one chosen by the recipient id,
 * so that the same channel tends to get the same colour for everyone.
 */
export function pickChannelColor(usedColors: Iterable<string>, recipientId: number): string {
  const used = new Set(Array.from(usedColors, (color) => color.toLowerCase()));
  const unused = CHANNEL_COLORS.find((color) => !used.has(color));
  return unused ?? CHANNEL_COLORS[recipientId % CHANNEL_COLORS.length];
}

const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

export function isHexColor(value: string): boolean {
  return HEX_COLOR.test(value);
}

/**
 * Zulip's encode_hash_component: percent-encoding (Python's quote with '*' safe) with '%'
 * turned into '.', so that URLs survive being pasted into Markdown and email. '.' itself,
 * '(' and ')' are encoded too, so decoding stays unambiguous.
 */
export function encodeHashComponent(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'().]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%/g, '.');
}

/** A channel's slug in narrow URLs (`#narrow/channel/<slug>`): the id is what counts, the name is for humans. */
export function channelSlug(id: number, name: string): string {
  return `${id}-${encodeHashComponent(name.replace(/ /g, '-'))}`;
}
