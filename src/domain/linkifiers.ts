/**
 * Linkifiers and code playgrounds of an organization: their records, Zulip's validation (its
 * model's `full_clean`: field errors, then `clean`, then uniqueness, every message collected by
 * field and the first one shown), their API objects, and linkifiers compiled for the renderer.
 */
import { ApiError } from './errors.js';
import { translatePattern } from './linkifier-pattern.js';
import { isUrlTemplate, templateVariables } from './url-template.js';

export interface LinkifierRecord {
  id: number;
  pattern: string;
  urlTemplate: string;
}

export interface PlaygroundRecord {
  id: number;
  name: string;
  pygmentsLanguage: string;
  urlTemplate: string;
}

export const linkifierObject = (l: LinkifierRecord) => ({ pattern: l.pattern, url_template: l.urlTemplate, id: l.id });
export const playgroundObject = (p: PlaygroundRecord) => ({ id: p.id, name: p.name, pygments_language: p.pygmentsLanguage, url_template: p.urlTemplate });

/** Django's validation errors by field (`__all__` for the model's own checks), in the order found. */
type FieldErrors = Record<string, string[]>;

const BLANK = 'This field cannot be blank.';
const INVALID_TEMPLATE = 'Invalid URL template.';

function add(errors: FieldErrors, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}

/** Zulip's ValidationFailureError: the first message, with every message by field. */
function failIfAny(errors: FieldErrors): void {
  const messages = Object.values(errors).flat();
  if (messages.length > 0) throw new ApiError('BAD_REQUEST', messages[0], 400, { errors });
}

/** Why a linkifier (already stripped) may not be stored; `others` are the organization's other linkifiers. */
export function checkLinkifier(pattern: string, urlTemplate: string, others: readonly LinkifierRecord[]): void {
  const errors: FieldErrors = {};
  if (pattern === '') add(errors, 'pattern', BLANK);
  if (urlTemplate === '') add(errors, 'url_template', BLANK);
  else if (!isUrlTemplate(urlTemplate)) add(errors, 'url_template', INVALID_TEMPLATE);
  const translated = translatePattern(pattern);
  if ('error' in translated) add(errors, '__all__', `Bad regular expression: ${translated.error}`);
  else if (urlTemplate !== '' && isUrlTemplate(urlTemplate)) {
    const variables = new Set(templateVariables(urlTemplate));
    const groups = new Set(translated.groups);
    const notInPattern = [...variables].filter((name) => !groups.has(name)).sort()[0];
    const notInTemplate = [...groups].filter((name) => !variables.has(name)).sort()[0];
    if (notInPattern !== undefined) add(errors, '__all__', `Group '${notInPattern}' in URL template is not present in linkifier pattern.`);
    else if (notInTemplate !== undefined) add(errors, '__all__', `Group '${notInTemplate}' in linkifier pattern is not present in URL template.`);
  }
  if (pattern !== '' && others.some((other) => other.pattern === pattern)) add(errors, '__all__', 'Realm filter with this Realm and Pattern already exists.');
  failIfAny(errors);
}

const PYGMENTS_LANGUAGE_LENGTH = 40;
// Zulip's character set, its `+-.` a range (which also lets `,` in).
const PYGMENTS_LANGUAGE = /^[ a-zA-Z0-9_+-./#]*$/;

/** The view's check of `pygments_language`, before the model's (a plain error, no field list). */
export function checkPygmentsLanguage(language: string): void {
  if (language.length > PYGMENTS_LANGUAGE_LENGTH) throw new ApiError('BAD_REQUEST', `pygments_language is too long (limit: ${PYGMENTS_LANGUAGE_LENGTH} characters)`);
  if (!PYGMENTS_LANGUAGE.test(language)) throw new ApiError('BAD_REQUEST', 'Invalid characters in pygments language');
}

/** Why a playground (fields already stripped) may not be stored; `others` are the organization's playgrounds. */
export function checkPlayground(name: string, pygmentsLanguage: string, urlTemplate: string, others: readonly PlaygroundRecord[]): void {
  const errors: FieldErrors = {};
  if (urlTemplate === '') add(errors, 'url_template', BLANK);
  else if (!isUrlTemplate(urlTemplate)) add(errors, 'url_template', INVALID_TEMPLATE);
  if (name === '') add(errors, 'name', BLANK);
  if (pygmentsLanguage === '') add(errors, 'pygments_language', BLANK);
  const variables = urlTemplate === '' ? undefined : templateVariables(urlTemplate);
  if (variables && !variables.includes('code')) add(errors, '__all__', 'Missing the required variable "code" in the URL template');
  else if (variables && variables.length !== 1) add(errors, '__all__', '"code" should be the only variable present in the URL template');
  if (name !== '' && pygmentsLanguage !== '' && others.some((p) => p.name === name && p.pygmentsLanguage === pygmentsLanguage)) {
    add(errors, '__all__', 'Realm playground with this Realm, Pygments language and Name already exists.');
  }
  failIfAny(errors);
}

/** A linkifier as the renderer runs it. */
export interface CompiledLinkifier {
  /** Zulip's prepared pattern: after start, whitespace or an opening delimiter; not followed by a letter or digit. */
  regex: RegExp;
  urlTemplate: string;
  groups: readonly string[];
}

const compiledCache = new WeakMap<readonly LinkifierRecord[], CompiledLinkifier[]>();

function compile(linkifier: LinkifierRecord): CompiledLinkifier | undefined {
  const translated = translatePattern(linkifier.pattern);
  if ('error' in translated) return undefined;
  // Group 1 is what comes before, group 2 the match (the pattern's own groups are named); the
  // character after is looked at, not taken, so that the next match may start right after.
  const source = `(^|\\s|\\u0085|\\p{Z}|['"(,:<])(${translated.source})(?=$|[^\\p{L}\\p{N}])`;
  return { regex: new RegExp(source, `gu${translated.flags}`), urlTemplate: linkifier.urlTemplate, groups: translated.groups };
}

/** The organization's linkifiers compiled, in order (cached per list: a change replaces the list). */
export function compiledLinkifiers(linkifiers: readonly LinkifierRecord[] | undefined): readonly CompiledLinkifier[] {
  if (!linkifiers || linkifiers.length === 0) return [];
  let compiled = compiledCache.get(linkifiers);
  if (!compiled) {
    compiled = linkifiers.map(compile).filter((c): c is CompiledLinkifier => c !== undefined);
    compiledCache.set(linkifiers, compiled);
  }
  return compiled;
}
