/** The SMTP transport of the server's mail (nodemailer), from the settings in config.ts. */
import type { Transporter } from 'nodemailer';
import type { SmtpSettings } from '../config.js';
import type { MailTransport, OutgoingMail } from '../domain/mail.js';

/** nodemailer is loaded with the first mail, not at start (a server without SMTP never loads it). */
async function createTransporter(settings: SmtpSettings): Promise<Transporter> {
  const { default: nodemailer } = await import('nodemailer');
  return nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    auth: settings.user === undefined ? undefined : { user: settings.user, pass: settings.password ?? '' },
    // A mail that cannot go within this time fails (and is logged); the invitation stays resendable.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
}

export function smtpTransport(settings: SmtpSettings): MailTransport {
  let transporter: Promise<Transporter> | undefined;
  return {
    async send(mail: OutgoingMail) {
      transporter ??= createTransporter(settings);
      await (await transporter).sendMail({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    },
  };
}
