import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS, type TestDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML } from "@domain-auth/test-support/domains";
import { parseSetCookie, type SetCookie } from "cookie";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreateAuthOptions } from "../../packages/auth-core/src/index.js";
import { afterSignIn, DEFAULT_AFTER_SIGN_IN, signInPath } from "../../packages/auth-core/src/policy/next-path.js";
import { printFigures } from "./support/figures.js";
import { type RawAnswer, rawRequest, safetyProblems } from "./support/http.js";
import { type Served, serve as serveInstance } from "./support/served.js";

/**
 * Attacks on cookie sessions (docs/api.md#cookie-sessions with §4, §5, §9, §10, §12) against real instances on SQLite
 * and PostgreSQL, their API served on node:http by `createNodeListener` and spoken to over raw sockets
 * (so Host, Origin, Cookie and the request target are exactly what an attacker writes), and their
 * page helpers (`renewSession`, `currentUser`) called as a project's proxy calls them. Every attack
 * that is refused stays here as a regression test; the ones that once got through are marked.
 */

const ACCESS = "domain-auth.token";
const REFRESH = "domain-auth.refresh-token";
const HOST_ACCESS = `__Host-${ACCESS}`;
const HOST_REFRESH = `__Host-${REFRESH}`;
const APP_URL = "https://app.example.com";
const PARTNER = "https://partner.example";
const TOKEN_TTL = 600;

type HeaderList = readonly (readonly [string, string])[];

/** The app's own origin when the instance has no APP_URL and the request's Host is `localhost`. */
const SAME: HeaderList = [["origin", "http://localhost"]];
const EVIL: HeaderList = [["origin", "https://evil.example"]];

const figures = { refused: 0, accepted: 0, retainedKiB: -1 };

/** A full garbage collection, to measure what the heap still holds. */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/** An answer read off the socket, with the cookies it sets by name. */
interface Reply extends RawAnswer {
  readonly cookies: Readonly<Record<string, SetCookie>>;
}

interface RawCall {
  readonly method?: string;
  /** The request target as written on the request line: a path, or an absolute URL. */
  readonly target: string;
  /** Sent in this order; `host: localhost` is added first unless a Host is among them. */
  readonly headers?: HeaderList;
  /** Sent as JSON (`Content-Type: application/json` unless given); a string as it is. */
  readonly body?: unknown;
}

/** Writes one HTTP/1.1 request, exactly as given, to `port` and reads its answer. */
async function send(port: number, request: RawCall): Promise<Reply> {
  const headers: [string, string][] = request.headers?.map(([name, value]) => [name, value]) ?? [];
  if (!headers.some(([name]) => name.toLowerCase() === "host")) headers.unshift(["host", "localhost"]);
  let body = "";
  if (typeof request.body === "string") body = request.body;
  else if (request.body !== undefined) {
    body = JSON.stringify(request.body);
    if (!headers.some(([name]) => name.toLowerCase() === "content-type")) headers.push(["content-type", "application/json"]);
  }
  const method = request.method ?? (request.body === undefined ? "GET" : "POST");
  const head = [`${method} ${request.target} HTTP/1.1`, ...headers.map(([name, value]) => `${name}: ${value}`)];
  head.push(`content-length: ${Buffer.byteLength(body)}`, "connection: close");
  const answer = await rawRequest(port, [`${head.join("\r\n")}\r\n\r\n${body}`]);
  const cookies: Record<string, SetCookie> = {};
  for (const line of answer.head.split("\r\n")) {
    const match = /^set-cookie:\s*(.*)$/i.exec(line);
    if (match?.[1]) {
      const cookie = parseSetCookie(match[1]);
      cookies[cookie.name] = cookie;
    }
  }
  const problems = safetyProblems(answer, { head: method === "HEAD" });
  expect(problems, `${method} ${request.target}: ${answer.text.slice(0, 300)}`).toEqual([]);
  return { ...answer, cookies };
}

