import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { BLOG_YAML } from "@domain-auth/test-support/domains";
import { type Answer, call } from "@domain-auth/test-support/http-client";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import type { CreateAuthOptions } from "../../../packages/auth-core/src/index.js";
import { type Served, serve as serveInstance } from "./served.js";

/**
 * What the attacks on sign-in with providers (docs/providers.md) run against: an instance served on
 * node:http (the request target, the headers and the cookies exactly as a browser or an attacker
 * sends them), browsers with their own cookie jar and client address, and an OpenID Provider of our
 * own that can be made to misbehave (a malicious or broken provider) and to hold its token answers
 * until the test lets them go (races without timing luck).
 */

/** The app's public origin in these tests (`APP_URL`): the redirect URIs are built from it. */
export const APP_URL = "http://localhost:3000";
/** The same origin, as a page of the app sends it. */
export const SAME_ORIGIN = { origin: APP_URL } as const;
/** Another site. */
export const EVIL_ORIGIN = { origin: "https://evil.example" } as const;

export const COOKIE = {
  access: "domain-auth.token",
  refresh: "domain-auth.refresh-token",
  flow: "domain-auth.oauth-flow",
  mfa: "domain-auth.mfa",
} as const;

/** The callback URL of a provider id under an app's origin. */
export const callbackUri = (id: string, appUrl = APP_URL): string => `${appUrl}/api/user/oauth/${id}/callback`;

/** The path and query of an absolute URL. */
export const pathOf = (url: URL | string): string => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

// ---------------------------------------------------------------------------------------------
// A served instance
// ---------------------------------------------------------------------------------------------

export type { Served } from "./served.js";

/** Serves an instance of `yaml` on 127.0.0.1 with one proxy hop trusted, so each browser has its own address. */
export function serve(databaseUrl: string, yaml: string, options: Partial<CreateAuthOptions>): Promise<Served> {
  return serveInstance(databaseUrl, yaml, { trustProxy: 1, ...options });
}

/** The blog with these providers (`id: { … }` lines, YAML flow maps) and any `auth` lines more. */
export function blogWith(providers: Readonly<Record<string, string>>, moreAuth = ""): string {
  const lines = Object.entries(providers)
    .map(([id, map]) => `    ${id}: ${map}\n`)
    .join("");
  return `${BLOG_YAML.replace("auth:\n  type: jwt\n", `auth:\n  type: jwt\n  providers:\n${lines}`)}${moreAuth}`;
}

// ---------------------------------------------------------------------------------------------
// Browsers
// ---------------------------------------------------------------------------------------------

let addressCounter = 0;

/** A fresh client address (TEST-NET-2), one per browser unless told. */
export function freshAddress(): string {
  addressCounter += 1;
  return `198.51.${Math.floor(addressCounter / 250) % 250}.${(addressCounter % 250) + 1}`;
}

/** An answer, with the `Set-Cookie` lines it carried. */
export interface BrowserAnswer extends Answer {
  readonly setCookies: readonly string[];
  readonly location: string | null;
}

/** What a request of a browser may add. */
export interface BrowserCall {
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly token?: string;
}

/** A browser: its cookies for the app (as `Set-Cookie` gave them), sent back with each request, and its client address. */
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly base: string,
    readonly address: string = freshAddress(),
  ) {}

  async call(method: string, path: string, request: BrowserCall = {}): Promise<BrowserAnswer> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const headers: Record<string, string> = {
      "x-forwarded-for": this.address,
      ...(cookie ? { cookie } : {}),
      ...request.headers,
    };
    const answer = await call(this.base, {
      method,
      path,
      headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      ...(request.token === undefined ? {} : { token: request.token }),
    });
    const setCookies = answer.headers.getSetCookie();
    for (const header of setCookies) {
      const [pair = ""] = header.split(";");
      const index = pair.indexOf("=");
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (value === "" || /max-age=0/i.test(header)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { ...answer, setCookies, location: answer.headers.get("location") };
  }

  get(path: string, headers?: Readonly<Record<string, string>>): Promise<BrowserAnswer> {
    return this.call("GET", path, headers ? { headers } : {});
  }

  /** Whether it holds a session cookie (an access token). */
  get signedIn(): boolean {
    return this.cookies.has(COOKIE.access);
  }
}

/** The `Set-Cookie` lines of an answer that hand out a session (an access or refresh token with a value). */
export function sessionCookiesOf(answer: { readonly setCookies: readonly string[] }): string[] {
  return answer.setCookies.filter((line) => /^(__Host-)?domain-auth\.(token|refresh-token)=[^;]/.test(line));
}

