/** `GET /messages` (a range of a narrow around an anchor) and `GET /messages/{message_id}`. */
import { badRequest } from '../domain/errors.js';
import { HISTORICAL_FLAGS, type MessageRecord } from '../domain/messages.js';
import { parseNarrow, parseSearch, resolveNarrow, type Term } from '../domain/narrow.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../domain/realm.js';
import { isGuest } from '../domain/roles.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { channelHistoryReadable, channelReadable } from '../queries/channel-access.js';
import { formatMessage, type MessageFormat } from '../queries/message-format.js';
import { checkRange, MessageQuery, parseAnchor } from '../queries/message-query.js';
import { me, type ApiRoute } from './route.js';

/** Resolves a narrow parameter for `viewer`, applying `with` (which re-targets the conversation of a message). */
export function narrowTerms(services: Services, viewer: UserRecord, narrow: unknown): Term[] {
  const { org } = services;
  const terms = resolveNarrow(parseNarrow(narrow), {
    viewerId: viewer.id,
    channelByName: (name) => org.channels.byName(name),
    channelById: (id) => org.channels.get(id),
    userByEmail: (email) => org.users.byEmail(email),
    userById: (id) => org.users.get(id),
  }, EMPTY_TOPIC_DISPLAY_NAME);
  const withTerm = terms.find((t) => t.kind === 'with');
  if (!withTerm) return terms;
  const record = services.messages.get(withTerm.id);
  const rest = terms.filter((t) => !['with', 'channel', 'topic', 'dm'].includes(t.kind));
  if (record && accessMessage(services, viewer, record) !== undefined) {
    const conversation: Term[] = record.type === 'stream'
      ? [{ kind: 'channel', channelId: record.channelId!, negated: false }, { kind: 'topic', topic: record.topic!, negated: false }]
      : [{ kind: 'dm', key: record.dmUserIds!.join(','), negated: false }];
    return [...conversation, ...rest];
  }
  const definesConversation = terms.some((t) => t.kind === 'dm') || (terms.some((t) => t.kind === 'channel') && terms.some((t) => t.kind === 'topic'));
  if (definesConversation) return terms.filter((t) => t.kind !== 'with');
  throw badRequest("Invalid narrow operator: Invalid 'with' operator");
}

/** The user's flags for a message they may see, or undefined (Zulip's access_message). */
export function accessMessage(services: Services, viewer: UserRecord, record: MessageRecord): number | undefined {
  const flags = services.messages.flags(viewer.id, record.id);
  if (record.type === 'private') return flags;
  const channel = services.org.channels.get(record.channelId!);
  if (!channel) return undefined;
  if (flags !== undefined) return channelReadable(services, viewer, channel) ? flags : undefined;
  if (!channel.inviteOnly && !isGuest(viewer.role)) return HISTORICAL_FLAGS;
  return channelHistoryReadable(services, viewer, channel) ? HISTORICAL_FLAGS : undefined;
}

/** A message the user may see, with their flags; otherwise `Invalid message(s)`. */
export function requireMessage(services: Services, viewer: UserRecord, messageId: number): { record: MessageRecord; flags: number } {
  const record = services.messages.get(messageId);
  const flags = record ? accessMessage(services, viewer, record) : undefined;
  if (!record || flags === undefined) throw badRequest('Invalid message(s)');
  return { record, flags };
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Wraps the searched words in the text parts of some HTML with Zulip's highlight span. */
function highlight(html: string, words: readonly string[]): string {
  if (words.length === 0) return html;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])(${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})[\\p{L}\\p{N}_]*`, 'giu');
  return html.split(/(<[^>]*>)/).map((part) => (part.startsWith('<') ? part : part.replace(pattern, '<span class="highlight">$&</span>'))).join('');
}

export function messageRoutes(services: Services): ApiRoute[] {
  return [
    {
      method: 'GET',
      path: '/messages',
      schema: 'get-messages',
      auth: 'user',
      handler: async (request) => {
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
            if (searchTerms.length) {
              message.match_content = highlight(record.renderedContent, words);
              message.match_subject = highlight(escapeHtml(String(message.subject)), words);
            }
            return message;
          }),
          found_anchor: result.foundAnchor,
          found_oldest: result.foundOldest,
          found_newest: result.foundNewest,
          history_limited: false,
          anchor: result.anchor,
        };
      },
    },
    {
      method: 'GET',
      path: '/messages/{message_id:int}',
      schema: 'get-message',
      auth: 'user',
      handler: (request) => {
        const viewer = me(request);
        const { record, flags } = requireMessage(services, viewer, request.params.message_id);
        return {
          raw_content: record.content,
          message: formatMessage(services, record, viewer.id, flags, formatOf(request.params)),
        };
      },
    },
  ];
}

function formatOf(params: Record<string, any>): MessageFormat {
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