/** A browser's cookie jar, as far as these tests need one. */
class Jar {
  readonly values = new Map<string, string>();
  take<T extends { cookies: Readonly<Record<string, SetCookie>> }>(answer: T): T {
    for (const cookie of Object.values(answer.cookies)) {
      if (cookie.maxAge === 0 || !cookie.value) this.values.delete(cookie.name);
      else this.values.set(cookie.name, cookie.value);
    }
    return answer;
  }
  get(name: string): string {
    const value = this.values.get(name);
    if (value === undefined) throw new Error(`the jar has no ${name}: ${[...this.values.keys()].join(", ")}`);
    return value;
  }
  header(): string {
    return [...this.values].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  /** `Cookie` with the jar's cookies, then `extra`. */
  with(extra: HeaderList = SAME): HeaderList {
    return [["cookie", this.header()], ...extra];
  }
}

/** Serves an instance of `yaml` whose access tokens live `TOKEN_TTL` seconds. */
function serve(databaseUrl: string, options: Partial<CreateAuthOptions>, yaml = BLOG_YAML): Promise<Served> {
  return serveInstance(databaseUrl, yaml, { tokenTtlSeconds: TOKEN_TTL, ...options });
}

async function unserve(served: Served | undefined): Promise<void> {
  await served?.close();
}

/** A cookie sign-in's body. */
function cookieLoginBody(email: string, password = TEST_PASSWORD): Record<string, string> {
  return { email, password, transport: "cookie" };
}

function expectForbiddenOrigin(answer: Reply, what: string): void {
  expect(answer.status, `${what}: ${answer.text}`).toBe(403);
  expect((answer.body as { code: string }).code).toBe("FORBIDDEN_ORIGIN");
  expect(answer.cookies, what).toEqual({});
  figures.refused++;
}

const ADMIN_EMAIL = "admin@example.com";
const READER_EMAIL = "reader@example.com";

describe.each(BACKENDS)("cookie attacks on $name", (backend) => {
  let database: TestDatabase | undefined;
  let clock = Date.now();
  const now = () => clock;
  const advance = (seconds: number) => {
    clock += seconds * 1000;
  };
  const errors: unknown[] = [];
  const onError = (error: unknown) => errors.push(error);
  /** No APP_URL: the request's Host is the app's origin. */
  let plain: Served;
  /** A second instance of the same app, with a renewal map of its own. */
  let second: Served;
  /** APP_URL is https: `__Host-` cookies, APP_URL's origin only. */
  let secure: Served;
  /** CORS_ORIGINS lists a partner. */
  let cors: Served;
  let adminToken: string;
  let counter = 0;
  const freshEmail = (label: string) => `${label}-${++counter}@example.com`;

  beforeAll(async () => {
    database = await backend.create();
    plain = await serve(database.url, { now, onError });
    second = await serve(database.url, { now, onError });
    secure = await serve(database.url, { now, onError, appUrl: `${APP_URL}/` });
    cors = await serve(database.url, { now, onError, corsOrigins: [PARTNER] });
    const setup = await send(plain.port, { target: "/api/user/setup", body: { email: ADMIN_EMAIL, password: TEST_PASSWORD } });
    expect(setup.status).toBe(201);
    adminToken = (setup.body as { token: string }).token;
    const reader = await send(plain.port, { target: "/api/user/register", body: { email: READER_EMAIL, password: TEST_PASSWORD } });
    expect(reader.status).toBe(201);
  });

  afterAll(async () => {
    await unserve(plain);
    await unserve(second);
    await unserve(secure);
    await unserve(cors);
    await database?.drop();
  });

  /** Registers a fresh user and signs them in with cookies on `served` (the same origin), into a new jar. */
  async function cookieUser(served: Served = plain, origin: HeaderList = SAME): Promise<{ jar: Jar; email: string; id: string }> {
    const email = freshEmail("user");
    const registered = await send(served.port, { target: "/api/user/register", body: { email, password: TEST_PASSWORD } });
    expect(registered.status).toBe(201);
    const jar = new Jar();
    const answer = jar.take(await send(served.port, { target: "/api/user/login", headers: origin, body: cookieLoginBody(email) }));
    expect(answer.status, answer.text).toBe(200);
    return { jar, email, id: (registered.body as { user: { id: string } }).user.id };
  }

  async function meOf(served: Served, headers: HeaderList): Promise<Reply> {
    return send(served.port, { target: "/api/user/me", headers });
  }

  async function expectSignedIn(served: Served, headers: HeaderList, email: string): Promise<void> {
    const me = await meOf(served, headers);
    expect(me.status, me.text).toBe(200);
    expect((me.body as { user: { email: string } }).user.email).toBe(email);
  }

  describe("a cookie sign-in from anywhere but the app's own origin", () => {
    // No APP_URL: the app's origin is http:// and the request's own Host.
    it.each<[string, HeaderList]>([
      ["another site", EVIL],
      ["the same host on another port", [["origin", "http://localhost:3000"]]],
      ["Origin: null (a sandboxed frame, a data: URL)", [["origin", "null"]]],
      ["an empty Origin", [["origin", ""]]],
      ["the origin in upper case", [["origin", "HTTP://LOCALHOST"]]],
      ["the origin with a trailing slash", [["origin", "http://localhost/"]]],
      ["the origin with a path", [["origin", "http://localhost/api"]]],
      ["the origin with the default port spelled out", [["origin", "http://localhost:80"]]],
      ["the origin with user info", [["origin", "http://user@localhost"]]],
      ["the origin without the port the Host names", [["host", "localhost:3000"], ...SAME]],
      ["user info naming the app before another host", [["origin", "http://localhost@evil.example"]]],
      ["a host that starts with the app's", [["origin", "http://localhost.evil.example"]]],
      ["a Unicode spelling of a host", [["origin", "http://lоcalhost"]]],
      [
        "the app's origin and another, as two headers",
        [
          ["origin", "http://localhost"],
          ["origin", "https://evil.example"],
        ],
      ],
      [
        "another origin and the app's, as two headers",
        [
          ["origin", "https://evil.example"],
          ["origin", "http://localhost"],
        ],
      ],
      ["the app's origin and another in one header", [["origin", "http://localhost, https://evil.example"]]],
      [
        "a Host of the attacker's after the app's (Node keeps the first Host)",
        [
          ["host", "localhost"],
          ["host", "evil.example"],
          ["origin", "http://evil.example"],
        ],
      ],
      ["no Origin and no fetch metadata (curl, a server)", []],
      ["no Origin and Sec-Fetch-Site: cross-site", [["sec-fetch-site", "cross-site"]]],
      ["no Origin and Sec-Fetch-Site: same-site (a sibling subdomain)", [["sec-fetch-site", "same-site"]]],
      ["no Origin and Sec-Fetch-Site: none", [["sec-fetch-site", "none"]]],
      ["no Origin and Sec-Fetch-Site in another case", [["sec-fetch-site", "Same-Origin"]]],
      [
        "no Origin and Sec-Fetch-Site twice",
        [
          ["sec-fetch-site", "same-origin"],
          ["sec-fetch-site", "cross-site"],
        ],
      ],
      [
        "another site's Origin beside Sec-Fetch-Site: same-origin",
        [
          ["origin", "https://evil.example"],
          ["sec-fetch-site", "same-origin"],
        ],
      ],
      ["a Referer of the app without Origin", [["referer", "http://localhost/login"]]],
    ])("refuses %s: 403 FORBIDDEN_ORIGIN, no cookie", async (what, headers) => {
      const answer = await send(plain.port, { target: "/api/user/login", headers, body: cookieLoginBody(READER_EMAIL) });
      expectForbiddenOrigin(answer, what);
    });

    it.each<[string, string, HeaderList]>([
      ["the app's host as the absolute target, another site's Origin", "http://localhost/api/user/login", EVIL],
      [
        "the attacker's host as the absolute target and Origin, the app's Host",
        "http://evil.example/api/user/login",
        [["origin", "http://evil.example"]],
      ],
    ])("refuses an absolute-form request target with %s: only Host counts", async (what, target, headers) => {
      expectForbiddenOrigin(await send(plain.port, { target, headers, body: cookieLoginBody(READER_EMAIL) }), what);
    });

    it.each<[string, HeaderList]>([
      ["the app's origin", SAME],
      ["the app's origin with the Host in upper case", [["host", "LOCALHOST"], ...SAME]],
      ["no Origin and Sec-Fetch-Site: same-origin", [["sec-fetch-site", "same-origin"]]],
    ])("accepts %s (a control)", async (_what, headers) => {
      const answer = await send(plain.port, { target: "/api/user/login", headers, body: cookieLoginBody(READER_EMAIL) });
      expect(answer.status, answer.text).toBe(200);
      expect(Object.keys(answer.cookies).sort()).toEqual([ACCESS, REFRESH].sort());
      figures.accepted++;
    });

    // APP_URL is https://app.example.com: only that origin, whatever the Host says.
    it.each<[string, HeaderList]>([
      ["the request's own Host as origin", SAME],
      ["APP_URL's host over http", [["origin", "http://app.example.com"]]],
      ["APP_URL's origin with :443", [["origin", "https://app.example.com:443"]]],
      ["APP_URL's origin in another case", [["origin", "https://APP.example.com"]]],
      ["APP_URL's origin with a trailing slash", [["origin", "https://app.example.com/"]]],
      ["a sibling subdomain", [["origin", "https://evil.example.com"]]],
      ["a Host and Origin of the attacker's that agree", [["host", "evil.example"], ...EVIL]],
      ["the CORS partner of another instance", [["origin", PARTNER]]],
    ])("behind an https APP_URL, refuses %s", async (what, headers) => {
      const answer = await send(secure.port, {
        target: "/api/user/login",
        headers: [["host", "app.example.com"], ...headers],
        body: cookieLoginBody(READER_EMAIL),
      });
      expectForbiddenOrigin(answer, what);
    });

    it("behind an https APP_URL, accepts its origin under any Host, and names the cookies __Host-", async () => {
      const answer = await send(secure.port, {
        target: "/api/user/login",
        headers: [["origin", APP_URL]],
        body: cookieLoginBody(READER_EMAIL),
      });
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.cookies).sort()).toEqual([HOST_ACCESS, HOST_REFRESH].sort());
      for (const cookie of Object.values(answer.cookies)) expect(cookie).toMatchObject({ secure: true, httpOnly: true, path: "/" });
    });

    it("checks the origin before the password: a cross-site attempt is neither a failed login nor a sign-in", async () => {
      const { email } = await cookieUser();
      for (let attempt = 0; attempt < 8; attempt++) {
        const wrong = await send(plain.port, { target: "/api/user/login", headers: EVIL, body: cookieLoginBody(email, "wrong password!") });
        expectForbiddenOrigin(wrong, "a wrong password from another site");
      }
      // Eight cross-site failures did not lock the email (5 would).
      const right = await send(plain.port, { target: "/api/user/login", headers: SAME, body: cookieLoginBody(email) });
      expect(right.status).toBe(200);
    });
  });

