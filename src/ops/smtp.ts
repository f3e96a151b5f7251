/** The SMTP transport of the server's mail (nodemailer), from the settings in config.ts. */
import nodemailer from 'nodemailer';
import type { SmtpSettings } from '../config.js';
import type { MailTransport, OutgoingMail } from '../domain/mail.js';

export function smtpTransport(settings: SmtpSettings): MailTransport {
  const transporter = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    auth: settings.user === undefined ? undefined : { user: settings.user, pass: settings.password ?? '' },
    // A mail that cannot go within this time fails (and is logged); the invitation stays resendable.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
  return {
    async send(mail: OutgoingMail) {
      await transporter.sendMail({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    },
  };
}
