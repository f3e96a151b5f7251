/** The JSON envelope of every response, and HTTP status lines. */
import { STATUS_CODES } from 'node:http';
import { ApiError } from '../domain/errors.js';
import { RawJson } from '../shared/handler-result.js';

const STATUS_LINES: Record<number, string> = {
  200: '200 OK',
  204: '204 No Content',
  206: '206 Partial Content',
  304: '304 Not Modified',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  403: '403 Forbidden',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  413: '413 Payload Too Large',
  416: '416 Range Not Satisfiable',
  429: '429 Too Many Requests',
  500: '500 Internal Server Error',
  503: '503 Service Unavailable',
};

/** Every other status with its standard reason phrase (a used invitation's 410 Gone, for one). */
export const statusLine = (status: number): string => STATUS_LINES[status] ?? `${status} ${STATUS_CODES[status] ?? 'Unknown'}`;

const SUCCESS_OPEN = '{"result":"success","msg":""';

export function successBody(data: Record<string, unknown> | RawJson, ignored: readonly string[]): string {
  let body: string;
  if (data instanceof RawJson) {
    body = data.fields.length > 0 ? `${SUCCESS_OPEN},${data.fields}` : SUCCESS_OPEN;
  } else {
    // One stringify of a small wrapper, rather than slicing a (possibly large) body apart.
    return JSON.stringify(ignored.length > 0
      ? { result: 'success', msg: '', ...data, ignored_parameters_unsupported: ignored }
      : { result: 'success', msg: '', ...data });
  }
  if (ignored.length > 0) body += `,"ignored_parameters_unsupported":${JSON.stringify(ignored)}`;
  return body + '}';
}

const SUCCESS_OPEN_BYTES = Buffer.from(SUCCESS_OPEN);
const COMMA = Buffer.from(',');
const COMMA_BYTE = 0x2c;
const CLOSE = Buffer.from('}');

/**
 * Where answers made of parts are joined, reused from one answer to the next: a fresh buffer per
 * answer cost more than the copy itself for the 6 MB of a POST /register in an organization of
 * 10,000 users (the kernel's zeroed pages, then the collector). Safe because uWS copies whatever
 * it cannot send at once: the bytes are free again as soon as the answer's `end` returns.
 */
let scratch = Buffer.allocUnsafe(0);
/** Joins larger than this get a buffer of their own (not kept for the process's lifetime). */
const MAX_SCRATCH_BYTES = 64 * 1024 * 1024;

/**
 * A success answer whose fields are partly encoded already (RawJson.encodedFields): one copy of
 * each part. The bytes are valid only until the next call: write them at once.
 */
export function successBytes(data: RawJson, ignored: readonly string[]): Buffer {
  const head = data.fields.length > 0 ? Buffer.from(`${SUCCESS_OPEN},${data.fields}`) : SUCCESS_OPEN_BYTES;
  const pieces = data.encodedFields ?? [];
  const tail = ignored.length > 0 ? Buffer.from(`,"ignored_parameters_unsupported":${JSON.stringify(ignored)}}`) : CLOSE;
  // Measured, then copied, straight from the pieces: no list of a page's hundred parts is built.
  let total = head.length + tail.length;
  for (const piece of pieces) {
    total += COMMA.length;
    if (Buffer.isBuffer(piece)) total += piece.length;
    else for (let i = 0; i < piece.length; i++) total += piece[i]!.length;
  }
  let out: Buffer;
  if (total > MAX_SCRATCH_BYTES) out = Buffer.allocUnsafe(total);
  else {
    if (scratch.length < total) scratch = Buffer.allocUnsafe(Math.min(MAX_SCRATCH_BYTES, Math.max(total, scratch.length * 2)));
    out = scratch;
  }
  out.set(head, 0);
  let at = head.length;
  for (const piece of pieces) {
    out[at++] = COMMA_BYTE;
    if (Buffer.isBuffer(piece)) {
      out.set(piece, at);
      at += piece.length;
    } else {
      for (let i = 0; i < piece.length; i++) {
        const part = piece[i]!;
        out.set(part, at);
        at += part.length;
      }
    }
  }
  out.set(tail, at);
  return out === scratch ? scratch.subarray(0, total) : out;
}

export function errorBody(error: ApiError): string {
  return JSON.stringify({ result: 'error', msg: error.message, code: error.code, ...error.extra });
}

export const internalError = () => new ApiError('INTERNAL_SERVER_ERROR', 'Internal server error', 500);