  describe("forged requests riding on the cookie (CSRF)", () => {
    it("cannot sign the user out, from another site or with no Origin at all", async () => {
      const { jar, email } = await cookieUser();
      for (const headers of [EVIL, [] as HeaderList, [["origin", "null"]] as HeaderList]) {
        const logout = await send(plain.port, { method: "POST", target: "/api/user/logout", headers: jar.with(headers) });
        expectForbiddenOrigin(logout, "logout");
      }
      // With only the refresh cookie (the access cookie expired and was dropped) too.
      const refreshOnly: HeaderList = [["cookie", `${REFRESH}=${jar.get(REFRESH)}`], ...EVIL];
      expectForbiddenOrigin(
        await send(plain.port, { method: "POST", target: "/api/user/logout", headers: refreshOnly }),
        "logout by refresh cookie",
      );
      await expectSignedIn(plain, jar.with(), email);
      expect((await send(plain.port, { target: "/api/user/refresh", headers: jar.with(), body: { transport: "cookie" } })).status).toBe(
        200,
      );
    });

    it("cannot spend the refresh cookie from another site", async () => {
      const { jar } = await cookieUser();
      const before = jar.get(REFRESH);
      for (const headers of [EVIL, [] as HeaderList]) {
        const refresh = await send(plain.port, { target: "/api/user/refresh", headers: jar.with(headers), body: { transport: "cookie" } });
        expectForbiddenOrigin(refresh, "refresh");
      }
      // Still the current refresh token: spending it now works (a spent one would be 401).
      const mine = jar.take(await send(plain.port, { target: "/api/user/refresh", headers: jar.with(), body: { transport: "cookie" } }));
      expect(mine.status).toBe(200);
      expect(jar.get(REFRESH)).not.toBe(before);
    });

    it("cannot change the password, revoke sessions or write records", async () => {
      const { jar, email, id } = await cookieUser();
      const patch = await send(plain.port, {
        method: "PATCH",
        target: `/api/user/${id}`,
        headers: jar.with(EVIL),
        body: { password: "taken over for good", currentPassword: TEST_PASSWORD },
      });
      expectForbiddenOrigin(patch, "own password change");
      const revoke = await send(plain.port, { method: "DELETE", target: "/api/user/sessions", headers: jar.with(EVIL) });
      expectForbiddenOrigin(revoke, "revoke other sessions");
      // A form post: text/plain needs no preflight, and the origin is checked before the content type.
      const form = await send(plain.port, {
        target: `/api/user/${id}`,
        method: "PATCH",
        headers: [...jar.with(EVIL), ["content-type", "text/plain"]],
        body: JSON.stringify({ name: "forged" }),
      });
      expectForbiddenOrigin(form, "text/plain form post");
      const login = await send(plain.port, { target: "/api/user/login", headers: SAME, body: { email, password: TEST_PASSWORD } });
      expect(login.status).toBe(200);
      expect((login.body as { user: { name: unknown } }).user.name ?? null).toBeNull();
    });

    it("cannot create a record as an administrator whose cookie it rides on", async () => {
      const jar = new Jar();
      jar.take(await send(plain.port, { target: "/api/user/login", headers: SAME, body: cookieLoginBody(ADMIN_EMAIL) }));
      const title = `forged ${freshEmail("post")}`;
      const forged = await send(plain.port, { target: "/api/post", headers: jar.with(EVIL), body: { title } });
      expectForbiddenOrigin(forged, "create a post");
      const list = await send(plain.port, { target: "/api/post?limit=100" });
      expect((list.body as { items: { title: string }[] }).items.map((post: { title: string }) => post.title)).not.toContain(title);
    });

    it.each<[string, string]>([
      ["another scheme", "Basic YWRtaW46YWRtaW4="],
      ["an empty header", ""],
      ["an unknown scheme with a token", "Token abc"],
      ["a scheme alone", "Basic"],
    ])("is not let through by an Authorization header of %s beside the cookie", async (what, value) => {
      const { jar, email } = await cookieUser();
      const logout = await send(plain.port, {
        method: "POST",
        target: "/api/user/logout",
        headers: [...jar.with(EVIL), ["authorization", value]],
      });
      expectForbiddenOrigin(logout, `logout with Authorization ${what}`);
      // Another scheme counts as no header: the same-origin cookie still works beside it (docs/api.md#tokens).
      await expectSignedIn(plain, [...jar.with(), ["authorization", value]], email);
    });

    it("lets a bearer header win over the cookie, even an empty or a bad one", async () => {
      const { jar } = await cookieUser();
      for (const value of ["Bearer", "Bearer ", "bearer not-a-token"]) {
        const me = await meOf(plain, [...jar.with(), ["authorization", value]]);
        expect(me.status, value).toBe(401);
        expect(me.head).toMatch(/www-authenticate: Bearer error="invalid_token"/i);
      }
      const logout = await send(plain.port, {
        method: "POST",
        target: "/api/user/logout",
        headers: [...jar.with(), ["authorization", "Bearer x"]],
      });
      expect(logout.status).toBe(401);
      expect(logout.cookies).toEqual({});
    });

    it("treats HEAD and OPTIONS as reads: nothing changes, no origin needed for a read", async () => {
      const { jar, email } = await cookieUser();
      const head = await send(plain.port, { method: "HEAD", target: "/api/user/me", headers: jar.with(EVIL) });
      expect(head.status).toBe(200);
      expect(head.text).toBe("");
      const options = await send(plain.port, { method: "OPTIONS", target: "/api/user/logout", headers: jar.with(EVIL) });
      expect(options.status).toBe(405);
      expect(options.cookies).toEqual({});
      const get = await send(plain.port, { method: "GET", target: "/api/user/logout", headers: jar.with(EVIL) });
      expect(get.status).toBe(405);
      expect(get.cookies).toEqual({});
      await expectSignedIn(plain, jar.with(), email);
      // A method override header changes nothing either.
      const overridden = await send(plain.port, {
        method: "POST",
        target: "/api/user/logout",
        headers: [...jar.with(EVIL), ["x-http-method-override", "GET"]],
      });
      expectForbiddenOrigin(overridden, "logout with a method override");
    });

    it("refuses a method name in lower case (which fetch leaves as it is) like its upper case", async () => {
      const { jar, id } = await cookieUser();
      const answer = await plain.auth.handle(
        new Request(`http://localhost/api/user/${id}`, {
          method: "patch",
          headers: { cookie: jar.header(), origin: "https://evil.example", host: "localhost", "content-type": "application/json" },
          body: JSON.stringify({ name: "lower-case patch" }),
        }),
      );
      expect(answer.status).toBe(403);
      expect(((await answer.json()) as { code: string }).code).toBe("FORBIDDEN_ORIGIN");
    });
  });

