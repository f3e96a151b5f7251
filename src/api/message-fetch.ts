/** `GET /messages` (a range of a narrow around an anchor) and `GET /messages/{message_id}`. */
import { parseSearch } from '../domain/narrow.js';
import { searchFields } from '../domain/search-highlight.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { formatMessage, type MessageFormat } from '../queries/message-format.js';
import { checkRange, MessageQuery, parseAnchor } from '../queries/message-query.js';
import { accessMessage, requireMessage } from '../queries/message-access.js';
import { narrowTerms } from '../queries/narrow-terms.js';
import * as schemas from '../schemas/index.js';
import { me, type Params, type Request } from './route.js';

/** GET /messages */
export async function getMessages(services: Services, request: Request<typeof schemas.getMessages>) {
  const viewer = me(request);
  const p = request.params;
  if (p.message_ids !== undefined) return fetchByIds(services, viewer, p.message_ids, formatOf(p));
  const anchor = parseAnchor(p.anchor, p.use_first_unread_anchor);
  checkRange(p.num_before, p.num_after, p.include_anchor);
  const terms = narrowTerms(services, viewer, p.narrow);
  const query = new MessageQuery(services, viewer, terms);
  const result = await query.range({ anchor, numBefore: p.num_before, numAfter: p.num_after, includeAnchor: p.include_anchor });
  const format = formatOf(p);
  const searchTerms = terms.filter((t) => t.kind === 'search' && !t.negated) as { query: string }[];
  const words = searchTerms.length ? parseSearch(searchTerms.map((t) => t.query).join(' ')).words : [];
  return {
    messages: result.messages.map(({ record, flags }) => {
      const message = formatMessage(services, record, viewer.id, flags, format);
      if (searchTerms.length) Object.assign(message, searchFields(record.renderedContent, String(message.subject), words));
      return message;
    }),
    found_anchor: result.foundAnchor,
    found_oldest: result.foundOldest,
    found_newest: result.foundNewest,
    history_limited: false,
    anchor: result.anchor,
  };
}

/** GET /messages/{message_id:int} */
export function getMessage(services: Services, request: Request<typeof schemas.getMessage, { message_id: number }>) {
  const viewer = me(request);
  const { record, flags } = requireMessage(services, viewer, request.params.message_id);
  return {
    raw_content: record.content,
    message: formatMessage(services, record, viewer.id, flags, formatOf(request.params)),
  };
}

/** The formatting options shared by `GET /messages` and `GET /messages/{message_id}`. */
function formatOf(params: Params<typeof schemas.getMessage>): MessageFormat {
  return { applyMarkdown: params.apply_markdown, clientGravatar: params.client_gravatar, allowEmptyTopicName: params.allow_empty_topic_name };
}

function fetchByIds(services: Services, viewer: UserRecord, ids: number[], format: MessageFormat) {
  const messages: Record<string, unknown>[] = [];
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    const record = services.messages.get(id);
    const flags = record ? accessMessage(services, viewer, record) : undefined;
    if (record && flags !== undefined) messages.push(formatMessage(services, record, viewer.id, flags, format));
  }
  return { messages, found_anchor: false, found_oldest: false, found_newest: false, history_limited: false };
}

