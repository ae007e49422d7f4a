import { Agent, createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { startMailServerInWorker } from "@domain-auth/test-support/mail-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeListener } from "../../src/index.js";
import { MAIL_PATHS, median, pause, useMailTimingInstance } from "../support/timing.js";

/**
 * What forgot-password and resend-verification leave for after their answer tells nothing either:
 * a request sent right after one, on the same keep-alive connection, takes as long whether the
 * email has an account or not (docs/mail.md). The instance is served by node:http as in production,
 * on a SQLite file with durable commits or on PostgreSQL, and sends real mail to an SMTP server on
 * a thread of its own, so only the instance's work is on the measured event loop.
 */

const ACCOUNTS = 24;
const ROUNDS = 4; // with the warm-up, the 5 requests per email the throttle allows
const WARM_UP = 6;
/** How far apart the two medians may be; before both kinds made the same write, known was 1.85 to 6 times slower. */
const TOLERANCE = 1.4;

interface Sent {
  readonly status: number;
  readonly ms: number;
}

/** Requests over one keep-alive connection, each timed from when it is made to the last byte of its answer. */
function connection(base: string): {
  send(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Sent>;
  close(): void;
} {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return {
    send(method, path, body, headers = {}) {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      return new Promise((resolve, reject) => {
        const started = performance.now();
        const outgoing = httpRequest(`${base}${path}`, {
          method,
          agent,
          headers:
            payload === undefined
              ? headers
              : { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) },
        });
        outgoing.on("error", reject);
        outgoing.on("response", (incoming) => {
          incoming.on("data", () => {});
          incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, ms: performance.now() - started }));
        });
        outgoing.end(payload);
      });
    },
    close: () => agent.destroy(),
  };
}

describe.each(BACKENDS)("the request after a mail request, on $name", (backend) => {
  let connections = 0;
  let server: Server;
  let base = "";
  const { test, knownEmail, freshAddress } = useMailTimingInstance(backend.create, {
    accounts: ACCOUNTS,
    mailServer: startMailServerInWorker,
  });

  beforeAll(async () => {
    server = createServer(createNodeListener(test.auth.handle));
    server.on("connection", () => connections++);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it.each(MAIL_PATHS)(
    "after %s, a known email's next request is as fast as an unknown one's",
    async (path) => {
      const client = connection(base);
      const before = connections;
      /** The time of the `GET setup` sent as soon as the mail request was answered. */
      async function followUp(email: string): Promise<number> {
        const asked = await client.send("POST", `/api/user/${path}`, { email }, freshAddress());
        expect(asked.status).toBe(202);
        const next = await client.send("GET", "/api/user/setup");
        expect(next.status).toBe(200);
        return next.ms;
      }
      const known: number[] = [];
      const unknown: number[] = [];
      let unknownIndex = 0;
      try {
        // Round 0 is not measured: the threads and code paths warm up, as on a server that has run a while.
        for (let round = 0; round <= ROUNDS; round++) {
          for (let index = 0; index < (round === 0 ? WARM_UP : ACCOUNTS); index++) {
            // Which kind goes first alternates, so a drift of the machine's load weighs on both alike.
            const knownFirst = (round + index) % 2 === 0;
            for (const isKnown of knownFirst ? [true, false] : [false, true]) {
              const email = isKnown ? knownEmail(path, index) : `unknown-${path}-${unknownIndex++}@example.com`;
              const ms = await followUp(email);
              if (round > 0) (isKnown ? known : unknown).push(ms);
              // Nothing of one measurement may still run in the next: the message is out first.
              if (isKnown) await test.mail.waitFor(email, { count: round + (index < WARM_UP ? 1 : 0) });
              await pause(10);
            }
          }
        }
      } finally {
        client.close();
      }
      expect(connections - before, "every request went over one connection").toBe(1);
      const ratio = median(known) / median(unknown);
      const seen = `known ${median(known).toFixed(2)} ms, unknown ${median(unknown).toFixed(2)} ms (${known.length} each)`;
      console.info(`${backend.name} ${path}: ${seen}`);
      expect(ratio, seen).toBeGreaterThan(1 / TOLERANCE);
      expect(ratio, seen).toBeLessThan(TOLERANCE);
    },
    180_000,
  );
});
