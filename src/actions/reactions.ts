/** Emoji reactions and votes on them: validation of the emoji, the write and the `reaction` events. */
import { messageFlags } from '../queries/message-state.js';
import { unicodeEmojiCode, ZULIP_EXTRA_EMOJI } from '../domain/emoji.js';
import { parseReactionType } from '../domain/emoji-rules.js';
import { checkEmoji, emojiByName } from '../domain/realm-emoji.js';
import { ApiError, badRequest } from '../domain/errors.js';
import { HISTORICAL_FLAGS, type MessageRecord, type ReactionRecord } from '../domain/messages.js';
import { topicKey } from '../domain/topics.js';
import { apiEmail, type UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { messageAudience } from '../queries/message-audience.js';
import { requireMessage } from '../queries/message-access.js';
import { withFields } from '../shared/with-fields.js';

/** A custom emoji's code by name: the active one, else any with the name (reactions outlive deactivation). */
function realmEmojiCode(services: Services, name: string): string | undefined {
  const emoji = services.realmEmoji.activeByName(name) ?? [...services.realmEmoji.all()].reverse().find((e) => e.name === name);
  return emoji && String(emoji.id);
}

function reactionEvent(services: Services, op: 'add' | 'remove', user: UserRecord, record: MessageRecord, reaction: ReactionRecord) {
  return {
    type: 'reaction',
    op,
    user_id: user.id,
    user: { user_id: user.id, email: apiEmail(user, services.org.host), full_name: user.fullName },
    message_id: record.id,
    emoji_name: reaction.emojiName,
    emoji_code: reaction.emojiCode,
    reaction_type: reaction.reactionType,
  };
}

function writeAddReaction(services: Services, tx: Transaction, user: UserRecord, messageId: number, name: string, codeParam?: string, typeParam?: string): void {
  const { record } = requireMessage(services, user, messageId);
  let type = parseReactionType(typeParam, undefined);
  let code = codeParam;
  if (code === undefined || type === undefined) {
    const found = emojiByName(services.realmEmoji, name);
    code ??= found.code;
    type ??= found.type;
  }
  const same = (r: ReactionRecord) => r.emojiCode === code && r.reactionType === type;
  if (record.reactions.some((r) => same(r) && r.userId === user.id)) throw new ApiError('REACTION_ALREADY_EXISTS', 'Reaction already exists.');
  const vote = record.reactions.find(same);
  // A vote on someone else's reaction takes its name as it is; only new reactions are checked.
  const emojiName = vote ? vote.emojiName : name;
  if (!vote) checkEmoji(services.realmEmoji, name, code, type);
  const reaction: ReactionRecord = { emojiName, emojiCode: code, reactionType: type, userId: user.id };
  // Reacting to a message one does not have (public history) gives a historical row of it, as Zulip does.
  const newRow = messageFlags(services, user.id, record) === undefined;
  if (newRow) services.messages.setFlags(user.id, record.id, undefined, HISTORICAL_FLAGS, tx);
  const userIds = newRow && !record.userIds.includes(user.id) ? [...record.userIds, user.id] : record.userIds;
  const updated = withFields(record, { userIds, reactions: [...record.reactions, reaction] });
  services.messages.save(updated, tx);
  if (record.type === 'stream') {
    const key = topicKey(record.topic!);
    const topic = services.messages.topic(record.channelId!, key, tx);
    if (topic && !topic.participants.includes(user.id)) {
      services.messages.saveTopic(record.channelId!, key, withFields(topic, { participants: [...topic.participants, user.id] }), tx);
    }
  }
  tx.emit(reactionEvent(services, 'add', user, updated, reaction), messageAudience(services, updated));
}

function writeRemoveReaction(services: Services, tx: Transaction, user: UserRecord, messageId: number, name?: string, codeParam?: string, typeParam?: string): void {
  const { record } = requireMessage(services, user, messageId);
  // Named only: a custom emoji of that name is meant, as Zulip looks the name up (custom emoji first).
  const named = codeParam === undefined && typeParam === undefined && name !== undefined && services.realmEmoji.activeByName(name) !== undefined;
  const type = parseReactionType(typeParam, named ? 'realm_emoji' : 'unicode_emoji')!;
  let code = codeParam;
  if (code === undefined) {
    if (name === undefined) throw badRequest('At least one of the following arguments must be present: emoji_name, emoji_code');
    code = type === 'zulip_extra_emoji' ? ZULIP_EXTRA_EMOJI[name] : type === 'realm_emoji' ? realmEmojiCode(services, name) : unicodeEmojiCode(name);
  }
  const index = record.reactions.findIndex((r) => r.userId === user.id && r.emojiCode === code && r.reactionType === type);
  if (index < 0) throw new ApiError('REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.");
  const reaction = record.reactions[index];
  const updated = withFields(record, { reactions: record.reactions.filter((_, i) => i !== index) });
  services.messages.save(updated, tx);
  tx.emit(reactionEvent(services, 'remove', user, updated, reaction), messageAudience(services, updated));
}

/** Adds a reaction (or a vote on one) in one write. */
export function addReaction(services: Services, user: UserRecord, messageId: number, name: string, code?: string, type?: string): Promise<void> {
  return services.write((tx) => writeAddReaction(services, tx, user, messageId, name, code, type));
}

/** Removes the user's reaction in one write. */
export function removeReaction(services: Services, user: UserRecord, messageId: number, name?: string, code?: string, type?: string): Promise<void> {
  return services.write((tx) => writeRemoveReaction(services, tx, user, messageId, name, code, type));
}
