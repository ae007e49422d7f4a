import type { TestDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf } from "@domain-auth/test-support/domains";
import { type ProviderAccount, startOpenIdProvider, type TestOpenIdProvider } from "@domain-auth/test-support/openid-provider";
import { afterAll, beforeAll } from "vitest";
import type { CreateAuthOptions } from "../../src/index.js";
import type { ApiClient, ApiResult, CallOptions } from "./client.js";
import { startInstance, type TestInstance } from "./instance.js";

/** The app's public origin in these tests: the redirect URI is built from it. */
export const APP_URL = "http://localhost:3000";

/** The blog with one OpenID provider, `acme`, at `issuer`. */
export function blogWithProvider(issuer: string): string {
  return BLOG_YAML.replace(
    "auth:\n  type: jwt\n",
    `auth:\n  type: jwt\n  providers:\n    acme: { type: oidc, issuer: "${issuer}", name: Acme }\n`,
  );
}

/** A browser's cookies for the app: what `Set-Cookie` gave, sent back with each request. */
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(private readonly api: ApiClient) {}

  /** A request with this browser's cookies; the answer's cookies are kept. */
  async call(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<ApiResult> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const headers = { ...options.headers, ...(cookie ? { cookie } : {}) };
    const answer = await this.api.call(method, path, body, { ...options, headers });
    for (const header of answer.headers.getSetCookie()) {
      const [pair = ""] = header.split(";");
      const index = pair.indexOf("=");
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (value === "" || /Max-Age=0/i.test(header)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return answer;
  }

  get(path: string, options?: CallOptions): Promise<ApiResult> {
    return this.call("GET", path, undefined, options);
  }

  /** Whether it holds a session cookie (an access token). */
  get signedIn(): boolean {
    return this.cookies.has("domain-auth.token");
  }
}

/** The path and query of an absolute URL of the app. */
export const pathOf = (url: URL | string): string => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/** A provider sign-in test: an instance with `acme`, a real OpenID Provider, and browsers. */
export interface ProviderTest {
  readonly provider: TestOpenIdProvider;
  readonly instance: TestInstance;
  /** A new browser. */
  browser(): Browser;
  /** Moves the instance's clock by this many seconds (it starts at the real time). */
  advance(seconds: number): void;
  /**
   * Signs `account` in at the provider from a browser: starts the flow (`GET oauth/acme`), goes through
   * the provider's pages and opens the callback; answers the callback's answer.
   */
  signIn(browser: Browser, account: string, next?: string): Promise<ApiResult>;
}

/**
 * Starts the OpenID Provider, then an instance on a fresh database with `acme` pointing at it, before
 * the suite; stops both after.
 */
export function useProviderTest(
  createDatabase: () => TestDatabase | Promise<TestDatabase>,
  options: {
    readonly accounts?: Record<string, ProviderAccount>;
    /** Changes the domain's text (`register: true` to `false`, say). */
    readonly yaml?: (yaml: string) => string;
    readonly instance?: Partial<CreateAuthOptions>;
  } = {},
): ProviderTest {
  const test = {} as { provider: TestOpenIdProvider; instance: TestInstance };
  let clock = Date.now();
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    test.provider = await startOpenIdProvider({
      redirectUris: [`${APP_URL}/api/user/oauth/acme/callback`],
      ...(options.accounts ? { accounts: options.accounts } : {}),
    });
    database = await createDatabase();
    const { clientId, clientSecret } = test.provider;
    const yaml = blogWithProvider(test.provider.issuer);
    test.instance = await startInstance(domainOf(options.yaml?.(yaml) ?? yaml), database.url, {
      now: () => clock,
      appUrl: APP_URL,
      providers: { acme: { clientId, clientSecret } },
      ...options.instance,
    });
  });
  afterAll(async () => {
    await test.instance?.auth.close();
    await database?.drop();
    await test.provider?.close();
  });
  return {
    get provider() {
      return test.provider;
    },
    get instance() {
      return test.instance;
    },
    browser: () => new Browser(test.instance.api),
    advance(seconds) {
      clock += seconds * 1000;
    },
    async signIn(browser, account, next) {
      const started = await browser.get(`/api/user/oauth/acme${next ? `?next=${encodeURIComponent(next)}` : ""}`);
      if (started.status !== 302) throw new Error(`GET oauth/acme answered ${started.status}: ${started.text}`);
      const callback = await test.provider.signIn(started.headers.get("location") ?? "", account);
      return browser.get(pathOf(callback));
    },
  };
}
