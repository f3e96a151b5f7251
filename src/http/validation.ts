/**
 * Endpoint parameters: each endpoint's JSON Schema (schemas/<name>.ts) says which
 * parameters exist, their types, defaults and limits. Values the schema types as anything but
 * a plain string arrive JSON-encoded and are decoded here (ajv's coercion does not parse JSON,
 * STACK-NOTES #19); then ajv validates, and its first error becomes Zulip's message for it.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ApiError, missingArgument } from '../domain/errors.js';
import type { RawParams } from './params.js';

interface PropertySchema {
  readonly type?: string | readonly string[];
  /** Taken as sent even though the type is not a plain string. */
  readonly 'x-raw'?: boolean;
  /** JSON when it parses as JSON, else taken as sent (`to`: a name, an id or a list). */
  readonly 'x-json-or-raw'?: boolean;
  [key: string]: unknown;
}

/** An endpoint's schema: an object of named parameters, identified by `$id`. */
export interface EndpointSchema {
  readonly $id: string;
  readonly type: 'object';
  readonly properties?: { readonly [name: string]: PropertySchema };
  [key: string]: unknown;
}

type Encoding = 'raw' | 'json' | 'json-or-raw';

export interface ParamValidator {
  name: string;
  /** Decodes and validates; returns the typed parameters and the names it did not know. */
  validate(raw: RawParams): { params: Record<string, unknown>; ignored: string[] };
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  array: 'a list',
  object: 'a dict',
  string: 'a string',
};

/** The name Zulip shows for a value inside a parameter: `narrow[0]["operand"]`. */
function displayName(instancePath: string): string {
  const parts = instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let name = parts[0] ?? '';
  for (const part of parts.slice(1)) name += /^\d+$/.test(part) ? `[${part}]` : `["${part}"]`;
  return name;
}

export function messageForAjvError(error: ErrorObject): ApiError {
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    if (error.instancePath === '') return missingArgument(missing);
    return new ApiError('BAD_REQUEST', `${missing} key is missing from ${displayName(error.instancePath)}`);
  }
  const name = displayName(error.instancePath);
  const custom = (error.parentSchema as { 'x-error'?: string } | undefined)?.['x-error'];
  if (custom) return new ApiError('BAD_REQUEST', custom.replace('{name}', name), 400, { var_name: name });
  switch (error.keyword) {
    case 'type': {
      const type = (error.params as { type: string | string[] }).type;
      const word = typeof type === 'string' ? TYPE_WORDS[type] : undefined;
      return new ApiError('BAD_REQUEST', word ? `${name} is not ${word}` : `Invalid ${name}`, 400, { var_name: name });
    }
    case 'maxLength': {
      const limit = (error.params as { limit: number }).limit;
      return new ApiError('BAD_REQUEST', `${name} is too long (limit: ${limit} characters)`, 400, { var_name: name });
    }
    case 'minLength':
      if ((error.params as { limit: number }).limit === 1) {
        return new ApiError('BAD_REQUEST', `${name} cannot be blank`, 400, { var_name: name });
      }
      return new ApiError('BAD_REQUEST', `Invalid ${name}`, 400, { var_name: name });
    case 'additionalProperties': {
      const extra = (error.params as { additionalProperty: string }).additionalProperty;
      // Zulip's typed_endpoint (pydantic's extra_forbidden): the extra key is part of the name.
      return new ApiError('BAD_REQUEST', `Argument "${extra}" at ${name}["${extra}"] is unexpected`, 400, { var_name: name });
    }
    default:
      return new ApiError('BAD_REQUEST', `Invalid ${name}`, 400, { var_name: name });
  }
}

function encodingOf(schema: PropertySchema): Encoding {
  if (schema['x-raw']) return 'raw';
  if (schema['x-json-or-raw']) return 'json-or-raw';
  return schema.type === 'string' ? 'raw' : 'json';
}

/** Whether every string inside a JSON value is well-formed UTF-16 (no lone surrogates). */
function wellFormed(value: unknown): boolean {
  if (typeof value === 'string') return (value as string & { isWellFormed(): boolean }).isWellFormed();
  if (Array.isArray(value)) return value.every(wellFormed);
  if (value !== null && typeof value === 'object') return Object.entries(value).every(([key, item]) => wellFormed(key) && wellFormed(item));
  return true;
}

function compile(ajv: Ajv, schema: EndpointSchema, eager: boolean): ParamValidator {
  // Compiled on first use: a hundred schemas cost ~160 ms at start, and most servers use few routes.
  let check: ValidateFunction | undefined = eager ? ajv.compile(schema) : undefined;
  const encodings = new Map<string, Encoding>();
  for (const [name, property] of Object.entries(schema.properties ?? {})) encodings.set(name, encodingOf(property));
  return {
    name: schema.$id,
    validate(raw) {
      const params: Record<string, unknown> = {};
      const ignored: string[] = [];
      for (const name in raw) {
        const encoding = encodings.get(name);
        if (encoding === undefined) {
          ignored.push(name);
          continue;
        }
        const text = raw[name];
        if (encoding === 'raw') {
          params[name] = text;
          continue;
        }
        try {
          params[name] = JSON.parse(text);
        } catch {
          if (encoding === 'json-or-raw') params[name] = text;
          else throw new ApiError('BAD_REQUEST', `${name} is not valid JSON`, 400, { var_name: name });
          continue;
        }
        // A JSON escape can make a lone surrogate, which no store or client can keep as it is.
        if (text.includes('\\u') && !wellFormed(params[name])) {
          throw new ApiError('BAD_REQUEST', `${name} contains invalid Unicode`, 400, { var_name: name });
        }
      }
      check ??= ajv.compile(schema);
      if (!check(params)) throw messageForAjvError(check.errors![0]);
      ignored.sort();
      return { params, ignored };
    },
  };
}

/**
 * A validator per schema, by `$id`; each compiles its schema once, on first use (`eager`: now, so
 * that a test sees every schema compile).
 */
export function compileValidators(schemas: Iterable<EndpointSchema>, { eager = false } = {}): Map<string, ParamValidator> {
  const ajv = new Ajv({ useDefaults: true, allErrors: false, strict: true, allowUnionTypes: true, coerceTypes: false });
  addFormats.default(ajv);
  ajv.addVocabulary(['x-raw', 'x-json-or-raw', 'x-error']);
  const validators = new Map<string, ParamValidator>();
  for (const schema of schemas) {
    if (validators.has(schema.$id)) throw new Error(`two schemas have $id '${schema.$id}'`);
    validators.set(schema.$id, compile(ajv, schema, eager));
  }
  return validators;
}
