/** Message reports (FL 382): their validation, and the message Notification Bot posts for moderators. */
import { badRequest } from './errors.js';
import { channelMessageLink, directMessageUrl, globalTime, mention, oneToOneRecipient, unusedFence, type Person } from './message-markup.js';
import { codePointLength, truncateContent } from './topics.js';
import { LIMITS } from './versions.js';

export type ReportType = 'spam' | 'harassment' | 'inappropriate' | 'norms' | 'other';

export const REPORT_TYPES: readonly ReportType[] = ['spam', 'harassment', 'inappropriate', 'norms', 'other'];

/** Zulip's REPORT_MESSAGE_REASONS: the label moderators read. */
export const REPORT_REASON_LABELS: Record<ReportType, string> = {
  spam: 'Spam',
  harassment: 'Harassment',
  inappropriate: 'Inappropriate content',
  norms: 'Violates community norms',
  other: 'Other reason',
};

export interface ReportInput {
  reporter: Person;
  /** The reported message's sender. */
  reportedUser: Person;
  reportType: ReportType;
  description: string;
  message: { id: number; content: string; timestampSeconds: number } & (
    | { kind: 'channel'; channelId: number; channelName: string; topic: string }
    | { kind: 'direct'; participants: Person[] /* everyone, the sender included */ }
  );
  realmUrl: string;
}

// Room for the reporter's description and the template around it, so that the report itself
// never needs truncating.
const MAX_SNIPPET_LENGTH = LIMITS.maxMessageLength - LIMITS.maxReportDescriptionLength - 500;

/** The checks of POST /messages/{id}/report on its parameters, in Zulip's order. */
export function validateReport(type: ReportType, description: string): void {
  if (codePointLength(description) > LIMITS.maxReportDescriptionLength) {
    throw badRequest(`description is too long (limit: ${LIMITS.maxReportDescriptionLength} characters)`);
  }
  // Zulip itself only rejects the exact empty string; a blank explanation explains nothing either.
  if (type === 'other' && description.trim() === '') throw badRequest('An explanation is required.');
}

/** The topic the report goes to, so that reports about one person collect in one place. */
export function reportTopic(reported: Person): string {
  return `${reported.fullName} moderation`;
}

/** Python's string order: by code point, where JS's default sort compares UTF-16 units. */
function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a, (char) => char.codePointAt(0)!);
  const y = Array.from(b, (char) => char.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/**
 * The users in a reported direct message's URL: for a group, everyone; for a 1:1 conversation
 * only the receiving user, because a personal recipient is one user (Zulip's report passes
 * that, not the message's two-person list).
 */
function reportedConversation(participants: Person[], sender: Person): number[] {
  return participants.length <= 2 ? [oneToOneRecipient(participants, sender).id] : participants.map((person) => person.id);
}

function distinctById(people: Person[]): Person[] {
  return [...new Map(people.map((person) => [person.id, person])).values()];
}

function reportHeader(input: ReportInput): string {
  const { reporter, reportedUser, message } = input;
  const by = `${mention(reporter)} reported`;
  const sender = mention(reportedUser);
  const at = globalTime(message.timestampSeconds);
  if (message.kind === 'channel') return `${by} a message sent by ${sender} at ${at}.`;
  const participants = distinctById(message.participants);
  if (participants.length <= 2) {
    if (reportedUser.id !== reporter.id) return `${by} a direct message sent by ${sender} at ${at}.`;
    // Reporting one's own direct message: say who received it (oneself, in a self-DM).
    return `${by} a direct message sent by ${sender} to ${mention(oneToOneRecipient(participants, reporter))} at ${at}.`;
  }
  const recipients = participants
    .filter((person) => person.id !== reportedUser.id)
    .map(mention)
    .sort(compareCodePoints);
  const last = recipients.pop();
  // Zulip adds the Oxford comma only when two or more names precede "and".
  const rest = recipients.join(', ') + (recipients.length > 1 ? ',' : '');
  return `${by} a direct message sent by ${sender} to ${rest} and ${last} at ${at}.`;
}

/** The Markdown of the report message, as Zulip builds it (and as it is after send-time normalisation). */
export function reportContent(input: ReportInput): string {
  const { message } = input;
  const original =
    message.kind === 'channel'
      ? `Original message at ${channelMessageLink(message.channelId, message.channelName, message.topic, message.id)}`
      : `[Original message](${directMessageUrl(input.realmUrl, reportedConversation(distinctById(message.participants), input.reportedUser), message.id)})`;
  const snippet = truncateContent(message.content, MAX_SNIPPET_LENGTH, '\n[message truncated]');
  const fence = unusedFence(snippet);
  return [
    reportHeader(input),
    '```quote',
    `**${REPORT_REASON_LABELS[input.reportType]}**. ${input.description}`,
    '```',
    '',
    `${fence} spoiler ${original}`,
    snippet,
    fence,
  ].join('\n');
}
