import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A GitHub user as the fake answers it: `/user` and `/user/emails`. */
export interface GitHubUser {
  readonly id: number;
  readonly login: string;
  readonly name?: string | null;
  readonly emails: readonly { readonly email: string; readonly primary: boolean; readonly verified: boolean }[];
}

/**
 * A local server that answers as GitHub (an Enterprise Server at `url`) does for an OAuth app: the
 * authorize page (which signs in whoever the test chose, or cancels), the token exchange (the
 * client's Basic credentials, a single-use code, its redirect URI and PKCE S256 checked), and
 * `/api/v3/user` and `/api/v3/user/emails` for the access token.
 */
export interface TestGitHub {
  /** Its web address: give it as the provider's `url:`. */
  readonly url: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Who the next authorization signs in; `null`: the person cancels (`error=access_denied`). */
  nextUser: GitHubUser | null;
  close(): Promise<void>;
}

interface Grant {
  readonly user: GitHubUser;
  readonly redirectUri: string;
  readonly challenge: string;
}

const base64url = (buffer: Buffer) => buffer.toString("base64url");

async function readBody(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/** Starts the fake GitHub on 127.0.0.1. */
export async function startGitHub(): Promise<TestGitHub> {
  const clientId = "Iv1.test-client";
  const clientSecret = "a-client-secret-of-the-fake-github";
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, GitHubUser>();
  const github = { nextUser: null as GitHubUser | null };

  function authorize(url: URL, response: ServerResponse): void {
    const redirectUri = url.searchParams.get("redirect_uri") ?? "";
    const back = new URL(redirectUri);
    back.searchParams.set("state", url.searchParams.get("state") ?? "");
    const user = github.nextUser;
    if (url.searchParams.get("client_id") !== clientId || url.searchParams.get("code_challenge_method") !== "S256") {
      send(response, 400, { error: "bad authorize request" });
      return;
    }
    if (user === null) back.searchParams.set("error", "access_denied");
    else {
      const code = base64url(randomBytes(16));
      codes.set(code, { user, redirectUri, challenge: url.searchParams.get("code_challenge") ?? "" });
      back.searchParams.set("code", code);
    }
    response.writeHead(302, { location: back.href }).end();
  }

  async function exchange(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = await readBody(request);
    // Basic credentials: each part form-encoded (RFC 6749 §2.3.1), then joined by `:`.
    const basic = Buffer.from((request.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString("utf8");
    const [id = "", secret = ""] = basic.split(":").map((part) => decodeURIComponent(part.replaceAll("+", " ")));
    const grant = codes.get(form.get("code") ?? "");
    codes.delete(form.get("code") ?? "");
    const verifier = form.get("code_verifier") ?? "";
    const pkce = grant && base64url(createHash("sha256").update(verifier).digest()) === grant.challenge;
    // As GitHub does: a refused exchange is 200 with an `error` in the body.
    if (id !== clientId || secret !== clientSecret) return send(response, 200, { error: "incorrect_client_credentials" });
    if (!grant || !pkce || form.get("redirect_uri") !== grant.redirectUri) return send(response, 200, { error: "bad_verification_code" });
    const token = `gho_${base64url(randomBytes(24))}`;
    tokens.set(token, grant.user);
    send(response, 200, { access_token: token, token_type: "bearer", scope: "read:user,user:email" });
  }

  function api(request: IncomingMessage, path: string, response: ServerResponse): void {
    const user = tokens.get((request.headers.authorization ?? "").replace(/^Bearer /i, ""));
    if (!user) send(response, 401, { message: "Bad credentials" });
    else if (path === "/api/v3/user") send(response, 200, { id: user.id, login: user.login, name: user.name ?? null });
    else if (path === "/api/v3/user/emails") send(response, 200, user.emails);
    else send(response, 404, { message: "Not Found" });
  }

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://github.invalid");
    if (request.method === "GET" && url.pathname === "/login/oauth/authorize") return authorize(url, response);
    if (request.method === "POST" && url.pathname === "/login/oauth/access_token") {
      exchange(request, response).catch(() => send(response, 500, { error: "server_error" }));
      return;
    }
    if (request.method === "GET" && url.pathname.startsWith("/api/v3/")) return api(request, url.pathname, response);
    send(response, 404, { message: "Not Found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return Object.assign(github, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    clientId,
    clientSecret,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  });
}