// ---------------------------------------------------------------------------------------------
// An OpenID Provider of our own
// ---------------------------------------------------------------------------------------------

/** A person at the fake provider, and how the provider answers for them (a malicious or broken provider included). */
export interface FakePerson {
  readonly sub: string;
  readonly email?: string;
  /** As the provider sends it: `true`, or anything else a provider might (`"true"`, `1`). */
  readonly email_verified?: unknown;
  readonly name?: string;
  /** More claims in the ID token and the user info (`role`, `groups`…). */
  readonly extra?: Readonly<Record<string, unknown>>;
  /** The e-mail claims only in the user info, not in the ID token. */
  readonly emailOnlyInUserInfo?: boolean;
  /** The user info answered instead of the person's claims. */
  readonly userInfo?: Readonly<Record<string, unknown>>;
  /** Claims of the ID token replaced (`nonce`, `aud`, `iss`, `exp`, `sub`…). */
  readonly idToken?: Readonly<Record<string, unknown>>;
  /** Signs the ID token with another key than the one the provider publishes. */
  readonly foreignKey?: boolean;
  /** An ID token with `alg: none`. */
  readonly unsigned?: boolean;
  /** Answers no ID token. */
  readonly noIdToken?: boolean;
}

interface Grant {
  readonly person: FakePerson;
  readonly redirectUri: string;
  readonly challenge: string;
  readonly nonce: string | null;
}

/** An OpenID Provider for the attacks: code flow with PKCE S256, `client_secret_basic`, RS256 ID tokens. */
export interface FakeOpenIdProvider {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Token endpoint calls, by code (a code that was sent to this provider). */
  readonly exchanges: string[];
  /** Every secret it handed out: codes, access tokens, ID tokens (what must never leak). */
  readonly secrets: Set<string>;
  /** The authorization requests it was sent, as parsed. */
  readonly authorizations: URLSearchParams[];
  /**
   * When set, every token answer waits for it: `hold(n)` makes the next `n` exchanges wait until
   * all `n` have arrived, then answers them together.
   */
  hold(count: number): void;
  /** Signs `person` in at the authorization URL the app redirected to: the callback URL it sends the browser to. */
  approve(authorizationUrl: string, person: FakePerson): URL;
  /** The person cancels: the callback URL with `error=access_denied`. */
  deny(authorizationUrl: string): URL;
  close(): Promise<void>;
}

const base64url = (buffer: Buffer): string => buffer.toString("base64url");

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify(body));
}

