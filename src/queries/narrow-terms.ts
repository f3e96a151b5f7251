/** A narrow parameter resolved for one viewer: names to ids, and `with` re-targeted to its message's conversation. */
import { badRequest } from '../domain/errors.js';
import { parseNarrow, resolveNarrow, type Term } from '../domain/narrow.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../domain/realm.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { accessMessage } from './message-access.js';

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
