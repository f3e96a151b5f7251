/**
 * The missed-message email about one conversation (Zulip's do_send_missedmessage_events_reply_in_zulip
 * and its templates in templates/zerver/emails/missed_message.*): subject, the reason, the
 * messages as HTML and plain text, the link to the conversation in the web client (Zulip's
 * narrow URLs in zerver/lib/url_encoding.py), and the unsubscribe link.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { escapeHtml } from './html.js';
import type { OutgoingMail } from './mail.js';
import { topicNarrowPath } from './markdown/narrow-url.js';
import { MENTION_TRIGGERS, Trigger } from './notification-rules.js';
import { mobilePushContent } from './push-content.js';

export type MailConversation =
  | { kind: 'stream'; channelId: number; channelName: string; topic: string }
  | { kind: 'dm'; senderId: number; senderName: string }
  | { kind: 'group'; others: { id: number; name: string }[] };

export interface MailMessage {
  id: number;
  senderName: string;
  renderedContent: string;
  trigger: string | undefined;
}

export interface MissedMailInput {
  to: string;
  from: string;
  recipientName: string;
  realm: { name: string; url: string };
  conversation: MailConversation;
  messages: MailMessage[];
  mentionedGroupName?: string;
  /** Zulip's message_content_in_email_notifications (and the realm's permission). */
  showContent: boolean;
  /** realm_name_in_email_notifications_policy is "always" (2). */
  realmNameInSubject: boolean;
  unsubscribeUrl: string;
}

/** Zulip's personal_narrow_url slug: the name with spaces and URL-unsafe characters as dashes. */
function personSlug(name: string): string {
  return name.replace(/[ "%/<>`\p{C}]+/gu, '-');
}

/** The conversation in the web client (`#narrow/channel/…/topic/…`, `#narrow/dm/…`). */
export function conversationUrl(realmUrl: string, conversation: MailConversation): string {
  if (conversation.kind === 'stream') return `${realmUrl}${topicNarrowPath(conversation.channelId, conversation.channelName, conversation.topic)}`;
  if (conversation.kind === 'dm') return `${realmUrl}/#narrow/dm/${conversation.senderId}-${personSlug(conversation.senderName)}`;
  const ids = conversation.others.map((other) => other.id).sort((a, b) => a - b);
  return `${realmUrl}/#narrow/dm/${ids.join(',')}-group`;
}

/** Zulip's huddle_display_name: two names, three names, or two and a count. */
function groupName(others: readonly { name: string }[]): string {
  const names = others.map((other) => other.name);
  if (names.length <= 2) return names.join(' and ');
  if (names.length === 3) return `${names[0]}, ${names[1]}, and ${names[2]}`;
  return `${names.slice(0, 2).join(', ')}, and ${names.length - 2} others`;
}

function subject(input: MissedMailInput): string {
  const { conversation } = input;
  let text: string;
  if (!input.showContent) text = 'New messages';
  else if (conversation.kind === 'group') text = `Group DMs with ${groupName(conversation.others)}`;
  else if (conversation.kind === 'dm') text = `DMs with ${conversation.senderName}`;
  else text = `#${conversation.channelName} > ${conversation.topic}`;
  return input.realmNameInSubject ? `${text} [${input.realm.name}]` : text;
}

/** Why the mail was sent (the templates' opening line). */
function reason(input: MissedMailInput): string {
  const triggers = new Set(input.messages.map((message) => message.trigger));
  const senders = [...new Set(input.messages.filter((m) => MENTION_TRIGGERS.has(m.trigger as Trigger)).map((m) => m.senderName))].join(', ');
  const { conversation } = input;
  if (conversation.kind === 'dm') return `You have direct messages from ${conversation.senderName}.`;
  if (conversation.kind === 'group') return `You have group direct messages with ${groupName(conversation.others)}.`;
  const where = `#${conversation.channelName} > ${conversation.topic}`;
  if (triggers.has(Trigger.MENTION)) return input.mentionedGroupName ? `${senders} mentioned @${input.mentionedGroupName} in ${where}.` : `${senders} mentioned you in ${where}.`;
  if ([...triggers].some((trigger) => MENTION_TRIGGERS.has(trigger as Trigger))) return `${senders} mentioned everyone in ${where}.`;
  if (triggers.has(Trigger.FOLLOWED_TOPIC_EMAIL)) return `New messages in ${where}, a topic you follow.`;
  return `New messages in ${where}: you have email notifications on for #${conversation.channelName}.`;
}

/** Links in a rendered message made absolute, as a mail reader has no base URL. */
function absoluteLinks(html: string, realmUrl: string): string {
  return html.replace(/(href|src)="\/(?!\/)/g, `$1="${realmUrl}/`);
}

export function missedMessageMail(input: MissedMailInput): OutgoingMail {
  const url = conversationUrl(input.realm.url, input.conversation);
  const why = reason(input);
  const textMessages = input.showContent
    ? input.messages.map((m) => `${m.senderName}:\n${mobilePushContent(m.renderedContent).trim()}`).join('\n\n')
    : 'This email does not include message content because you turned that off in your notification settings.';
  const text = [
    `Hello ${input.recipientName},`,
    '',
    why,
    '',
    textMessages,
    '',
    `Reply in ${input.realm.name}: ${url}`,
    '',
    `Manage your email notifications: ${input.realm.url}/#settings/notifications`,
    `Unsubscribe from missed-message emails: ${input.unsubscribeUrl}`,
    '',
  ].join('\n');
  const htmlMessages = input.showContent
    ? input.messages.map((m) => `<div class="message"><p><b>${escapeHtml(m.senderName)}</b></p>${absoluteLinks(m.renderedContent, input.realm.url)}</div>`).join('\n')
    : `<p>${escapeHtml(textMessages)}</p>`;
  const html = [
    '<!DOCTYPE html><html><body>',
    `<p>Hello ${escapeHtml(input.recipientName)},</p>`,
    `<p>${escapeHtml(why)}</p>`,
    htmlMessages,
    `<p><a href="${escapeHtml(url)}">Reply in ${escapeHtml(input.realm.name)}</a></p>`,
    `<p><a href="${escapeHtml(input.realm.url)}/#settings/notifications">Manage your email notifications</a> · `,
    `<a href="${escapeHtml(input.unsubscribeUrl)}">Unsubscribe from missed-message emails</a></p>`,
    '</body></html>',
  ].join('\n');
  return { to: input.to, from: input.from, subject: subject(input), text, html };
}

/** The signature of a user's unsubscribe link (Zulip's one_click_unsubscribe_link, signed instead of stored). */
function signature(secret: string, userId: number): string {
  return createHmac('sha256', secret).update(`missed_messages:${userId}`).digest('base64url');
}

export function unsubscribeToken(secret: string, userId: number): string {
  return `${userId}.${signature(secret, userId)}`;
}

/** The user a token was signed for, or undefined for a forged or mangled one. */
export function checkUnsubscribeToken(secret: string, token: string): number | undefined {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match || secret === '') return undefined;
  const userId = Number(match[1]);
  const expected = Buffer.from(signature(secret, userId));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? userId : undefined;
}