  describe("tossed, doubled and mangled cookies", () => {
    it("behind an https APP_URL, ignores an unprefixed cookie, even one holding a valid token", async () => {
      // A token of a real session, as a sibling subdomain or a plain-http page could plant it.
      const { jar, email } = await cookieUser();
      const planted: HeaderList = [
        ["cookie", jar.header()],
        ["host", "app.example.com"],
        ["origin", APP_URL],
      ];
      const me = await meOf(secure, planted);
      expect(me.status).toBe(401);
      expect(me.head).toMatch(/www-authenticate: Bearer\r?$/im);
      const refresh = await send(secure.port, { target: "/api/user/refresh", headers: planted, body: { transport: "cookie" } });
      expect(refresh.status).toBe(401);
      expect((refresh.body as { code: string }).code).toBe("INVALID_REFRESH_TOKEN");
      const logout = await send(secure.port, { method: "POST", target: "/api/user/logout", headers: planted });
      expect(logout.status).toBe(401);
      // Nothing was spent or revoked: the cookies still work where they were set.
      await expectSignedIn(plain, jar.with(), email);
      expect((await send(plain.port, { target: "/api/user/refresh", headers: jar.with(), body: { transport: "cookie" } })).status).toBe(
        200,
      );
    });

    it("behind an https APP_URL, a planted unprefixed session before the user's own never replaces it", async () => {
      const attacker = await cookieUser();
      const victim = await cookieUser(secure, [["origin", APP_URL]]);
      const cookie = `${ACCESS}=${attacker.jar.get(ACCESS)}; ${victim.jar.header()}`;
      await expectSignedIn(secure, [["cookie", cookie]], victim.email);
    });

    it("reads the first of two cookies of one name, and a bad first one is a 401, never anonymous or the second", async () => {
      const { jar, email } = await cookieUser();
      const token = jar.get(ACCESS);
      await expectSignedIn(plain, [["cookie", `${ACCESS}=${token}; ${ACCESS}=forged`]], email);
      for (const cookie of [`${ACCESS}=forged; ${ACCESS}=${token}`, `${ACCESS}="${token}"`, `${ACCESS}=${token}x`]) {
        const me = await meOf(plain, [["cookie", cookie]]);
        expect(me.status, cookie).toBe(401);
        expect(me.head).toMatch(/www-authenticate: Bearer error="invalid_token"/i);
      }
    });

    it("does not read a cookie whose name only looks like the session's", async () => {
      const { jar } = await cookieUser();
      const token = jar.get(ACCESS);
      for (const name of [
        "domain-auth%2Etoken",
        "Domain-Auth.Token",
        "domain-auth.token2",
        "x-domain-auth.token",
        "__host-domain-auth.token",
      ]) {
        const me = await meOf(plain, [["cookie", `${name}=${token}`]]);
        expect(me.status, name).toBe(401);
        expect(me.head, name).toMatch(/www-authenticate: Bearer\r?$/im);
      }
    });

    it("reads the cookie among many, and from Cookie headers sent apart (HTTP/2 style)", async () => {
      const { jar, email } = await cookieUser();
      const others = Array.from({ length: 300 }, (_, index) => `c${index}=${"v".repeat(20)}`).join("; ");
      await expectSignedIn(plain, [["cookie", `${others}; ${jar.header()}`]], email);
      await expectSignedIn(plain, [["cookie", others], ["cookie", jar.header()], ...SAME], email);
    });

    it("answers a Cookie header over the header limit with 431, never a 5xx", async () => {
      const { jar } = await cookieUser();
      const answer = await rawRequest(plain.port, [
        `GET /api/user/me HTTP/1.1\r\nhost: localhost\r\ncookie: pad=${"x".repeat(20_000)}; ${jar.header()}\r\nconnection: close\r\n\r\n`,
      ]);
      expect(answer.status).toBe(431);
    });
  });

