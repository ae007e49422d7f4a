import { setUpAdmin, signUp, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { parseSetCookie } from "cookie";
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiClient, ApiResult, CallOptions } from "../support/client.js";
import { useClockedPair } from "../support/clocked.js";
import { useInstance } from "../support/instance.js";

const SAME_SITE = { origin: "http://localhost", host: "localhost" };
const CROSS_SITE = { origin: "https://evil.example", host: "localhost" };
const ACCESS = "domain-auth.token";
const REFRESH = "domain-auth.refresh-token";

/** The cookies an answer sets, by name. */
function setCookies(answer: ApiResult) {
  return Object.fromEntries(answer.headers.getSetCookie().map((line) => [parseSetCookie(line).name, parseSetCookie(line)]));
}

/** A browser's cookie jar, as far as these tests need one: what answers set, sent back as `Cookie`. */
class Jar {
  readonly values = new Map<string, string>();
  take(answer: ApiResult): ApiResult {
    for (const cookie of Object.values(setCookies(answer))) {
      if (cookie.maxAge === 0 || !cookie.value) this.values.delete(cookie.name);
      else this.values.set(cookie.name, cookie.value);
    }
    return answer;
  }
  header(): string {
    return [...this.values].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  headers(extra: Record<string, string> = SAME_SITE): Record<string, string> {
    return { cookie: this.header(), ...extra };
  }
}

async function cookieLogin(api: ApiClient, email: string, jar: Jar, headers: Record<string, string> = SAME_SITE): Promise<ApiResult> {
  return jar.take(await api.post("/api/user/login", { email, password: TEST_PASSWORD, transport: "cookie" }, { headers }));
}

const withJar = (jar: Jar, extra?: Record<string, string>): CallOptions => ({ headers: jar.headers(extra) });

describe.each(BACKENDS)("cookie sessions on $name", (backend) => {
  const pair = useClockedPair(backend.create, { tokenTtlSeconds: 600 });
  const api = () => pair.first.api;
  const other = () => pair.second.api;
  beforeAll(async () => {
    await setUpAdmin(pair.first.api);
    await signUp(pair.first.api, { email: "reader@example.com" });
  });

  describe("signing in with cookies", () => {
    it("sets both tokens as HttpOnly, SameSite=Lax, Path=/ cookies and leaves them out of the answer", async () => {
      const jar = new Jar();
      const answer = await cookieLogin(api(), "reader@example.com", jar);
      expect(answer.status).toBe(200);
      expect(answer.body).not.toHaveProperty("token");
      expect(answer.body).not.toHaveProperty("tokenType");
      expect(answer.body).not.toHaveProperty("refreshToken");
      expect(answer.body).toMatchObject({ expiresIn: 600, user: { email: "reader@example.com" } });
      expect(answer.text).not.toContain(jar.values.get(ACCESS));
      const cookies = setCookies(answer);
      expect(Object.keys(cookies).sort()).toEqual([ACCESS, REFRESH].sort());
      for (const cookie of Object.values(cookies)) {
        expect(cookie).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/" });
        expect(cookie.secure).toBeFalsy();
      }
      expect(cookies[ACCESS]?.maxAge).toBe(600);
      expect(cookies[REFRESH]?.maxAge).toBe(answer.body.refreshExpiresIn);
      expect(answer.body.refreshExpiresIn).toBeGreaterThan(600);
    });

    it("leaves a bearer sign-in as it was: tokens in the answer, no cookie", async () => {
      const answer = await api().post("/api/user/login", { email: "reader@example.com", password: TEST_PASSWORD }, { headers: SAME_SITE });
      expect(answer.status).toBe(200);
      expect(answer.body.token).toEqual(expect.any(String));
      expect(answer.headers.getSetCookie()).toEqual([]);
    });

    it.each([
      ["another site's Origin", CROSS_SITE],
      ["the same host under another port", { origin: "http://localhost:8080", host: "localhost" }],
      ["no Origin and a cross-site fetch", { "sec-fetch-site": "cross-site", host: "localhost" }],
      ["no Origin and no fetch metadata", { host: "localhost" }],
      ["a null Origin", { origin: "null", host: "localhost" }],
    ])("refuses a cookie sign-in with %s: 403 FORBIDDEN_ORIGIN, no cookie set", async (_name, headers) => {
      const jar = new Jar();
      const answer = await cookieLogin(api(), "reader@example.com", jar, headers);
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe("FORBIDDEN_ORIGIN");
      expect(answer.headers.getSetCookie()).toEqual([]);
    });

    it("accepts a same-origin fetch without Origin", async () => {
      const answer = await cookieLogin(api(), "reader@example.com", new Jar(), { "sec-fetch-site": "same-origin", host: "localhost" });
      expect(answer.status).toBe(200);
    });

    it("refuses an unknown transport with INVALID_BODY", async () => {
      const answer = await api().post("/api/user/login", { email: "reader@example.com", password: TEST_PASSWORD, transport: "header" });
      expect(answer.status).toBe(400);
      expect(answer.body.issues).toEqual([{ path: ["transport"], message: 'must be "body" or "cookie"' }]);
    });

    it("is not stopped by the access cookie of an ended session", async () => {
      const jar = new Jar();
      await cookieLogin(api(), "reader@example.com", jar);
      const dead = jar.header();
      jar.take(await api().post("/api/user/logout", undefined, withJar(jar)));
      const again = await api().post(
        "/api/user/login",
        { email: "reader@example.com", password: TEST_PASSWORD, transport: "cookie" },
        { headers: { cookie: dead, ...SAME_SITE } },
      );
      expect(again.status).toBe(200);
    });
  });

  describe("using the access cookie", () => {
    it("authenticates every endpoint a bearer token does, on every instance", async () => {
      const jar = new Jar();
      await cookieLogin(api(), "reader@example.com", jar);
      const me = await other().get("/api/user/me", withJar(jar));
      expect(me.status).toBe(200);
      expect(me.body.user.email).toBe("reader@example.com");
      expect((await other().get("/api/user/sessions", withJar(jar))).status).toBe(200);
    });

    it("lets a safe request through from anywhere, an unsafe one only from the app's origin", async () => {
      const jar = new Jar();
      await cookieLogin(api(), "admin@example.com", jar);
      expect((await api().get("/api/user/me", withJar(jar, CROSS_SITE))).status).toBe(200);
      const refused = await api().post("/api/post", { title: "from elsewhere", body: "x" }, withJar(jar, CROSS_SITE));
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("FORBIDDEN_ORIGIN");
      expect((await api().get("/api/post?limit=100", withJar(jar))).body.items.map((post: { title: string }) => post.title)).not.toContain(
        "from elsewhere",
      );
      const created = await api().post("/api/post", { title: "from here", body: "x" }, withJar(jar));
      expect(created.status).toBe(201);
      const deleted = await api().delete(`/api/post/${created.body.id}`, withJar(jar, { host: "localhost" }));
      expect(deleted.status).toBe(403);
      expect(deleted.body.code).toBe("FORBIDDEN_ORIGIN");
    });

    it("prefers the Authorization header when a request has both", async () => {
      const jar = new Jar();
      await cookieLogin(api(), "reader@example.com", jar);
      const answer = await api().get("/api/user/me", { headers: { ...jar.headers(), authorization: "Bearer not-a-token" } });
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    });

    it("leaves bearer requests from another origin alone", async () => {
      const signedIn = await api().post("/api/user/login", { email: "admin@example.com", password: TEST_PASSWORD });
      const created = await api().post("/api/post", { title: "bearer", body: "x" }, { token: signedIn.body.token, headers: CROSS_SITE });
      expect(created.status).toBe(201);
    });

    it("refuses an expired access cookie with 401", async () => {
      const jar = new Jar();
      await cookieLogin(api(), "reader@example.com", jar);
      pair.advance(601);
      const answer = await api().get("/api/user/me", withJar(jar));
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    });
  });

  describe("refresh with cookies", () => {
    it("reads the refresh cookie, sets new cookies, and spends the old one", async () => {
      const jar = new Jar();
      await cookieLogin(api(), "reader@example.com", jar);
      const spent = jar.values.get(REFRESH);
      const answer = jar.take(await other().post("/api/user/refresh", { transport: "cookie" }, withJar(jar)));
      expect(answer.status).toBe(200);
      expect(answer.body).not.toHaveProperty("refreshToken");
      expect(jar.values.get(REFRESH)).not.toBe(spent);
      expect((await api().get("/api/user/me", withJar(jar))).status).toBe(200);
      const replay = await api().post("/api/user/refresh", { refreshToken: spent });
      expect(replay.status).toBe(401);
    });

    it("is refused from another site, and without a refresh token anywhere", async () => {
      const jar = new Jar();
      await cookieLogin(api(), "reader@example.com", jar);
      const crossSite = await api().post("/api/user/refresh", { transport: "cookie" }, withJar(jar, CROSS_SITE));
      expect(crossSite.body.code).toBe("FORBIDDEN_ORIGIN");
      const none = await api().post("/api/user/refresh", { transport: "cookie" }, { headers: SAME_SITE });
      expect(none.status).toBe(401);
      expect(none.body.code).toBe("INVALID_REFRESH_TOKEN");
      const bodyless = await api().post("/api/user/refresh", {});
      expect(bodyless.status).toBe(400);
      expect(bodyless.body.issues).toEqual([{ path: ["refreshToken"], message: "is required" }]);
    });
  });

  describe("logout with cookies", () => {
    it("revokes the session, clears both cookies, and the old cookies are 401 after", async () => {
      const jar = new Jar();
      await cookieLogin(api(), "reader@example.com", jar);
      const old = jar.header();
      const answer = jar.take(await api().post("/api/user/logout", undefined, withJar(jar)));
      expect(answer.status).toBe(204);
      const cleared = setCookies(answer);
      expect(cleared[ACCESS]).toMatchObject({ value: "", maxAge: 0, path: "/", httpOnly: true });
      expect(cleared[REFRESH]).toMatchObject({ value: "", maxAge: 0, path: "/" });
      expect((await other().get("/api/user/me", { headers: { cookie: old } })).status).toBe(401);
      const refresh = await other().post("/api/user/refresh", { transport: "cookie" }, { headers: { cookie: old, ...SAME_SITE } });
      expect(refresh.body.code).toBe("INVALID_REFRESH_TOKEN");
    });

    it("clears the cookies of a session that had already ended, and ends one whose access cookie expired", async () => {
      const jar = new Jar();
      await cookieLogin(api(), "reader@example.com", jar);
      pair.advance(601);
      const expired = jar.header();
      const answer = await api().post("/api/user/logout", undefined, withJar(jar));
      expect(answer.status).toBe(204);
      expect(answer.headers.getSetCookie()).toHaveLength(2);
      const refresh = await api().post("/api/user/refresh", { transport: "cookie" }, { headers: { cookie: expired, ...SAME_SITE } });
      expect(refresh.body.code).toBe("INVALID_REFRESH_TOKEN");
      const again = await api().post("/api/user/logout", undefined, { headers: { cookie: expired, ...SAME_SITE } });
      expect(again.status).toBe(204);
      expect(again.headers.getSetCookie()).toHaveLength(2);
    });

    it("is refused from another site, leaving the session alive", async () => {
      const jar = new Jar();
      await cookieLogin(api(), "reader@example.com", jar);
      const answer = await api().post("/api/user/logout", undefined, withJar(jar, CROSS_SITE));
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe("FORBIDDEN_ORIGIN");
      expect(answer.headers.getSetCookie()).toEqual([]);
      expect((await api().get("/api/user/me", withJar(jar))).status).toBe(200);
    });
  });

  it("gives an own password change fresh cookies, not tokens in the body", async () => {
    const account = await signUp(api(), { email: "changer@example.com" });
    const jar = new Jar();
    await cookieLogin(api(), account.email, jar);
    const answer = jar.take(
      await api().patch(`/api/user/${account.id}`, { password: "a new password here", currentPassword: TEST_PASSWORD }, withJar(jar)),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).not.toHaveProperty("token");
    expect(answer.body.item.email).toBe(account.email);
    expect(Object.keys(setCookies(answer)).sort()).toEqual([ACCESS, REFRESH].sort());
    expect((await api().get("/api/user/me", withJar(jar))).status).toBe(200);
  });

  describe("the project's server code", () => {
    it("currentUser reads the cookie or the header, and is null when signed out, expired or revoked", async () => {
      const jar = new Jar();
      await cookieLogin(api(), "reader@example.com", jar);
      const auth = pair.second.auth;
      const user = await auth.currentUser(new Headers({ cookie: jar.header() }));
      expect(user).toMatchObject({ email: "reader@example.com" });
      expect(user).not.toHaveProperty("passwordHash");
      const bearer = await api().post("/api/user/login", { email: "reader@example.com", password: TEST_PASSWORD });
      expect(await auth.currentUser(new Headers({ authorization: `Bearer ${bearer.body.token}` }))).toMatchObject({ id: user?.id });
      expect(await auth.currentUser(new Headers())).toBeNull();
      expect(await auth.currentUser(new Headers({ cookie: `${ACCESS}=forged` }))).toBeNull();
      await api().post("/api/user/logout", undefined, withJar(jar));
      expect(await auth.currentUser(new Headers({ cookie: jar.header() }))).toBeNull();
    });

    it("renewSession leaves a valid access cookie alone and renews an expired one from the refresh cookie", async () => {
      const jar = new Jar();
      await cookieLogin(api(), "reader@example.com", jar);
      const auth = pair.first.auth;
      expect(await auth.renewSession(new Headers({ cookie: `theme=dark; ${jar.header()}` }))).toBeNull();
      pair.advance(601);
      const expired = `theme=dark; ${jar.header()}`;
      expect(await auth.currentUser(new Headers({ cookie: expired }))).toBeNull();
      // Two page requests of two tabs at once: a refresh token works once, as the API's refresh has
      // it, so one is renewed; the other is refused without revoking, and the renewal lives on.
      const renewals = await Promise.all([
        auth.renewSession(new Headers({ cookie: expired })),
        auth.renewSession(new Headers({ cookie: expired })),
      ]);
      const won = renewals.filter((renewal) => renewal !== null);
      expect(won).toHaveLength(1);
      expect(won[0]?.setCookies).toHaveLength(2);
      expect(won[0]?.cookieHeader).toContain("theme=dark");
      expect(await auth.currentUser(new Headers({ cookie: won[0]?.cookieHeader ?? "" }))).toMatchObject({ email: "reader@example.com" });
      expect(await auth.renewSession(new Headers({ cookie: `${REFRESH}=unknown` }))).toBeNull();
      expect(await auth.renewSession(new Headers())).toBeNull();
    });

    it("can decides as the API does", async () => {
      const auth = pair.first.auth;
      const reader = await auth.currentUser(new Headers({ cookie: new Jar().header() }));
      expect(reader).toBeNull();
      const jar = new Jar();
      await cookieLogin(api(), "reader@example.com", jar);
      const user = await auth.currentUser(new Headers({ cookie: jar.header() }));
      expect(auth.can(null, "read", "Post")).toBe(true);
      expect(auth.can(null, "create", "Post")).toBe(false);
      expect(auth.can(user, "create", "Post")).toBe(false);
      expect(auth.can(user, "update", "Post", { id: "p", author: user?.id })).toBe(true);
      expect(auth.can(user, "update", "Post", { id: "p", author: "someone-else" })).toBe(false);
      expect(auth.can(user, "delete", "Post", { id: "p", author: user?.id })).toBe(false);
      expect(auth.can({ ...(user as NonNullable<typeof user>), role: "Admin" }, "create", "Post")).toBe(true);
      expect(() => auth.can(user, "read", "Nothing")).toThrow(/no entity named 'Nothing'/);
    });
  });
});

describe.each(BACKENDS)("the first administrator signed in with cookies on $name", (backend) => {
  const instance = useInstance(backend.create);

  it("setup sets the cookies, refused first from another site", async () => {
    const body = { email: "first@example.com", password: TEST_PASSWORD, transport: "cookie" };
    const crossSite = await instance.api.post("/api/user/setup", body, { headers: CROSS_SITE });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.code).toBe("FORBIDDEN_ORIGIN");
    const answer = await instance.api.post("/api/user/setup", body, { headers: SAME_SITE });
    expect(answer.status).toBe(201);
    expect(answer.body).not.toHaveProperty("token");
    expect(answer.body.user).toMatchObject({ email: "first@example.com", role: "Admin" });
    expect(answer.body.user).not.toHaveProperty("transport");
    const jar = new Jar();
    jar.take(answer);
    expect((await instance.api.get("/api/user/me", withJar(jar))).body.user.email).toBe("first@example.com");
    const badTransport = await instance.api.post("/api/user/setup", { ...body, transport: 1 }, { headers: SAME_SITE });
    expect(badTransport.status).toBe(409);
  });
});

