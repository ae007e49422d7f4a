import { generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/** A person the test provider knows: the claims it vouches for. */
export interface ProviderAccount {
  readonly email?: string;
  readonly email_verified?: boolean;
  readonly name?: string;
}

/** A real OpenID Provider (oidc-provider, OpenID Certified) on 127.0.0.1, with one confidential client. */
export interface TestOpenIdProvider {
  /** Its issuer: `http://127.0.0.1:<port>`. */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Adds or replaces an account (its id is its `sub`). */
  setAccount(id: string, account: ProviderAccount): void;
  /**
   * Signs `account` in through the provider's own pages (its sign-in and consent forms, over HTTP
   * with a cookie jar of its own), from the authorization URL our app redirected to: answers the
   * URL the provider redirects back to (the app's callback with `code` and `state`).
   */
  signIn(authorizationUrl: string, account: string): Promise<URL>;
  /** Cancels at the provider's sign-in page: the callback URL with `error=access_denied`. */
  cancel(authorizationUrl: string): Promise<URL>;
  close(): Promise<void>;
}

/** Cookies by name, as a browser keeps them for one site (paths ignored: the provider's own pages only). */
class CookieJar {
  readonly #cookies = new Map<string, string>();

  take(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";");
      const index = pair.indexOf("=");
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (value === "" || /max-age=0|expires=Thu, 01 Jan 1970/i.test(header)) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/**
 * Starts an OpenID Provider for the tests: code flow with PKCE required, `client_secret_basic`,
 * `email` and `profile` claims from {@link ProviderAccount}s, its development sign-in pages.
 */
export async function startOpenIdProvider(options: {
  readonly redirectUris: readonly string[];
  readonly accounts?: Readonly<Record<string, ProviderAccount>>;
}): Promise<TestOpenIdProvider> {
  const accounts = new Map(Object.entries(options.accounts ?? {}));
  let handler: Parameters<typeof createServer>[1] = (_request, response) => response.end();
  const server: Server = createServer((request, response) => handler?.(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = "domain-auth-test";
  const clientSecret = "a-client-secret-of-the-test-provider";
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [...options.redirectUris],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: "jwk" }), use: "sig", kid: "test" }] },
    cookies: { keys: ["a-cookie-key-of-the-test-provider"] },
    pkce: { required: () => true },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    features: { devInteractions: { enabled: true } },
    async findAccount(_context, id) {
      const account = accounts.get(id);
      return account && { accountId: id, claims: async () => ({ sub: id, ...account }) };
    },
  });
  provider.on("server_error", (_context, error) => console.error("test OpenID Provider:", error));
  handler = provider.callback();

  /** Follows the provider's redirects and forms until it redirects away from itself. */
  async function walk(start: string, answer: (html: string, action: string) => URLSearchParams | "abort"): Promise<URL> {
    const jar = new CookieJar();
    let url = new URL(start);
    let post: URLSearchParams | null = null;
    for (let step = 0; step < 20; step += 1) {
      if (!url.href.startsWith(issuer)) return url;
      const response = await fetch(url, {
        method: post ? "POST" : "GET",
        redirect: "manual",
        headers: { cookie: jar.header(), ...(post ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
        ...(post ? { body: post.toString() } : {}),
      });
      jar.take(response);
      post = null;
      const location = response.headers.get("location");
      if (location) {
        url = new URL(location, url);
        continue;
      }
      const html = await response.text();
      if (!response.ok) throw new Error(`the test provider answered ${response.status} at ${url.pathname}: ${html.slice(0, 300)}`);
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (!action) throw new Error(`no form on the test provider's page ${url.pathname}`);
      const next = answer(html, action);
      if (next === "abort") {
        url = new URL(`${new URL(action, url).pathname.replace(/\/$/, "")}/abort`, url);
        continue;
      }
      url = new URL(action, url);
      post = next;
    }
    throw new Error("the test provider's pages did not end");
  }

  return {
    issuer,
    clientId,
    clientSecret,
    setAccount: (id, account) => accounts.set(id, account),
    signIn: (authorizationUrl, account) =>
      walk(authorizationUrl, (html) => {
        const prompt = /name="prompt" value="([a-z]+)"/.exec(html)?.[1] ?? "login";
        return new URLSearchParams(prompt === "login" ? { prompt, login: account, password: "any" } : { prompt });
      }),
    cancel: (authorizationUrl) => walk(authorizationUrl, () => "abort"),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
