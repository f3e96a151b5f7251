/**
 * What GET /messages answers: a range of a narrow around an anchor (with search highlights), or
 * messages by id; and GET /messages/{id}'s one message. Formatted for the viewer.
 */
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { subjectOf, type MessageFormat } from './message-format.js';
import { RawJson } from '../shared/handler-result.js';
import { ListLookups, messageBytes } from './message-json.js';
import { checkRange, MessageQuery, parseAnchor, type RangeResult } from './message-query.js';
import { accessMessage } from './message-access.js';
import { narrowTerms } from './narrow-terms.js';
import { searchHighlights } from './search-walk.js';

/** A range request of GET /messages, as its parameters say it. */
export interface RangeParams {
  anchor?: string;
  use_first_unread_anchor: boolean;
  num_before: number;
  num_after: number;
  include_anchor: boolean;
  narrow: unknown;
}

/**
 * The messages of a narrow around an anchor, with Zulip's found_* answers (encoded: see
 * message-json.ts); at once when memory holds the narrow's range (message-query.ts).
 */
export function fetchRange(services: Services, viewer: UserRecord, p: RangeParams, format: MessageFormat): RawJson | Promise<RawJson> {
  const anchor = parseAnchor(p.anchor, p.use_first_unread_anchor);
  checkRange(p.num_before, p.num_after, p.include_anchor);
  const terms = narrowTerms(services, viewer, p.narrow);
  const query = new MessageQuery(services, viewer, terms);
  const result = query.range({ anchor, numBefore: p.num_before, numAfter: p.num_after, includeAnchor: p.include_anchor });
  return result instanceof Promise ? result.then((found) => rangeJson(services, viewer, query, found, format)) : rangeJson(services, viewer, query, result, format);
}

function rangeJson(services: Services, viewer: UserRecord, query: MessageQuery, result: RangeResult, format: MessageFormat): RawJson {
  const found = result.messages;
  const highlights = query.search
    ? searchHighlights(services, query.search, found.map(({ record }) => ({ html: record.renderedContent, topic: subjectOf(record, format) })))
    : undefined;
  const parts: Buffer[] = [MESSAGES_OPEN];
  const lookups = new ListLookups(services);
  for (let i = 0; i < found.length; i++) {
    const { record, flags } = found[i]!;
    messageBytes(services, record, viewer.id, flags, format, parts, i === 0, highlights ? `,${JSON.stringify(highlights[i]).slice(1, -1)}` : '', lookups);
  }
  parts.push(tailOf(result));
  return new RawJson('', undefined, [parts]);
}

/**
 * The page's closing fields, encoded once per anchor and found_* values (by anchor, then the
 * three flags as bits): the same few anchors come again and again, and a key of numbers needs
 * no text built and hashed per answer.
 */
const tails = new Map<number, (Buffer | undefined)[]>();

function tailOf(result: RangeResult): Buffer {
  let byFound = tails.get(result.anchor);
  if (byFound === undefined) {
    if (tails.size >= 256) tails.clear();
    tails.set(result.anchor, (byFound = []));
  }
  const bits = +result.foundAnchor | (+result.foundOldest << 1) | (+result.foundNewest << 2);
  return (byFound[bits] ??= Buffer.from(
    `],"found_anchor":${result.foundAnchor},"found_oldest":${result.foundOldest},"found_newest":${result.foundNewest},"history_limited":false,"anchor":${result.anchor}`,
  ));
}

/** The messages with these ids that the viewer may read, in id order. */
export function fetchByIds(services: Services, viewer: UserRecord, ids: number[], format: MessageFormat): RawJson {
  const parts: Buffer[] = [MESSAGES_OPEN];
  const lookups = new ListLookups(services);
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    const record = services.messages.get(id);
    const flags = record ? accessMessage(services, viewer, record) : undefined;
    if (record === undefined || flags === undefined) continue;
    messageBytes(services, record, viewer.id, flags, format, parts, parts.length === 1, '', lookups);
  }
  parts.push(BY_IDS_CLOSE);
  return new RawJson('', undefined, [parts]);
}

const MESSAGES_OPEN = Buffer.from('"messages":[');
const BY_IDS_CLOSE = Buffer.from('],"found_anchor":false,"found_oldest":false,"found_newest":false,"history_limited":false');
