/** A local SMTP server (smtp-server) that collects every mail, with each mail's subject and decoded body for assertions. */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Mail {
  to: string[];
  raw: string;
  subject: string;
  /** The whole message with quoted-printable undone (text and HTML parts both). */
  body: string;
}

/** Undoes quoted-printable (soft line breaks and `=XX` bytes, read as UTF-8). */
export function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

export async function mailbox() {
  const mails: Mail[] = [];
  const waiters: (() => void)[] = [];
  /** `refuse`: answer every recipient with a temporary failure; `refused`: how many were. */
  const state = { refuse: false, refused: 0, holdFrom: Infinity };
  /** Mails past `holdFrom` are taken but not acknowledged until `release` (the sender waits meanwhile). */
  const heldBack: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (!state.refuse) return callback();
      state.refused++;
      for (const wake of waiters.splice(0)) wake();
      const error = new Error('mailbox unavailable') as Error & { responseCode: number };
      error.responseCode = 451;
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const subject = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1]?.replace(/\r?\n[ \t]/g, ' ') ?? '';
        const accept = () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, subject, body: decodeQuotedPrintable(raw) });
          for (const wake of waiters.splice(0)) wake();
          callback();
        };
        if (mails.length < state.holdFrom) return accept();
        heldBack.push(accept);
        for (const wake of waiters.splice(0)) wake();
      });
    },
  });
  // A server process killed mid-session resets its connection: that is the test's doing, not a failure.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') throw error;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  /** Waits, woken by each arrival or refusal (and every 200 ms), until `done`; past `ms` fails with `why`. */
  const until = async (done: () => boolean, why: () => string, ms: number): Promise<void> => {
    const deadline = Date.now() + ms;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(why());
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  };
  return {
    port,
    mails,
    state,
    env: { PARLEY_SMTP_HOST: '127.0.0.1', PARLEY_SMTP_PORT: String(port) },
    /** Resolves once `count` mails have arrived (woken by each arrival). */
    async received(count: number, ms = 60_000): Promise<Mail[]> {
      await until(() => mails.length >= count, () => `only ${mails.length} of ${count} mails arrived`, ms);
      return mails.slice(0, count);
    },
    /** Resolves once a mail is being held back. */
    holding: (ms = 60_000) => until(() => heldBack.length > 0, () => 'no mail is held back', ms),
    /** Stops holding mails back and takes those held. */
    release() {
      state.holdFrom = Infinity;
      for (const accept of heldBack.splice(0)) accept();
    },
    /** Resolves once `count` recipients were refused. */
    refusals: (count: number, ms = 60_000) => until(() => state.refused >= count, () => `only ${state.refused} of ${count} recipients were refused`, ms),
    /** Resolves with the first mail `which` accepts, once it arrived. */
    async waitFor(which: (mail: Mail) => boolean, ms = 60_000): Promise<Mail> {
      await until(() => mails.some(which), () => 'the mail did not arrive', ms);
      return mails.find(which)!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
