import * as openid from "openid-client";
import type { ProviderModel } from "../config/index.js";
import { GITHUB_URL } from "../config/providers.js";

/** A provider's client at its authorization server, from the environment: never in `domain.yaml`. */
export interface ProviderCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** Who the provider says signed in: its subject, and the e-mail and name it gives. */
export interface ProviderProfile {
  /** The provider's stable id of the person: the ID token's `sub`, GitHub's numeric user id. */
  readonly subject: string;
  readonly email: string | null;
  /** The provider vouches for the e-mail (`email_verified`; GitHub's primary verified address); never Microsoft's. */
  readonly emailVerified: boolean;
  readonly name: string | null;
}

/** What a flow must show at the callback: the PKCE verifier, the `state` it sent and, for OpenID, the `nonce`. */
export interface FlowChecks {
  readonly codeVerifier: string;
  readonly state: string;
  readonly nonce: string;
}

/** A person cancelled at the provider, or the provider refused the request: no exchange was made. */
export class ProviderDeniedError extends Error {
  override readonly name = "ProviderDeniedError";
}

/** Seconds a request to the provider may take (discovery, the token exchange, the user info). */
const PROVIDER_TIMEOUT_SECONDS = 10;

/** GitHub's REST API for its web address: api.github.com for GitHub.com, `<url>/api/v3` for an Enterprise Server. */
function githubApi(url: string): string {
  return url === GITHUB_URL ? "https://api.github.com" : `${url}/api/v3`;
}

/**
 * GitHub answers a refused token exchange (a wrong or spent code) with 200 and an `error` in the
 * body: given its OAuth status (400), the exchange fails as the standard says it does.
 */
function githubFetch(tokenEndpoint: string): openid.CustomFetch {
  return async (url, options) => {
    const response = await fetch(url, options as RequestInit);
    if (url !== tokenEndpoint || response.status !== 200) return response;
    const body = await response.text();
    let refused = false;
    try {
      refused = typeof (JSON.parse(body) as { error?: unknown }).error === "string";
    } catch {}
    return new Response(body, { status: refused ? 400 : 200, headers: response.headers });
  };
}

/** `true` for an address on plain http (a loopback host: validation allows no other). */
const isPlainHttp = (url: string): boolean => url.startsWith("http:");

/**
 * One provider's side of the code flow, through openid-client (an OpenID Certified relying party):
 * discovery (made once and kept), the authorization URL with PKCE S256, and at the callback the
 * exchange with its checks (the state, the ID token's signature from the issuer's JWKS, `iss`,
 * `aud`, `exp`, `nonce`). Client authentication is `client_secret_basic`. The provider's access
 * token is used for the user's profile and then dropped: nothing of it is kept.
 */
export class ProviderClient {
  #configuration: Promise<openid.Configuration> | null = null;

  constructor(
    readonly provider: ProviderModel,
    readonly credentials: ProviderCredentials,
  ) {}

