/**
 * The mail a deactivated user gets when the administrator asks for it (Zulip's
 * `zerver/emails/deactivate`): sent whenever `deactivation_notification_comment` is given, with the
 * comment when it is not empty ("" asks for the mail without a comment).
 */
import { escapeHtml } from './html.js';
import type { OutgoingMail } from './mail.js';

export interface DeactivationMailFacts {
  to: string;
  from: string;
  realmName: string;
  realmUrl: string;
  /** Already stripped; '' for none. */
  comment: string;
}

export function deactivationMail(facts: DeactivationMailFacts): OutgoingMail {
  const lead = `Your Zulip account on ${facts.realmUrl} has been deactivated, and you will no longer be able to log in.`;
  const commentIntro = 'The administrators provided the following comment:';
  const text = ['Hello,', '', lead, ...(facts.comment ? ['', commentIntro, '', facts.comment] : [])].join('\n');
  const e = escapeHtml;
  const html = [
    '<p>Hello,</p>',
    `<p>${e(lead)}</p>`,
    ...(facts.comment ? [`<p>${e(commentIntro)}</p>`, `<blockquote>${e(facts.comment)}</blockquote>`] : []),
  ].join('\n');
  return { to: facts.to, from: facts.from, subject: `Notification of account deactivation on ${facts.realmName}`, text, html };
}
