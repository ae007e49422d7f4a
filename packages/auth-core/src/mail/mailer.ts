import { Piscina } from "piscina";
import { assertOptionalPeerInstalled } from "../optional-peer.js";

/** One e-mail, ready to send: plain text and HTML, and the link it carries (for the console). */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** The link the message is about; what the development console prints. */
  readonly link: string;
}

/** Sends e-mail. The one interface the rest of the service knows (docs/mail.md). */
export interface Mailer {
  /** Sends one message; rejects when it could not be handed to the mail server. */
  send(message: MailMessage): Promise<void>;
  /** Closes open connections (and threads). */
  close?(): void | Promise<void>;
}

/** How long the SMTP transport waits to connect, for the greeting, and on a silent socket. @default 10000 */
export const DEFAULT_SMTP_TIMEOUT_MS = 10_000;

/** Options of {@link createSmtpMailer}. */
export interface SmtpMailerOptions {
  /** `smtp://user:pass@host:587` or `smtps://…`; nodemailer's query options (`?ignoreTLS=true`) are kept. */
  readonly url: string;
  /** The sender, e.g. `no-reply@example.com` or `"Blog" <no-reply@example.com>`. */
  readonly from: string;
  /** Connection, greeting and socket timeouts in milliseconds, unless the URL sets them. @default 10000 */
  readonly timeoutMs?: number;
}

/** Messages one mail thread has under way at once: each mostly waits on the mail server. */
const SENDS_PER_THREAD = 16;

/**
 * A mailer that sends through an SMTP server with nodemailer, on a thread of its own: building a
 * message and speaking SMTP cost the thread that answers requests nothing, so a message sent
 * after one request's answer does not slow the requests that follow it. Every wait on the server
 * is bounded: a server that does not answer fails the send after the timeout instead of holding
 * it open. Needs the optional peer `nodemailer`.
 *
 * @example
 * const mailer = createSmtpMailer({ url: "smtps://user:pass@mail.example.com", from: "no-reply@example.com" });
 */
export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  // The thread loads nodemailer; a missing one is said here, when SMTP_URL is read, not at the first send.
  assertOptionalPeerInstalled("nodemailer");
  const url = new URL(options.url);
  const timeout = String(options.timeoutMs ?? DEFAULT_SMTP_TIMEOUT_MS);
  for (const name of ["connectionTimeout", "greetingTimeout", "socketTimeout"]) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, timeout);
  }
  const pool = new Piscina({
    filename: new URL("./smtp-worker.cjs", import.meta.url).href,
    minThreads: 1,
    maxThreads: 1,
    concurrentTasksPerWorker: SENDS_PER_THREAD,
  });
  const server = url.toString();
  return {
    async send(message) {
      const { to, subject, text, html } = message;
      await pool.run({ url: server, from: options.from, message: { to, subject, text, html } });
    },
    close: () => pool.destroy(),
  };
}

/**
 * The development default: each message is printed (recipient, subject and link) instead of sent,
 * so a reset or verification link can be followed without a mail server.
 */
export function createConsoleMailer(print: (line: string) => void = (line) => console.info(line)): Mailer {
  return {
    async send(message) {
      print(`domain-auth: e-mail to ${message.to}: "${message.subject}" ${message.link}`);
    },
  };
}