  describe("CORS never lends the cookie", () => {
    it("allows no credentials in a preflight or an answer, and a listed origin is not the app's", async () => {
      const { jar } = await cookieUser(cors);
      const preflight = await send(cors.port, {
        method: "OPTIONS",
        target: "/api/user/logout",
        headers: [
          ["origin", PARTNER],
          ["access-control-request-method", "POST"],
          ["access-control-request-headers", "content-type"],
        ],
      });
      expect(preflight.status).toBe(204);
      expect(preflight.head).toMatch(new RegExp(`access-control-allow-origin: ${PARTNER}`, "i"));
      expect(preflight.head).not.toMatch(/access-control-allow-credentials/i);
      const read = await meOf(cors, jar.with([["origin", PARTNER]]));
      expect(read.status).toBe(200);
      expect(read.head).not.toMatch(/access-control-allow-credentials/i);
      for (const [target, body] of [
        ["/api/user/logout", undefined],
        ["/api/user/refresh", { transport: "cookie" }],
        ["/api/user/login", cookieLoginBody(READER_EMAIL)],
      ] as const) {
        const answer = await send(cors.port, { target, method: "POST", headers: jar.with([["origin", PARTNER]]), body });
        expectForbiddenOrigin(answer, `${target} from the CORS partner`);
        expect(answer.head).not.toMatch(/access-control-allow-credentials/i);
      }
    });
  });

  describe("a transport where none is taken", () => {
    it("register ignores it: no cookie, no token", async () => {
      const email = freshEmail("register");
      const answer = await send(plain.port, {
        target: "/api/user/register",
        headers: SAME,
        body: { email, password: TEST_PASSWORD, transport: "cookie" },
      });
      expect(answer.status).toBe(201);
      expect(Object.keys(answer.body as object)).toEqual(["user"]);
      expect(answer.cookies).toEqual({});
    });

    it("the entity endpoints refuse it as an undeclared field", async () => {
      const created = await send(plain.port, {
        target: "/api/user",
        headers: [["authorization", `Bearer ${adminToken}`], ...SAME],
        body: { email: freshEmail("created"), password: TEST_PASSWORD, transport: "cookie" },
      });
      expect(created.status).toBe(400);
      expect((created.body as { issues: unknown }).issues).toEqual([expect.objectContaining({ path: ["transport"] })]);
      expect(created.cookies).toEqual({});
    });
  });

  describe("what answers and errors give away", () => {
    it("no token in any cookie answer's body, and no Origin echoed back", async () => {
      const { jar, id } = await cookieUser();
      const secrets = [jar.get(ACCESS), jar.get(REFRESH)];
      const answers = [
        await send(plain.port, { target: "/api/user/refresh", headers: jar.with(), body: { transport: "cookie" } }),
        await send(plain.port, {
          method: "PATCH",
          target: `/api/user/${id}`,
          headers: jar.with(),
          body: { password: "a changed password", currentPassword: TEST_PASSWORD },
        }),
      ];
      for (const answer of answers) {
        expect(answer.status, answer.text).toBe(200);
        jar.take(answer);
        secrets.push(jar.get(ACCESS), jar.get(REFRESH));
        expect(answer.body).not.toHaveProperty("token");
        expect(answer.body).not.toHaveProperty("refreshToken");
        expect(answer.head).toMatch(/cache-control: no-store/i);
      }
      const refused = await send(plain.port, {
        method: "POST",
        target: "/api/user/logout",
        headers: jar.with([["origin", "https://evil.example/<script>"]]),
      });
      expectForbiddenOrigin(refused, "logout");
      expect(refused.text).not.toContain("evil.example");
      for (const answer of [...answers, refused]) for (const secret of secrets) expect(answer.text).not.toContain(secret);
    });
  });

