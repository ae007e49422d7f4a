import { createHmac } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Auth, type CreateAuthOptions, createAuth, PEER_ADDRESS_HEADER } from "@domain-auth/core";
import { validateDomainText } from "@domain-auth/core/config";
import type { FetchLike } from "../lib/domain-auth/api-request";
import type { AuthView } from "../lib/domain-auth/domain-view";
import { toDomainView } from "../lib/domain-auth/domain-view";
import type { Clock } from "../lib/domain-auth/session-client";
import type { SessionChannel } from "../lib/domain-auth/session-sync";

const SECRET = "a test secret that is long enough for HS256 signing";

/** The sample app's own `domain.yaml` (the blog), edited by `edit` when given. */
export async function sampleDomainText(edit: (text: string) => string = (text) => text): Promise<string> {
  return edit(await readFile(new URL("../domain.yaml", import.meta.url), "utf8"));
}

/** A running core instance on a SQLite file in a fresh temporary folder; `stop` closes it and removes the folder. */
export interface TestCore {
  readonly auth: Auth;
  readonly view: AuthView;
  stop(): Promise<void>;
}

/** Starts a real core instance for `yaml` with fast test settings. */
export async function startCore(yaml: string, options: Partial<CreateAuthOptions> = {}): Promise<TestCore> {
  const { model, diagnostics } = validateDomainText(yaml);
  if (!model) throw new Error(`invalid domain: ${JSON.stringify(diagnostics)}`);
  const folder = await mkdtemp(join(tmpdir(), "domain-auth-web-"));
  const auth = await createAuth({
    domain: model,
    database: `file:${join(folder, "app.db")}`,
    secret: SECRET,
    bcryptCost: 4,
    hashThreads: 1,
    ...options,
  });
  const view = toDomainView(auth.model, auth.endpoints).auth;
  return {
    auth,
    view: view as AuthView,
    async stop() {
      await auth.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** A clock the test moves: timers run when {@link FakeClock.advance} reaches them, never on their own. */
export class FakeClock implements Clock {
  time = Date.UTC(2026, 0, 1, 12);
  readonly timers: { at: number; callback: () => void }[] = [];

  readonly now = (): number => this.time;

  schedule(callback: () => void, delayMs: number): () => void {
    const timer = { at: this.time + delayMs, callback };
    this.timers.push(timer);
    return () => {
      const index = this.timers.indexOf(timer);
      if (index >= 0) this.timers.splice(index, 1);
    };
  }

  /** Moves the time on by `ms`, running every timer due on the way, in order. */
  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const next = [...this.timers].sort((a, b) => a.at - b.at)[0];
      if (!next || next.at > until) break;
      this.timers.splice(this.timers.indexOf(next), 1);
      this.time = next.at;
      next.callback();
    }
    this.time = until;
  }
}

/** The origin the test browser's pages are on. */
export const ORIGIN = "http://localhost";

/** A browser's cookie jar for {@link ORIGIN}, as far as the session cookies need one: what answers set, sent back. */
export class CookieJar {
  readonly values = new Map<string, string>();

  /** Keeps the cookies an answer sets; a cookie set empty or with `Max-Age=0` is removed. */
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
      const [name = "", value = ""] = pair.split(/=(.*)/s);
      const removed = value === "" || attributes.some((attribute) => /^max-age=0$/i.test(attribute));
      if (removed) this.values.delete(name);
      else this.values.set(name, value);
    }
  }

  /** The `Cookie` header a request of the page carries; `""` for none. */
  header(): string {
    return [...this.values].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/** A `fetch` of the test browser that answers from the core instance and records each request as `METHOD path`. */
export type BrowserFetch = FetchLike & { readonly requests: string[]; readonly jar: CookieJar };

/**
 * `fetch` answered by the core instance itself as a browser on {@link ORIGIN} sends it: with the jar's
 * cookies, `Origin` on the methods browsers send it with, and the answers' cookies kept. Give two
 * tabs of one browser the same jar.
 */
export function browserFetch(auth: Auth, jar: CookieJar = new CookieJar()): BrowserFetch {
  const requests: string[] = [];
  const fetch = async (input: string, init: RequestInit) => {
    const method = init.method ?? "GET";
    requests.push(`${method} ${input}`);
    const headers = new Headers(init.headers);
    headers.set(PEER_ADDRESS_HEADER, "127.0.0.1");
    headers.set("host", new URL(ORIGIN).host);
    if (method !== "GET" && method !== "HEAD") headers.set("origin", ORIGIN);
    if (jar.values.size > 0) headers.set("cookie", jar.header());
    const response = await auth.handle(new Request(new URL(input, ORIGIN), { ...init, headers }));
    jar.take(response);
    return response;
  };
  return Object.assign(fetch, { requests, jar });
}

/** The channel between the tabs of a test browser: what one tab posts, every other one receives, a moment later. */
export class ChannelBus<T> {
  readonly #receivers = new Set<(message: T) => void>();

  /** A tab's end of the channel. */
  join(): SessionChannel<T> {
    const own = new Set<(message: T) => void>();
    return {
      post: (message) => {
        const others = [...this.#receivers].filter((receiver) => !own.has(receiver));
        queueMicrotask(() => {
          for (const receive of others) receive(message);
        });
      },
      listen: (receive) => {
        own.add(receive);
        this.#receivers.add(receive);
        return () => {
          own.delete(receive);
          this.#receivers.delete(receive);
        };
      },
    };
  }
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** The bytes of a base32 secret (RFC 4648, no padding), as authenticator apps read it. */
function base32Bytes(secret: string): Buffer {
  let bits = "";
  for (const char of secret.replace(/[\s=]/g, "").toUpperCase()) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, "0");
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => Number.parseInt(byte, 2)));
}

/** The code an authenticator app shows for a base32 secret at `timestamp` (RFC 6238: HMAC-SHA-1, 6 digits, 30 s). */
export function totpCode(secret: string, timestamp: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(timestamp / 30_000)));
  const hmac = createHmac("sha1", base32Bytes(secret)).update(counter).digest();
  const offset = (hmac.at(-1) ?? 0) & 0xf;
  return String((hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}
