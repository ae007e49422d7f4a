import type { SMTPServer } from "smtp-server";

/** A message the test SMTP server received, parsed. */
export interface CapturedMail {
  readonly to: string;
  readonly from: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/**
 * An SMTP server (the `smtp-server` package, a real protocol peer; no TLS, no authentication) that
 * parses each message and hands it to `receive`, accepting the message once `receive` has settled.
 * It does not listen yet.
 */
export function createCaptureServer(receive: (message: CapturedMail) => void | Promise<void>): SMTPServer;
