/**
 * What GET /messages answers: a range of a narrow around an anchor (with search highlights), or
 * messages by id; and GET /messages/{id}'s one message. Formatted for the viewer.
 */
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { subjectOf, type MessageFormat } from './message-format.js';
import { RawJson } from '../shared/handler-result.js';
import { messageJson } from './message-json.js';
import { checkRange, MessageQuery, parseAnchor } from './message-query.js';
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

/** The messages of a narrow around an anchor, with Zulip's found_* answers (serialised: see message-json.ts). */
export async function fetchRange(services: Services, viewer: UserRecord, p: RangeParams, format: MessageFormat): Promise<RawJson> {
  const anchor = parseAnchor(p.anchor, p.use_first_unread_anchor);
  checkRange(p.num_before, p.num_after, p.include_anchor);
  const terms = narrowTerms(services, viewer, p.narrow);
  const query = new MessageQuery(services, viewer, terms);
  const result = await query.range({ anchor, numBefore: p.num_before, numAfter: p.num_after, includeAnchor: p.include_anchor });
  const found = result.messages;
  const highlights = query.search
    ? searchHighlights(services, query.search, found.map(({ record }) => ({ html: record.renderedContent, topic: subjectOf(record, format) })))
    : undefined;
  let json = '"messages":[';
  for (let i = 0; i < found.length; i++) {
    const { record, flags } = found[i]!;
    const extra = highlights ? `,${JSON.stringify(highlights[i]).slice(1, -1)}` : '';
    json += (i > 0 ? ',' : '') + messageJson(services, record, viewer.id, flags, format, extra);
  }
  json += `],"found_anchor":${result.foundAnchor},"found_oldest":${result.foundOldest},"found_newest":${result.foundNewest},"history_limited":false,"anchor":${result.anchor}`;
  return new RawJson(json);
}

/** The messages with these ids that the viewer may read, in id order. */
export function fetchByIds(services: Services, viewer: UserRecord, ids: number[], format: MessageFormat): RawJson {
  const messages: string[] = [];
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    const record = services.messages.get(id);
    const flags = record ? accessMessage(services, viewer, record) : undefined;
    if (record && flags !== undefined) messages.push(messageJson(services, record, viewer.id, flags, format));
  }
  return new RawJson(`"messages":[${messages.join(',')}],"found_anchor":false,"found_oldest":false,"found_newest":false,"history_limited":false`);
}