describe.each(BACKENDS)("cookie sessions behind an https APP_URL on $name", (backend) => {
  const instance = useInstance(backend.create, undefined, { appUrl: "https://app.example.com/" });
  beforeAll(async () => {
    await setUpAdmin(instance.api);
  });

  it("names the cookies __Host-, marks them Secure, and takes only APP_URL's origin", async () => {
    const body = { email: "admin@example.com", password: TEST_PASSWORD, transport: "cookie" };
    const byHost = await instance.api.post("/api/user/login", body, { headers: { origin: "http://localhost", host: "localhost" } });
    expect(byHost.body.code).toBe("FORBIDDEN_ORIGIN");
    const answer = await instance.api.post("/api/user/login", body, { headers: { origin: "https://app.example.com" } });
    expect(answer.status).toBe(200);
    const cookies = setCookies(answer);
    expect(Object.keys(cookies).sort()).toEqual([`__Host-${ACCESS}`, `__Host-${REFRESH}`].sort());
    for (const cookie of Object.values(cookies)) expect(cookie).toMatchObject({ secure: true, path: "/", httpOnly: true });
    const document = await instance.api.get("/api/openapi.json");
    expect(document.body.components.securitySchemes.cookie).toEqual({ type: "apiKey", in: "cookie", name: `__Host-${ACCESS}` });
  });
});

