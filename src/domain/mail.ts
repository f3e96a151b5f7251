/** Mail the server sends (invitations), and the transport that carries it. */

export interface OutgoingMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends one mail (SMTP); rejects when the server refuses it or cannot be reached. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
}