  describe("who is signed in, for a project's own route handlers and server actions (currentUser)", () => {
    // Was a hole: currentUser cannot know the method, so it took the cookie of any request. A
    // project's own POST route handler then acted for whoever's cookie a sibling subdomain's form or
    // fetch carried (SameSite=Lax lets same-site requests carry it), the forgery the API refuses.
    it("does not take the cookie of a request another origin sent", async () => {
      const { jar, email } = await cookieUser();
      const cookie = jar.header();
      for (const origin of ["https://evil.example.com", "https://evil.example", "null", "http://localhost:3000"]) {
        expect(await plain.auth.currentUser(new Headers({ cookie, origin, host: "localhost" })), origin).toBeNull();
      }
      const secureUser = await cookieUser(secure, [["origin", APP_URL]]);
      const secureCookie = secureUser.jar.header();
      expect(await secure.auth.currentUser(new Headers({ cookie: secureCookie, origin: "https://evil.example.com" }))).toBeNull();
      expect(
        await secure.auth.currentUser(new Headers({ cookie: secureCookie, origin: "http://localhost", host: "localhost" })),
      ).toBeNull();
      // The app's own requests, and navigations (which carry no Origin), from anywhere.
      expect(await plain.auth.currentUser(new Headers({ cookie, origin: "http://localhost", host: "localhost" }))).toMatchObject({ email });
      expect(await plain.auth.currentUser(new Headers({ cookie, "sec-fetch-site": "cross-site", host: "localhost" }))).toMatchObject({
        email,
      });
      expect(await plain.auth.currentUser(new Headers({ cookie }))).toMatchObject({ email });
      expect(await secure.auth.currentUser(new Headers({ cookie: secureCookie, origin: APP_URL }))).toMatchObject({
        email: secureUser.email,
      });
    });

    it("takes a bearer header from any origin, as the API does", async () => {
      const { email } = await cookieUser();
      const login = await send(plain.port, { target: "/api/user/login", body: { email, password: TEST_PASSWORD } });
      const token = (login.body as { token: string }).token;
      const headers = new Headers({ authorization: `Bearer ${token}`, origin: "https://evil.example", host: "localhost" });
      expect(await plain.auth.currentUser(headers)).toMatchObject({ email });
    });
  });

