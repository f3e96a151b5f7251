/**
 * Custom profile fields: the field record, the rules for defining one (name, hint, type,
 * `field_data`, the profile summary) and for a user's value of one, with Zulip's messages.
 */
import { badRequest } from './errors.js';

export const FieldType = {
  SHORT_TEXT: 1,
  LONG_TEXT: 2,
  SELECT: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;
export type FieldType = (typeof FieldType)[keyof typeof FieldType];

/** What `custom_profile_field_types` in POST /register lists. */
export const FIELD_TYPE_NAMES = {
  SHORT_TEXT: { id: 1, name: 'Text (short)' },
  LONG_TEXT: { id: 2, name: 'Text (long)' },
  SELECT: { id: 3, name: 'List of options' },
  DATE: { id: 4, name: 'Date picker' },
  URL: { id: 5, name: 'Link' },
  USER: { id: 6, name: 'Person picker' },
  EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
  PRONOUNS: { id: 8, name: 'Pronouns' },
} as const;

export const NAME_MAX_LENGTH = 40;
export const HINT_MAX_LENGTH = 80;
export const SHORT_VALUE_MAX_LENGTH = 50;
export const LONG_VALUE_MAX_LENGTH = 500;
export const MAX_SUMMARY_FIELDS = 2;

/** Zulip's built-in external account kinds: their name, hint and link come from here. */
export const DEFAULT_EXTERNAL_ACCOUNTS: Record<string, { name: string; hint: string; urlPattern: string }> = {
  github: { name: 'GitHub', hint: 'Enter your GitHub username', urlPattern: 'https://github.com/%(username)s' },
  twitter: { name: 'Twitter', hint: 'Enter your Twitter username', urlPattern: 'https://twitter.com/%(username)s' },
};

/** Options of a select field (by option key), or the external account's kind and link pattern. */
export type FieldData = Record<string, unknown>;

export interface ProfileFieldRecord {
  id: number;
  name: string;
  hint: string;
  type: FieldType;
  /** null for types without data (the API shows `""`). */
  fieldData: FieldData | null;
  order: number;
  displayInProfileSummary: boolean;
  required: boolean;
  editableByUser: boolean;
}

/** The field as the API shows it (Zulip's `as_dict`). */
export function fieldObject(field: ProfileFieldRecord): Record<string, unknown> {
  const object: Record<string, unknown> = {
    id: field.id,
    name: field.name,
    type: field.type,
    hint: field.hint,
    field_data: field.fieldData === null ? '' : JSON.stringify(field.fieldData),
    order: field.order,
    required: field.required,
    editable_by_user: field.editableByUser,
  };
  if (field.displayInProfileSummary) object.display_in_profile_summary = true;
  return object;
}

export const isFieldType = (value: number): value is FieldType => Number.isInteger(value) && value >= 1 && value <= 8;
export const hasFieldData = (type: number) => type === FieldType.SELECT || type === FieldType.EXTERNAL_ACCOUNT;
/** Types whose values are Markdown (Zulip's `is_renderable`). */
export const isRenderable = (type: number) => type === FieldType.SHORT_TEXT || type === FieldType.LONG_TEXT;

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Is `text` an absolute http(s) or other URL, as Django's URLValidator would take it? */
export function isUrl(text: string): boolean {
  if (!/^(https?|ftps?):\/\/[^\s/?#]+[^\s]*$/i.test(text)) return false;
  try {
    const url = new URL(text);
    return url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** A select field's options: each an object of a non-empty `text` and `order`, no two texts alike. */
export function checkSelectFieldData(data: FieldData): void {
  if (Object.keys(data).length < 1) throw badRequest('Field must have at least one choice.');
  const texts = new Set<string>();
  for (const [key, option] of Object.entries(data)) {
    const name = `field_data["${key}"]`;
    if (!isPlainObject(option)) throw badRequest(`${name} is not a dict`);
    for (const part of ['text', 'order'] as const) {
      if (!(part in option)) throw badRequest(`${part} key is missing from ${name}`);
      if (typeof option[part] !== 'string') throw badRequest(`${name}["${part}"] is not a string`);
      if ((option[part] as string).trim() === '') throw badRequest(`${name}["${part}"] cannot be blank.`);
    }
    const extra = Object.keys(option).find((k) => k !== 'text' && k !== 'order');
    if (extra !== undefined) throw badRequest(`Unexpected arguments: ${extra}`);
    if (texts.has(option.text as string)) throw badRequest('Field must not have duplicate choices.');
    texts.add(option.text as string);
  }
}

/** An external account field: a known `subtype`, or `custom` with a `url_pattern` holding `%(username)s` once. */
export function checkExternalAccountFieldData(data: FieldData): void {
  if (!('subtype' in data)) throw badRequest('subtype key is missing from field_data');
  if (typeof data.subtype !== 'string') throw badRequest('field_data["subtype"] is not a string');
  if (data.subtype.trim() === '') throw badRequest('field_data["subtype"] cannot be blank.');
  const extra = Object.keys(data).find((k) => k !== 'subtype' && k !== 'url_pattern');
  if (extra !== undefined) throw badRequest(`Unexpected arguments: ${extra}`);
  if ('url_pattern' in data) {
    const pattern = data.url_pattern;
    if (typeof pattern !== 'string') throw badRequest('field_data["url_pattern"] is not a string');
    if (pattern.split('%(username)s').length !== 2) throw badRequest("URL pattern must contain '%(username)s'.");
    if (!isUrl(pattern.replace('%(username)s', 'username'))) throw badRequest('field_data["url_pattern"] is not a URL');
  }
  if (!(data.subtype in DEFAULT_EXTERNAL_ACCOUNTS)) {
    if (data.subtype !== 'custom') throw badRequest('Invalid external account type');
    if (!('url_pattern' in data)) throw badRequest('Custom external account must define URL pattern');
  }
}

/** A built-in external account kind, whose name and hint are the server's. */
export const isDefaultExternalField = (type: number, data: FieldData) =>
  type === FieldType.EXTERNAL_ACCOUNT && typeof data.subtype === 'string' && data.subtype in DEFAULT_EXTERNAL_ACCOUNTS;

export interface FieldDefinition {
  name: string;
  hint: string;
  type: number;
  fieldData: FieldData;
  displayInProfileSummary: boolean;
}

/** Zulip's `validate_custom_profile_field`, in its order: data, then name and hint, then type, then the summary. */
export function checkFieldDefinition(definition: FieldDefinition): void {
  const { type, fieldData } = definition;
  if (type === FieldType.SELECT) checkSelectFieldData(fieldData);
  else if (type === FieldType.EXTERNAL_ACCOUNT) checkExternalAccountFieldData(fieldData);
  if (!isDefaultExternalField(type, fieldData)) {
    if (definition.name.trim() === '') throw badRequest('Label cannot be blank.');
    if ([...definition.hint].length > HINT_MAX_LENGTH) throw badRequest(`hint is too long (limit: ${HINT_MAX_LENGTH} characters)`);
    if ([...definition.name].length > NAME_MAX_LENGTH) throw badRequest(`name is too long (limit: ${NAME_MAX_LENGTH} characters)`);
  }
  if (!isFieldType(type)) throw badRequest('Invalid field type.');
  if (definition.displayInProfileSummary && (type === FieldType.LONG_TEXT || type === FieldType.USER)) {
    throw badRequest('Field type not supported for display in profile summary.');
  }
}

/** At most two fields in the summary: `others` are the fields other than the one being set. */
export function checkSummaryLimit(others: readonly ProfileFieldRecord[]): void {
  if (others.filter((f) => f.displayInProfileSummary).length >= MAX_SUMMARY_FIELDS) {
    throw badRequest(`Only ${MAX_SUMMARY_FIELDS} custom profile fields can be displayed in the profile summary.`);
  }
}

/** Is `text` a calendar date written YYYY-MM-DD? */
export function isDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Facts about users a person-picker value needs. */
export interface UserLookup {
  (id: number): { isBot: boolean; isActive: boolean } | undefined;
}

/**
 * A user's value for `field`, as stored (a string; a person picker's ids as JSON), or an error
 * named after the field, as Zulip's `validate_user_custom_profile_field`.
 */
export function checkFieldValue(field: ProfileFieldRecord, value: unknown, users: UserLookup): string {
  const name = field.name;
  if (field.type === FieldType.USER) {
    if (!Array.isArray(value)) throw badRequest('User IDs is not a list');
    for (const [index, id] of value.entries()) {
      if (typeof id !== 'number' || !Number.isInteger(id)) throw badRequest(`User IDs[${index}] is not an integer`);
      const user = users(id);
      if (!user) throw badRequest(`Invalid user ID: ${id}`);
      if (!user.isActive) throw badRequest(`User with ID ${id} is deactivated`);
      if (user.isBot) throw badRequest(`User with ID ${id} is a bot`);
    }
    return JSON.stringify(value);
  }
  if (typeof value !== 'string') throw badRequest(`${name} is not a string`);
  const length = [...value].length;
  switch (field.type) {
    case FieldType.LONG_TEXT:
      if (length > LONG_VALUE_MAX_LENGTH) throw badRequest(`${name} is too long (limit: ${LONG_VALUE_MAX_LENGTH} characters)`);
      break;
    case FieldType.DATE:
      if (!isDate(value)) throw badRequest(`${name} is not a date`);
      break;
    case FieldType.URL:
      if (!isUrl(value)) throw badRequest(`${name} is not a URL`);
      break;
    case FieldType.SELECT:
      if (!field.fieldData || !Object.prototype.hasOwnProperty.call(field.fieldData, value)) {
        throw badRequest(`'${value}' is not a valid choice for '${name}'.`);
      }
      break;
    default:
      if (length > SHORT_VALUE_MAX_LENGTH) throw badRequest(`${name} is too long (limit: ${SHORT_VALUE_MAX_LENGTH} characters)`);
  }
  return value;
}

/** An empty value clears the field (as Zulip's administrators' path does). */
export const isEmptyValue = (value: unknown) => value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** The fields in display order (by `order`, then id). */
export const inOrder = (fields: readonly ProfileFieldRecord[]) => [...fields].sort((a, b) => a.order - b.order || a.id - b.id);
