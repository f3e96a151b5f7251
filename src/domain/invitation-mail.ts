/** The invitation mail (Zulip's `zerver/emails/invitation`), as plain text and HTML. */
import { escapeHtml } from './html.js';
import type { OutgoingMail } from './mail.js';

export interface InvitationMailFacts {
  to: string;
  from: string;
  referrerName: string;
  referrerEmail: string;
  realmName: string;
  realmUrl: string;
  joinUrl: string;
  /** Unix seconds; null: never expires. */
  expiresAt: number | null;
}

export function invitationMail(facts: InvitationMailFacts): OutgoingMail {
  const expiry = facts.expiresAt === null ? 'This invitation does not expire.' : `This invitation expires on ${new Date(facts.expiresAt * 1000).toUTCString()}.`;
  const lead = `${facts.referrerName} (${facts.referrerEmail}) wants you to join them in ${facts.realmName}, an organization on Zulip at ${facts.realmUrl}.`;
  const text = [
    'Hi there,',
    '',
    lead,
    '',
    'To get started, choose your name and password here:',
    facts.joinUrl,
    '',
    expiry,
  ].join('\n');
  const e = escapeHtml;
  const html = [
    '<p>Hi there,</p>',
    `<p>${e(lead)}</p>`,
    `<p><a href="${e(facts.joinUrl)}">Join ${e(facts.realmName)}</a></p>`,
    `<p>Or open this link: ${e(facts.joinUrl)}</p>`,
    `<p>${e(expiry)}</p>`,
  ].join('\n');
  return { to: facts.to, from: facts.from, subject: `${facts.referrerName} invited you to join ${facts.realmName}`, text, html };
}