  describe("renewing a page's session (the proxy's renewSession)", () => {
    /** A user signed in with cookies whose access cookie has just expired. */
    async function expiredUser(): Promise<{ jar: Jar; email: string }> {
      const user = await cookieUser();
      advance(TOKEN_TTL + 1);
      return user;
    }

    const refreshOf = (header: string) => new RegExp(`(?:^|; )${REFRESH.replace(".", "\\.")}=([^;]*)`).exec(header)?.[1];

    // Was a hole: the rebuilt Cookie header went through `stringifyCookie`, which throws on a name
    // it deems invalid and re-encodes values, after the refresh token had been spent. The new
    // cookies were lost, the page failed, and the next renewal replayed a spent token: signed out.
    it.each<[string, string]>([
      ["a name with a space", "my pref=1"],
      ["a name outside ASCII", "caf\u00e9=1"],
      ["a nameless cookie", "=lonely"],
      ["a JSON value", 'prefs={"theme":"dark","size":"a b"}'],
      ["a raw percent sign", "ratio=50%"],
      ["an encoded value", "next=%2Fdashboard%3Ftab%3D2"],
    ])("renews a page that also carries %s, leaving that cookie as it was sent", async (_what, other) => {
      const { jar, email } = await expiredUser();
      const sent = `${other}; ${jar.header()}; theme=dark`;
      const renewal = await plain.auth.renewSession(new Headers({ cookie: sent }));
      expect(renewal).not.toBeNull();
      const header = renewal?.cookieHeader ?? "";
      expect(header.split("; ")).toContain(other);
      expect(header.split("; ")).toContain("theme=dark");
      expect(await plain.auth.currentUser(new Headers({ cookie: header }))).toMatchObject({ email });
      jar.take({
        cookies: Object.fromEntries((renewal?.setCookies ?? []).map((line) => [parseSetCookie(line).name, parseSetCookie(line)])),
      });
      expect(refreshOf(header)).toBe(jar.get(REFRESH));
      // Later on, the session lives on with the cookies the renewal set.
      advance(30);
      const refresh = await send(plain.port, { target: "/api/user/refresh", headers: jar.with(), body: { transport: "cookie" } });
      expect(refresh.status, refresh.text).toBe(200);
    });

    it("passes on only the new session cookies when a page sent several of one name", async () => {
      const { jar } = await expiredUser();
      const stale = `${ACCESS}=stale; ${jar.header()}; ${REFRESH}=stale; ${ACCESS}=older`;
      const renewal = await plain.auth.renewSession(new Headers({ cookie: stale }));
      // The first of each name is what the server reads: `stale` access, the jar's refresh.
      expect(renewal).not.toBeNull();
      const pairs = (renewal?.cookieHeader ?? "").split("; ");
      expect(pairs.filter((pair) => pair.startsWith(`${ACCESS}=`))).toHaveLength(1);
      expect(pairs.filter((pair) => pair.startsWith(`${REFRESH}=`))).toHaveLength(1);
      expect(pairs).not.toContain(`${ACCESS}=stale`);
      expect(pairs).not.toContain(`${REFRESH}=stale`);
    });

    it("renews each of two users renewing at once once, with their own session, never the other's, and neither signed out", async () => {
      const one = await cookieUser();
      const two = await cookieUser();
      advance(TOKEN_TTL + 1);
      const sent = [one, two, one, two, one, two];
      const renewals = await Promise.all(sent.map((user) => plain.auth.renewSession(new Headers({ cookie: user.jar.header() }))));
      for (const user of [one, two]) {
        // As the API's refresh: of simultaneous renewals with one refresh token, exactly one gets tokens.
        const won = renewals.filter((renewal, index) => renewal !== null && sent[index] === user);
        expect(won, user.email).toHaveLength(1);
        expect(await plain.auth.currentUser(new Headers({ cookie: won[0]?.cookieHeader ?? "" }))).toMatchObject({ email: user.email });
      }
      expect(renewals.filter((renewal) => renewal !== null)).toHaveLength(2);
    });

    // Was a hole: a refused renewal was remembered for 10 s of real time, so a replay of a spent
    // refresh cookie after the grace met the remembered refusal instead of revoking the session.
    it("does not remember a refused renewal: a replay after the grace still revokes the session", async () => {
      const { jar } = await expiredUser();
      const spent = jar.header();
      // Another tab refreshes through the API; its cookies win.
      const winner = jar.take(await send(plain.port, { target: "/api/user/refresh", headers: jar.with(), body: { transport: "cookie" } }));
      expect(winner.status).toBe(200);
      // A page with the old cookies, within the grace: refused without revoking.
      expect(await plain.auth.renewSession(new Headers({ cookie: spent }))).toBeNull();
      advance(11);
      // The same spent cookie after the grace is a replay.
      expect(await plain.auth.renewSession(new Headers({ cookie: spent }))).toBeNull();
      const after = await send(plain.port, { target: "/api/user/refresh", headers: jar.with(), body: { transport: "cookie" } });
      expect(after.status).toBe(401);
      expect((after.body as { code: string }).code).toBe("INVALID_REFRESH_TOKEN");
    });

    // Was a hole: a renewal was shared for 10 s with any request that carried the same refresh
    // cookie, so a copy of the spent cookie presented within the grace was handed the owner's new
    // tokens, where the API's refresh answers the same token 401. Before that, shared for 10 s of real
    // time whatever the instance's clock said, it gave live tokens after the grace too.
    it("hands a renewal to no other request: a copy of the spent cookie gets no token within the grace, a replay after it revokes", async () => {
      const { jar, email } = await expiredUser();
      const spent = jar.header();
      const first = await plain.auth.renewSession(new Headers({ cookie: spent }));
      expect(first).not.toBeNull();
      advance(5);
      // Within the grace: refused, as the API refuses it, and the session lives on.
      expect(await plain.auth.renewSession(new Headers({ cookie: spent }))).toBeNull();
      const api = await send(plain.port, {
        target: "/api/user/refresh",
        headers: [["cookie", spent], ...SAME],
        body: { transport: "cookie" },
      });
      expect(api.status).toBe(401);
      expect(await plain.auth.currentUser(new Headers({ cookie: first?.cookieHeader ?? "" }))).toMatchObject({ email });
      advance(6);
      expect(await plain.auth.renewSession(new Headers({ cookie: spent }))).toBeNull();
      // The replay revoked the session: the renewal's newest cookies are dead too.
      const newest = first?.cookieHeader ?? "";
      expect(await plain.auth.currentUser(new Headers({ cookie: newest }))).toBeNull();
      const refresh = await send(plain.port, {
        target: "/api/user/refresh",
        headers: [["cookie", newest], ...SAME],
        body: { transport: "cookie" },
      });
      expect(refresh.status).toBe(401);
    });

    it("lets exactly one of two tabs refreshing at once through the API win, and neither sign the user out", async () => {
      const { jar, email } = await expiredUser();
      const [one, two] = await Promise.all(
        [plain, second].map((served) =>
          send(served.port, { target: "/api/user/refresh", headers: jar.with(), body: { transport: "cookie" } }),
        ),
      );
      const answers = [one, two] as Reply[];
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
      const loser = answers.find((answer) => answer.status === 401) as Reply;
      expect((loser.body as { code: string }).code).toBe("INVALID_REFRESH_TOKEN");
      // The loser's cookies are left alone: clearing them would drop the winner's.
      expect(loser.cookies).toEqual({});
      jar.take(answers.find((answer) => answer.status === 200) as Reply);
      await expectSignedIn(plain, jar.with(), email);
    });

    it("lets exactly one of two instances renew a page at once, and the session live on", async () => {
      const { jar, email } = await expiredUser();
      const renewals = await Promise.all([plain, second].map((served) => served.auth.renewSession(new Headers({ cookie: jar.header() }))));
      const won = renewals.filter((renewal) => renewal !== null);
      expect(won).toHaveLength(1);
      expect(await plain.auth.currentUser(new Headers({ cookie: won[0]?.cookieHeader ?? "" }))).toMatchObject({ email });
    });

    // Was a hole: signing out by the refresh cookie (the access cookie expired) revoked only the
    // session whose current token it was. One another tab's renewal had just spent named nothing, so
    // the sign-out answered 204 and the session lived on with the renewal's cookies, which that tab's
    // page then set in the same browser: still signed in after signing out.
    it("signs out with a refresh cookie another tab's renewal has just spent", async () => {
      const { jar } = await expiredUser();
      const old = jar.header();
      const renewal = await plain.auth.renewSession(new Headers({ cookie: old }));
      expect(renewal).not.toBeNull();
      const logout = await send(plain.port, { method: "POST", target: "/api/user/logout", headers: [["cookie", old], ...SAME] });
      expect(logout.status).toBe(204);
      const newest = renewal?.cookieHeader ?? "";
      expect(await plain.auth.currentUser(new Headers({ cookie: newest }))).toBeNull();
      const refresh = await send(second.port, {
        target: "/api/user/refresh",
        headers: [["cookie", newest], ...SAME],
        body: { transport: "cookie" },
      });
      expect(refresh.status).toBe(401);
    });

    it("never brings a signed-out session back, on this instance or another", async () => {
      const { jar } = await expiredUser();
      const old = jar.header();
      const logout = await send(plain.port, { method: "POST", target: "/api/user/logout", headers: jar.with() });
      expect(logout.status).toBe(204);
      for (const served of [plain, second]) expect(await served.auth.renewSession(new Headers({ cookie: old }))).toBeNull();
    });

    // Was a hole: every refresh cookie a page request presented was kept for ten seconds, refused or
    // not, by the map and by its timer; a stream of requests with large made-up cookies held them all.
    it("keeps nothing of the refresh cookies it refused", async () => {
      const count = 200;
      const size = 200 * 1024;
      collectGarbage();
      const before = process.memoryUsage().heapUsed;
      for (let index = 0; index < count; index++) {
        const cookie = `${REFRESH}=${String(index).padStart(6, "0")}${"A".repeat(size)}`;
        expect(await plain.auth.renewSession(new Headers({ cookie }))).toBeNull();
      }
      collectGarbage();
      const retained = process.memoryUsage().heapUsed - before;
      figures.retainedKiB = Math.round(retained / 1024);
      // 200 cookies of 200 KiB are 40 MiB: a tenth of that is noise, not the cookies.
      expect(retained).toBeLessThan((count * size) / 10);
    });

    it("renews nothing for a forged, huge or missing refresh cookie, and nothing while the access cookie is valid", async () => {
      for (const cookie of [`${REFRESH}=forged`, `${REFRESH}=${"A".repeat(100_000)}`, `${REFRESH}=`, `${ACCESS}=forged`, ""]) {
        expect(await plain.auth.renewSession(new Headers({ cookie })), cookie.slice(0, 40)).toBeNull();
      }
      const { jar } = await cookieUser();
      expect(await plain.auth.renewSession(new Headers({ cookie: jar.header() }))).toBeNull();
    });

    it("renews a revoked session's page for no one (its access cookie still unexpired)", async () => {
      const { jar } = await cookieUser();
      const revoke = await send(plain.port, { method: "POST", target: "/api/user/logout", headers: jar.with() });
      expect(revoke.status).toBe(204);
      const old = jar.header();
      expect(await plain.auth.renewSession(new Headers({ cookie: old }))).toBeNull();
      expect(await plain.auth.currentUser(new Headers({ cookie: old }))).toBeNull();
    });
  });

