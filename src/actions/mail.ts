/**
 * Sending the server's mail. With SMTP configured, the mail goes once the write that sends it is
 * durable (never before: a refused or failed write sends nothing), outside the request: a slow
 * or failing SMTP server never holds up or fails the answer; a failure is logged, and the
 * invitation stays resendable. Without SMTP, the mail is written to the outbox in the same batch.
 */
import type { OutgoingMail } from '../domain/mail.js';
import { unixSeconds, type Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';

/** `about` names what the mail is for in the log (`invitation 4`). */
export function sendMail(services: Services, tx: Transaction, mail: OutgoingMail, about: string): void {
  const { smtp, logger } = services;
  if (!smtp) {
    services.outbox.put(mail, unixSeconds(services.clock), tx);
    return;
  }
  tx.afterCommit.push(() => {
    smtp.send(mail).then(
      () => logger.info({ to: mail.to, about }, 'mail sent'),
      (error: unknown) => logger.error({ err: error, to: mail.to, about }, 'mail not sent (resend to retry)'),
    );
  });
}