describe.each(BACKENDS)("the cookie of an ended session on $name", (backend) => {
  const instance = useInstance(backend.create);
  beforeAll(async () => {
    await setUpAdmin(instance.api);
  });

  it("does not stop the signed-out flows: register and setup's status answer as for a visitor", async () => {
    const jar = new Jar();
    await cookieLogin(instance.api, "admin@example.com", jar);
    jar.take(await instance.api.post("/api/user/logout", undefined, withJar(jar)));
    const dead = `domain-auth.token=${"x".repeat(20)}`;
    expect((await instance.api.get("/api/user/setup", { headers: { cookie: dead } })).status).toBe(200);
    const registered = await instance.api.post(
      "/api/user/register",
      { email: "newcomer@example.com", password: TEST_PASSWORD },
      { headers: { cookie: dead, ...SAME_SITE } },
    );
    expect(registered.status).toBe(201);
    // A bad bearer token is still the client's mistake, and a 401.
    const bearer = await instance.api.post("/api/user/register", { email: "other@example.com", password: TEST_PASSWORD }, { token: "bad" });
    expect(bearer.status).toBe(401);
    // Where a caller matters, the ended session's cookie is a 401, so the page renews or signs in again.
    expect((await instance.api.get("/api/user/me", { headers: { cookie: dead } })).status).toBe(401);
  });
});
