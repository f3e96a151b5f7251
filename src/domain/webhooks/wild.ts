/**
 * Reading third-party JSON the way Zulip's `WildValue` does: every step names where it is
 * (`payload["sender"]["login"]`), so that a payload of the wrong shape is refused with
 * Zulip's sentence (`... is missing`, `... is not a string`).
 */
import { badRequest } from '../errors.js';

export class Wild {
  constructor(
    readonly name: string,
    readonly value: unknown,
  ) {}

  private get object(): Record<string, unknown> {
    if (this.value === null || typeof this.value !== 'object' || Array.isArray(this.value)) throw badRequest(`${this.name} is not a dict`);
    return this.value as Record<string, unknown>;
  }

  has(key: string): boolean {
    return this.value !== null && typeof this.value === 'object' && !Array.isArray(this.value) && key in (this.value as object);
  }

  /** The member `key`, which must be there. */
  at(key: string): Wild {
    const object = this.object;
    if (!(key in object)) throw badRequest(`${this.name}["${key}"] is missing`);
    return new Wild(`${this.name}["${key}"]`, object[key]);
  }

  /** The member `key`, or undefined when absent. */
  get(key: string): Wild | undefined {
    return this.has(key) ? this.at(key) : undefined;
  }

  /** Python's truthiness of the value. */
  get truthy(): boolean {
    const v = this.value;
    if (Array.isArray(v)) return v.length > 0;
    if (v !== null && typeof v === 'object') return Object.keys(v).length > 0;
    return Boolean(v);
  }

  str(): string {
    if (typeof this.value !== 'string') throw badRequest(`${this.name} is not a string`);
    return this.value;
  }

  strOrNull(): string | null {
    return this.value === null ? null : this.str();
  }

  int(): number {
    if (typeof this.value !== 'number' || !Number.isInteger(this.value)) throw badRequest(`${this.name} is not an integer`);
    return this.value;
  }

  bool(): boolean {
    if (typeof this.value !== 'boolean') throw badRequest(`${this.name} is not a boolean`);
    return this.value;
  }

  oneOf(allowed: readonly string[]): string {
    const text = this.str();
    if (!allowed.includes(text)) throw badRequest(`Invalid ${this.name}`);
    return text;
  }

  url(): string {
    const text = this.str();
    try {
      const url = new URL(text);
      if (url.protocol === 'http:' || url.protocol === 'https:') return text;
    } catch {
      // falls through to the refusal
    }
    throw badRequest(`${this.name} is not a URL`);
  }

  list(): Wild[] {
    if (!Array.isArray(this.value)) throw badRequest(`${this.name} is not a list`);
    return this.value.map((item, i) => new Wild(`${this.name}[${i}]`, item));
  }
}

/** Parses a webhook's JSON (Zulip's `to_wild_value`): anything unparsable is `Malformed JSON`. */
export function parsePayload(text: string, name = 'payload'): Wild {
  try {
    return new Wild(name, JSON.parse(text));
  } catch {
    throw badRequest('Malformed JSON');
  }
}