  it("was never made to fail unexpectedly by any of these requests", () => {
    expect(errors).toEqual([]);
  });
});

describe.each(BACKENDS)("setup on a domain whose user declares a `transport` field, on $name", (backend) => {
  const yaml = BLOG_YAML.replace("      name: string\n", "      name: string\n      transport: string\n");
  let database: TestDatabase | undefined;
  let served: Served;
  beforeAll(async () => {
    database = await backend.create();
    served = await serve(database.url, {}, yaml);
  });
  afterAll(async () => {
    await unserve(served);
    await database?.drop();
  });

  it("reads `transport` as the sign-in's, never as the user's field, and still checks the origin", async () => {
    const body = { email: ADMIN_EMAIL, password: TEST_PASSWORD, transport: "cookie" };
    expectForbiddenOrigin(await send(served.port, { target: "/api/user/setup", headers: EVIL, body }), "setup");
    const invalid = await send(served.port, { target: "/api/user/setup", headers: SAME, body: { ...body, transport: "pigeon" } });
    expect(invalid.status).toBe(400);
    const answer = await send(served.port, { target: "/api/user/setup", headers: SAME, body });
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.cookies).sort()).toEqual([ACCESS, REFRESH].sort());
    expect((answer.body as { user: { transport: unknown } }).user.transport ?? null).toBeNull();
    // Register has no cookie transport: there `transport` is the declared field.
    const registered = await send(served.port, {
      target: "/api/user/register",
      headers: SAME,
      body: { email: READER_EMAIL, password: TEST_PASSWORD, transport: "cookie" },
    });
    expect(registered.status).toBe(201);
    expect(registered.cookies).toEqual({});
    expect((registered.body as { user: { transport: unknown } }).user.transport).toBe("cookie");
  });
});

describe("the page after sign-in (afterSignIn, signInPath)", () => {
  it.each([
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "\\/evil.example",
    "/\\/evil.example",
    "/\t/evil.example",
    "/\\\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "/\u0000",
    "/\u007f",
    "https://evil.example",
    "https:evil.example",
    "javascript:alert(1)",
    "evil.example",
    " /profile",
    "",
    // Dot segments that resolve to a path starting with `//` (was a hole: returned as they were).
    "/..//evil.example",
    "/.//evil.example",
    "/%2e%2e//evil.example",
    "/%2E//evil.example",
    "/.%2e//evil.example",
    "/a/../..//evil.example",
    "/a/..//evil.example",
  ])("sends %j to the default page", (next) => {
    expect(afterSignIn(next)).toBe(DEFAULT_AFTER_SIGN_IN);
    expect(signInPath(next)).toBe("/login");
  });

  it.each([
    "/dashboard?tab=2",
    "/posts/1#comments",
    "/x?next=//evil.example",
    "/#//evil.example",
    "/%2F/evil.example",
    "/%5Cevil.example",
    "/\uff0fevil.example",
    "/@evil.example",
    "/%09/evil.example",
    "/\u2215evil.example",
    "/\uff3cevil.example",
  ])("keeps %j: a path of this origin", (next) => {
    expect(afterSignIn(next)).toBe(next);
    expect(new URL(afterSignIn(next), "https://app.example.com").origin).toBe("https://app.example.com");
    expect(signInPath(next)).toBe(`/login?next=${encodeURIComponent(next)}`);
  });

  it("leaves null and undefined at the default", () => {
    expect(afterSignIn(null)).toBe(DEFAULT_AFTER_SIGN_IN);
    expect(afterSignIn(undefined)).toBe(DEFAULT_AFTER_SIGN_IN);
    expect(signInPath(undefined)).toBe("/login");
  });
});

afterAll(() => {
  printFigures("cookie-attacks.test.ts", {
    "forged or cross-origin requests refused": figures.refused,
    "same-origin controls accepted": figures.accepted,
    "KiB kept after 40 MiB of refused refresh cookies": figures.retainedKiB,
  });
});
