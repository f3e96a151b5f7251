/** Reminders' text (Zulip's zerver/lib/reminders.py): the note's rule, and what the notification bot sends. */
import { badRequest } from './errors.js';
import { channelMessageLink, channelMessageUrl, directMessageUrl, mention, unusedFence, type Person } from './message-markup.js';
import { codePointLength, pyRstrip, truncateContent } from './topics.js';
import { LIMITS } from './versions.js';

/** Zulip's `max_reminder_note_length` (POST /register). */
export const MAX_REMINDER_NOTE_LENGTH = 1000;

/** The message a reminder is about, as its text quotes it. */
export interface ReminderTarget {
  id: number;
  sender: Person;
  content: string;
  /** Channel messages: where it is. */
  channel?: { id: number; name: string; topic: string };
  /** Direct messages: everyone in the conversation. */
  userIds?: readonly number[];
}

/** Zulip's normalize_note_text: trailing whitespace and leading blank lines go, then the length is checked. */
export function normalizeNote(note: string): string {
  const body = pyRstrip(note).replace(/^\n+/, '');
  if (codePointLength(body) > MAX_REMINDER_NOTE_LENGTH) throw badRequest(`Maximum reminder note length: ${MAX_REMINDER_NOTE_LENGTH} characters`);
  return body;
}

/**
 * Zulip's get_reminder_formatted_content: what the notification bot sends, a link to the message
 * and the message quoted, cut so that the whole stays within max_message_length. (Zulip picks the
 * quote's fence from the text before the quote; here it is picked from the quoted message, so a
 * message with its own fences stays one quote.)
 */
export function reminderContent(target: ReminderTarget, realmUrl: string, note: string | undefined): string {
  const text = note === undefined ? '' : normalizeNote(note);
  const noted = text === '' ? '.' : `. Note:\n > ${text}`;
  let content: string;
  let url: string;
  if (target.channel) {
    const { id, name, topic } = target.channel;
    content = `You requested a reminder for ${channelMessageLink(id, name, topic, target.id)}${noted}`;
    url = channelMessageUrl(realmUrl, id, name, topic, target.id);
  } else {
    content = `You requested a reminder for the following direct message${noted}`;
    url = directMessageUrl(realmUrl, target.userIds ?? [], target.id);
  }
  content += '\n\n';
  if (target.content.startsWith('/poll')) return `${content}${mention(target.sender)} [sent](${url}) a poll.`;
  if (target.content.startsWith('/todo')) return `${content}${mention(target.sender)} [sent](${url}) a todo list.`;
  content += `${mention(target.sender)} [said](${url}):\n`;
  const fence = unusedFence(target.content);
  const around = codePointLength(`${content}${fence}quote\n\n${fence}`);
  const quoted = truncateContent(target.content, LIMITS.maxMessageLength - around, '\n[message truncated]');
  return `${content}${fence}quote\n${quoted}\n${fence}`;
}