/** Starts the fake OpenID Provider on 127.0.0.1, with one confidential client whose redirect URIs are `redirectUris`. */
export async function startFakeOpenIdProvider(redirectUris: readonly string[]): Promise<FakeOpenIdProvider> {
  const clientId = "fake-client";
  const clientSecret = "a-client-secret-of-the-fake-provider";
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const foreign = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "fake-1", alg: "RS256", use: "sig" };
  const grants = new Map<string, Grant>();
  const tokens = new Map<string, FakePerson>();
  const exchanges: string[] = [];
  const secrets = new Set<string>();
  const authorizations: URLSearchParams[] = [];
  let held: { count: number; waiting: (() => void)[] } | null = null;

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => sendJson(response, 500, { error: "server_error", detail: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const claimsOf = (person: FakePerson, withEmail: boolean): Record<string, unknown> => ({
    ...(withEmail && person.email !== undefined ? { email: person.email } : {}),
    ...(withEmail && person.email_verified !== undefined ? { email_verified: person.email_verified } : {}),
    ...(person.name !== undefined ? { name: person.name } : {}),
    ...person.extra,
  });

  async function idTokenOf(grant: Grant): Promise<string> {
    const { person } = grant;
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: issuer,
      sub: person.sub,
      aud: clientId,
      iat: now,
      exp: now + 300,
      ...(grant.nonce === null ? {} : { nonce: grant.nonce }),
      ...claimsOf(person, !person.emailOnlyInUserInfo),
      ...person.idToken,
    };
    if (person.unsigned) {
      const encode = (part: unknown) => base64url(Buffer.from(JSON.stringify(part)));
      return `${encode({ alg: "none", typ: "JWT" })}.${encode(claims)}.`;
    }
    return new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", kid: "fake-1", typ: "JWT" })
      .sign(person.foreignKey ? foreign.privateKey : privateKey);
  }

  async function exchange(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = await readForm(request);
    const code = form.get("code") ?? "";
    exchanges.push(code);
    if (held) {
      const gate = held;
      await new Promise<void>((resolve) => {
        gate.waiting.push(resolve);
        if (gate.waiting.length >= gate.count) {
          held = null;
          for (const release of gate.waiting) release();
        }
      });
    }
    const basic = Buffer.from((request.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString("utf8");
    const [id = "", secret = ""] = basic.split(":").map((part) => decodeURIComponent(part.replaceAll("+", " ")));
    if (id !== clientId || secret !== clientSecret) return sendJson(response, 401, { error: "invalid_client" });
    const grant = grants.get(code);
    grants.delete(code);
    const verifier = form.get("code_verifier") ?? "";
    const pkce = grant !== undefined && base64url(createHash("sha256").update(verifier).digest()) === grant.challenge;
    if (!grant || !pkce || form.get("redirect_uri") !== grant.redirectUri) return sendJson(response, 400, { error: "invalid_grant" });
    const accessToken = `fake-at-${base64url(randomBytes(24))}`;
    tokens.set(accessToken, grant.person);
    secrets.add(accessToken);
    const body: Record<string, unknown> = {
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: 300,
      scope: "openid email profile",
    };
    if (!grant.person.noIdToken) {
      body.id_token = await idTokenOf(grant);
      secrets.add(String(body.id_token));
    }
    sendJson(response, 200, body);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", issuer);
    if (url.pathname === "/.well-known/openid-configuration") {
      return sendJson(response, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["client_secret_basic"],
        scopes_supported: ["openid", "email", "profile"],
      });
    }
    if (url.pathname === "/jwks") return sendJson(response, 200, { keys: [jwk] });
    if (url.pathname === "/token" && request.method === "POST") return exchange(request, response);
    if (url.pathname === "/userinfo") {
      const person = tokens.get((request.headers.authorization ?? "").replace(/^Bearer /i, ""));
      if (!person) return sendJson(response, 401, { error: "invalid_token" });
      return sendJson(response, 200, person.userInfo ?? { sub: person.sub, ...claimsOf(person, true) });
    }
    sendJson(response, 404, { error: "not_found" });
  }

  function checkedRequest(authorizationUrl: string): URLSearchParams {
    const url = new URL(authorizationUrl);
    if (`${url.origin}${url.pathname}` !== `${issuer}/authorize`)
      throw new Error(`not this provider's authorization URL: ${authorizationUrl}`);
    const params = url.searchParams;
    authorizations.push(params);
    if (params.get("client_id") !== clientId) throw new Error("another client");
    if (!redirectUris.includes(params.get("redirect_uri") ?? ""))
      throw new Error(`an unregistered redirect URI: ${params.get("redirect_uri")}`);
    if (params.get("response_type") !== "code" || params.get("code_challenge_method") !== "S256")
      throw new Error("not the code flow with S256");
    return params;
  }

  return {
    issuer,
    clientId,
    clientSecret,
    exchanges,
    secrets,
    authorizations,
    hold(count) {
      held = { count, waiting: [] };
    },
    approve(authorizationUrl, person) {
      const params = checkedRequest(authorizationUrl);
      const code = `fake-code-${base64url(randomBytes(18))}`;
      secrets.add(code);
      const redirectUri = params.get("redirect_uri") ?? "";
      grants.set(code, { person, redirectUri, challenge: params.get("code_challenge") ?? "", nonce: params.get("nonce") });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      back.searchParams.set("state", params.get("state") ?? "");
      return back;
    },
    deny(authorizationUrl) {
      const params = checkedRequest(authorizationUrl);
      const back = new URL(params.get("redirect_uri") ?? "");
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("state", params.get("state") ?? "");
      return back;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// What the database holds
// ---------------------------------------------------------------------------------------------

/** The identities and flows tables (docs/providers.md#what-is-stored). */
export const PROVIDER_TABLE_NAMES = { identities: "domain_auth_identities", flows: "domain_auth_oauth_flows" } as const;

/** Every row of `table`, read straight from the database (`file:` SQLite or PostgreSQL), as the database holds it. */
export async function tableRows(databaseUrl: string, table: string): Promise<Record<string, unknown>[]> {
  if (databaseUrl.startsWith("file:")) {
    const { default: SQLite } = await import("better-sqlite3");
    const database = new SQLite(databaseUrl.slice("file:".length), { readonly: true, fileMustExist: true });
    try {
      return database.prepare(`select * from "${table}"`).all() as Record<string, unknown>[];
    } finally {
      database.close();
    }
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(`select * from "${table}"`)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}
