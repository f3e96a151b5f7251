/** HTML escaping as Zulip's serializers do it, and attribute lists rendered in Zulip's (sorted) order. */

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const entity = (ch: string): string => ENTITIES[ch];

const TEXT_SPECIAL = /[&<>]/;
const TEXT_SPECIAL_ALL = /[&<>]/g;
const ATTRIBUTE_SPECIAL = /[&<>"]/;
const ATTRIBUTE_SPECIAL_ALL = /[&<>"]/g;
const CODE_SPECIAL = /[&<>"']/;
const CODE_SPECIAL_ALL = /[&<>"']/g;

/** Text content: Zulip leaves quotes alone outside attributes (`it's`, `"x"`). */
export function escapeText(text: string): string {
  return TEXT_SPECIAL.test(text) ? text.replace(TEXT_SPECIAL_ALL, entity) : text;
}

export function escapeAttribute(value: string): string {
  return ATTRIBUTE_SPECIAL.test(value) ? value.replace(ATTRIBUTE_SPECIAL_ALL, entity) : value;
}

/** Code blocks without a language keep Pygments' escaping, which also covers both quotes. */
export function escapeHighlightedCode(code: string): string {
  return CODE_SPECIAL.test(code) ? code.replace(CODE_SPECIAL_ALL, entity) : code;
}

export type Attributes = ReadonlyArray<readonly [name: string, value: string]>;

/** ` name="value"` for each attribute; callers list them alphabetically, as Zulip's output has them. */
export function renderAttributes(attributes: Attributes): string {
  let html = '';
  for (const [name, value] of attributes) html += ` ${name}="${escapeAttribute(value)}"`;
  return html;
}
