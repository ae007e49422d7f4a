import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Auth, type CreateAuthOptions, createAuth, PEER_ADDRESS_HEADER, validateDomainText } from "@domain-auth/core";
import type { AuthView } from "../lib/domain-auth/domain-view";
import { toDomainView } from "../lib/domain-auth/domain-view";
import type { Clock, SessionClientOptions } from "../lib/domain-auth/session-client";

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

/** A `sessionStorage` stand-in kept in memory. */
export function memoryStorage(): SessionClientOptions["storage"] & { readonly items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

/** `fetch` answered by the core instance itself, recording each request as `METHOD path`. */
export function coreFetch(auth: Auth): SessionClientOptions["fetch"] & { readonly requests: string[] } {
  const requests: string[] = [];
  const fetch = (input: string, init: RequestInit) => {
    requests.push(`${init.method ?? "GET"} ${input}`);
    const headers = new Headers(init.headers);
    headers.set(PEER_ADDRESS_HEADER, "127.0.0.1");
    return auth.handle(new Request(new URL(input, "http://localhost"), { ...init, headers }));
  };
  return Object.assign(fetch, { requests });
}
