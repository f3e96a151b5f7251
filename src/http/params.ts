/**
 * Reads request parameters from the query string and the body. Bodies may be
 * `application/x-www-form-urlencoded`, `multipart/form-data` (the zulip-js client) or empty.
 * A parameter sent twice keeps its last value, and the body wins over the query, as in Django.
 */
import { parse as parseQueryString } from 'node:querystring';
import { ApiError } from '../domain/errors.js';
import type { UploadedFile } from '../shared/uploaded-file.js';

export type RawParams = Record<string, string>;

type MultipartParser = (body: ArrayBuffer, contentType: string) => { name: string; data: ArrayBuffer; filename?: string; type?: string }[] | undefined;

export type { UploadedFile };

export function parseUrlEncoded(text: string, into: RawParams): void {
  if (text.length === 0) return;
  const pairs = decodePairs(text);
  for (let i = 0; i < pairs.length; i += 2) into[pairs[i]!] = pairs[i + 1]!;
}

/**
 * API query strings parsed lately, as name and value pairs: clients ask the same reads again and
 * again (the newest page of a channel, of `is:unread`), and decoding a JSON narrow's escapes cost
 * more than the lookup. Only strings are kept (immutable), never values made from them; pages
 * (which may carry tokens) are parsed each time.
 */
const parsedQueries = new Map<string, readonly string[]>();
const MAX_PARSED_QUERIES = 512;
const MAX_KEPT_QUERY = 2048;

export function parseApiQuery(text: string, into: RawParams): void {
  if (text.length === 0) return;
  let pairs = parsedQueries.get(text);
  if (pairs === undefined) {
    pairs = decodePairs(text);
    if (text.length <= MAX_KEPT_QUERY) {
      if (parsedQueries.size >= MAX_PARSED_QUERIES) parsedQueries.clear();
      parsedQueries.set(text, pairs);
    }
  }
  for (let i = 0; i < pairs.length; i += 2) into[pairs[i]!] = pairs[i + 1]!;
}

/** A sent parameter's last value wins, as in Django. */
function decodePairs(text: string): string[] {
  const parsed = parseQueryString(text);
  const pairs: string[] = [];
  for (const name in parsed) {
    const value = parsed[name];
    pairs.push(name, Array.isArray(value) ? value[value.length - 1]! : (value ?? ''));
  }
  return pairs;
}

const decoder = new TextDecoder();

/**
 * Adds the body's parameters to `into`; `parts` is uWS's native multipart parser. With `files`,
 * multipart parts that carry a file name go there (bytes untouched) instead of into the parameters.
 */
export function parseBody(body: Buffer, contentType: string, into: RawParams, parts: MultipartParser, files?: UploadedFile[]): void {
  if (body.length === 0) return;
  const type = contentType.split(';', 1)[0].trim().toLowerCase();
  if (type === 'multipart/form-data') {
    const view = body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer;
    const fields = parts(view, contentType);
    if (!fields) throw new ApiError('BAD_REQUEST', 'Malformed multipart body');
    for (const field of fields) {
      if (files && field.filename !== undefined) {
        files.push({ field: field.name, filename: field.filename, contentType: field.type ?? '', data: Buffer.from(field.data.slice(0)) });
      } else {
        into[field.name] = decoder.decode(field.data);
      }
    }
    return;
  }
  if (type === 'application/x-www-form-urlencoded' || type === '') {
    parseUrlEncoded(body.toString('utf8'), into);
    return;
  }
  throw new ApiError('BAD_REQUEST', `Unsupported content type '${type}'`);
}
