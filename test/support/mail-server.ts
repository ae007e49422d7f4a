import type { AddressInfo } from "node:net";
import { Worker } from "node:worker_threads";
import { type CapturedMail, createCaptureServer } from "./mail-capture.mjs";

export type { CapturedMail } from "./mail-capture.mjs";

/** A real SMTP server on 127.0.0.1 that keeps every message it receives. */
export interface MailServer {
  /** `smtp://127.0.0.1:<port>` (no TLS, no authentication). */
  readonly url: string;
  readonly messages: readonly CapturedMail[];
  /** Waits for a message to `to` (the `count`-th one, 1 first) for at most `timeoutMs`. */
  waitFor(to: string, options?: { count?: number; timeoutMs?: number }): Promise<CapturedMail>;
  /** The messages to `to` so far. */
  to(address: string): CapturedMail[];
  /** Holds every message this long before accepting it (a slow server); 0 again by default. */
  delay(ms: number): void;
  close(): Promise<void>;
}

/**
 * Starts an SMTP server (the `smtp-server` package, a real protocol peer) on 127.0.0.1 and a free
 * port, capturing every message it accepts.
 */
export async function startMailServer(): Promise<MailServer> {
  const messages: CapturedMail[] = [];
  let delayMs = 0;
  const server = createCaptureServer(async (message) => {
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    messages.push(message);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    ...capture(`smtp://127.0.0.1:${port}`, messages),
    delay(ms) {
      delayMs = ms;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What both kinds of capture server offer over the messages received so far. */
function capture(url: string, messages: CapturedMail[]): Pick<MailServer, "url" | "messages" | "to" | "waitFor"> {
  const to = (address: string) => messages.filter((message) => message.to === address);
  return {
    url,
    messages,
    to,
    async waitFor(address, { count = 1, timeoutMs = 10_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = to(address)[count - 1];
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(`no message ${count} to ${address} within ${timeoutMs} ms (got ${messages.length} in all)`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

/**
 * The server of {@link startMailServer} on a worker thread: receiving and parsing messages costs
 * the test's event loop nothing, so a timing test measures only the instance's own work. It cannot
 * be slowed down ({@link MailServer.delay} throws).
 */
export async function startMailServerInWorker(): Promise<MailServer> {
  const messages: CapturedMail[] = [];
  const worker = new Worker(new URL("./mail-server-worker.mjs", import.meta.url));
  const port = await new Promise<number>((resolve, reject) => {
    worker.once("error", reject);
    worker.on("message", (event: { port?: number; message?: CapturedMail }) => {
      if (event.port !== undefined) resolve(event.port);
      if (event.message) messages.push(event.message);
    });
  });
  return {
    ...capture(`smtp://127.0.0.1:${port}`, messages),
    delay() {
      throw new Error("the capture server on a worker thread answers at once");
    },
    async close() {
      worker.postMessage("close");
      await new Promise((resolve) => worker.once("exit", resolve));
    },
  };
}

/** The link of a message from its plain text: the first URL that carries a `token`. */
export function linkOf(message: CapturedMail): URL {
  const match = /https?:\/\/\S+[?&]token=[A-Za-z0-9_-]+\S*/.exec(message.text);
  if (!match) throw new Error(`no link with a token in: ${message.text}`);
  return new URL(match[0]);
}

/** The token of a message's link. */
export function tokenOf(message: CapturedMail): string {
  return linkOf(message).searchParams.get("token") as string;
}