  /** The server's configuration: discovered once (a failed discovery is tried again next time). */
  configuration(): Promise<openid.Configuration> {
    this.#configuration ??= this.#configure().catch((error: unknown) => {
      this.#configuration = null;
      throw error;
    });
    return this.#configuration;
  }

  #configure(): Promise<openid.Configuration> {
    const { provider, credentials } = this;
    const clientAuth = openid.ClientSecretBasic(credentials.clientSecret);
    const metadata = { timeout: PROVIDER_TIMEOUT_SECONDS };
    if (provider.protocol === "oidc") {
      const issuer = provider.issuer ?? "";
      return openid.discovery(new URL(issuer), credentials.clientId, metadata, clientAuth, {
        timeout: PROVIDER_TIMEOUT_SECONDS,
        // The ID token's signature is checked against the issuer's keys even though it came straight from the token endpoint.
        execute: [...(isPlainHttp(issuer) ? [openid.allowInsecureRequests] : []), openid.enableNonRepudiationChecks],
      });
    }
    const web = provider.url ?? GITHUB_URL;
    const server = {
      issuer: web,
      authorization_endpoint: `${web}/login/oauth/authorize`,
      token_endpoint: `${web}/login/oauth/access_token`,
    };
    const configuration = new openid.Configuration(server, credentials.clientId, metadata, clientAuth);
    if (isPlainHttp(web)) openid.allowInsecureRequests(configuration);
    configuration[openid.customFetch] = githubFetch(server.token_endpoint);
    return Promise.resolve(configuration);
  }

  /** Where the browser goes to sign in: the code flow with PKCE S256, the state and (OpenID) the nonce. */
  async authorizationUrl(redirectUri: string, checks: FlowChecks): Promise<URL> {
    const configuration = await this.configuration();
    return openid.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: this.provider.scopes.join(" "),
      state: checks.state,
      code_challenge: await openid.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: "S256",
      ...(this.provider.protocol === "oidc" ? { nonce: checks.nonce } : {}),
    });
  }

  /**
   * The person the provider signed in, from the callback's URL (`redirectUri` with the query the
   * provider sent): the code exchanged and checked, then the profile read.
   *
   * @throws {ProviderDeniedError} when the provider answered an error (the person cancelled).
   * @throws any other error when the exchange or a check failed.
   */
  async profile(callbackUrl: URL, checks: FlowChecks): Promise<ProviderProfile> {
    const configuration = await this.configuration();
    const oidc = this.provider.protocol === "oidc";
    let tokens: Awaited<ReturnType<typeof openid.authorizationCodeGrant>>;
    try {
      tokens = await openid.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        ...(oidc ? { expectedNonce: checks.nonce, idTokenExpected: true } : {}),
      });
    } catch (error) {
      if (error instanceof openid.AuthorizationResponseError) throw new ProviderDeniedError(error.error, { cause: error });
      throw error;
    }
    return oidc ? this.#openIdProfile(configuration, tokens) : this.#githubProfile(configuration, tokens.access_token);
  }

  async #openIdProfile(
    configuration: openid.Configuration,
    tokens: Awaited<ReturnType<typeof openid.authorizationCodeGrant>>,
  ): Promise<ProviderProfile> {
    const claims = tokens.claims();
    if (!claims) throw new Error("the provider answered no ID token");
    // Some providers put the e-mail in the ID token, others only in the user info: read it there when missing.
    const source = typeof claims.email === "string" ? claims : await openid.fetchUserInfo(configuration, tokens.access_token, claims.sub);
    const email = typeof source.email === "string" ? source.email : null;
    return {
      subject: claims.sub,
      email,
      emailVerified: email !== null && source.email_verified === true && this.provider.vouchesForEmail,
      name: typeof source.name === "string" ? source.name : null,
    };
  }

  async #githubProfile(configuration: openid.Configuration, accessToken: string): Promise<ProviderProfile> {
    const api = githubApi(this.provider.url ?? GITHUB_URL);
    const read = async (path: string): Promise<unknown> => {
      const headers = new Headers({ accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" });
      const response = await openid.fetchProtectedResource(configuration, accessToken, new URL(`${api}${path}`), "GET", undefined, headers);
      if (!response.ok) throw new Error(`GitHub answered ${response.status} for ${path}`);
      return response.json();
    };
    const user = (await read("/user")) as { id?: unknown; name?: unknown; login?: unknown };
    if (typeof user.id !== "number" && typeof user.id !== "string") throw new Error("GitHub answered a user without an id");
    const emails = (await read("/user/emails")) as { email?: unknown; primary?: unknown; verified?: unknown }[];
    const primary = Array.isArray(emails) ? emails.find((entry) => entry.primary === true && typeof entry.email === "string") : undefined;
    const name = typeof user.name === "string" && user.name !== "" ? user.name : typeof user.login === "string" ? user.login : null;
    return {
      subject: String(user.id),
      email: primary ? String(primary.email) : null,
      emailVerified: primary?.verified === true,
      name,
    };
  }
}
