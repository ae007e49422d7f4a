import { type SignedIn, setUpAdmin, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { createSqliteDatabase } from "@domain-auth/test-support/databases";
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiResult } from "../support/client.js";
import { useInstance } from "../support/instance.js";

const APP = "https://app.example.com";
const OTHER = "https://evil.example";
const EXPOSED = "Retry-After, WWW-Authenticate";

function preflight(method: string): Record<string, string> {
  return { origin: APP, "access-control-request-method": method, "access-control-request-headers": "authorization, content-type" };
}

function corsHeaders(response: ApiResult): Record<string, string> {
  return Object.fromEntries([...response.headers].filter(([name]) => name.startsWith("access-control-")));
}

/** A response to the listed origin: it may read it, with no credentials, and caches keep answers per origin. */
function expectAllowed(response: ApiResult): void {
  expect(response.headers.get("access-control-allow-origin")).toBe(APP);
  expect(response.headers.get("access-control-expose-headers")).toBe(EXPOSED);
  expect(response.headers.get("access-control-allow-credentials")).toBeNull();
  expect(response.headers.get("vary")).toMatch(/\bOrigin\b/);
}

describe("CORS with CORS_ORIGINS listing one origin", () => {
  const instance = useInstance(createSqliteDatabase, undefined, { corsOrigins: [APP, "http://localhost:5173"] });
  let admin: SignedIn;
  beforeAll(async () => {
    admin = await setUpAdmin(instance.api);
  });

  it("answers a preflight before routing with the path's methods, the two request headers and a ten-minute max age", async () => {
    const collection = await instance.api.call("OPTIONS", "/api/post", undefined, { headers: preflight("POST") });
    expect(collection.status).toBe(204);
    expect(collection.text).toBe("");
    expect(corsHeaders(collection)).toEqual({
      "access-control-allow-origin": APP,
      "access-control-allow-methods": "GET, POST, HEAD",
      "access-control-allow-headers": "authorization, content-type",
      "access-control-max-age": "600",
      "access-control-expose-headers": EXPOSED,
    });
    expect(collection.headers.get("vary")).toBe("Origin");
    const item = await instance.api.call("OPTIONS", "/api/post/some-id", undefined, { headers: preflight("PATCH") });
    expect(item.headers.get("access-control-allow-methods")).toBe("GET, PATCH, DELETE, HEAD");
    const login = await instance.api.call("OPTIONS", "/api/user/login", undefined, { headers: preflight("POST") });
    expect(login.headers.get("access-control-allow-methods")).toBe("POST");
    const session = await instance.api.call("OPTIONS", "/api/user/sessions/abc", undefined, { headers: preflight("DELETE") });
    expect(session.headers.get("access-control-allow-methods")).toBe("DELETE");
  });

  it("lets the listed origin read successes and errors alike, Retry-After and WWW-Authenticate included", async () => {
    const headers = { origin: APP };
    const created = await instance.api.post("/api/post", { title: "Hello" }, { token: admin.token, headers });
    expect(created.status).toBe(201);
    expectAllowed(created);
    const list = await instance.api.get("/api/post", { headers });
    expect(list.status).toBe(200);
    expectAllowed(list);
    const me = await instance.api.get("/api/user/me", { headers });
    expect(me.status).toBe(401);
    expect(me.headers.get("www-authenticate")).toBe("Bearer");
    expectAllowed(me);
    for (const [status, response] of [
      [400, await instance.api.post("/api/post", { title: 7 }, { token: admin.token, headers })],
      [404, await instance.api.get("/api/nowhere", { headers })],
      [405, await instance.api.call("PUT", "/api/post", undefined, { headers })],
      [415, await instance.api.post("/api/user/login", undefined, { headers, raw: "{}" })],
    ] as const) {
      expect(response.status).toBe(status);
      expectAllowed(response);
    }
    const head = await instance.api.call("HEAD", "/api/post", undefined, { headers });
    expect(head.status).toBe(200);
    expectAllowed(head);
  });

  it("exposes Retry-After on a throttled login to the listed origin", async () => {
    const login = () =>
      instance.api.post("/api/user/login", { email: "locked@example.com", password: "wrong password" }, { headers: { origin: APP } });
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await login()).status).toBe(401);
    const locked = await login();
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toMatch(/^\d+$/);
    expectAllowed(locked);
  });

  it("gives an origin not listed no CORS header, and its preflight is routed like any OPTIONS (405)", async () => {
    const read = await instance.api.get("/api/post", { headers: { origin: OTHER } });
    expect(read.status).toBe(200);
    expect(corsHeaders(read)).toEqual({});
    expect(read.headers.get("vary")).toBe("Origin");
    const pre = await instance.api.call("OPTIONS", "/api/post", undefined, { headers: { ...preflight("POST"), origin: OTHER } });
    expect(pre.status).toBe(405);
    expect(pre.body.code).toBe("METHOD_NOT_ALLOWED");
    expect(corsHeaders(pre)).toEqual({});
    // A near miss is not the origin: another scheme, port or a trailing slash.
    for (const origin of ["http://app.example.com", "https://app.example.com:8443", `${APP}/`, "null"]) {
      expect(corsHeaders(await instance.api.get("/api/post", { headers: { origin } }))).toEqual({});
    }
  });

  it("varies on Origin for same-origin requests too, and a preflight to an unknown path is a 404 the origin may read", async () => {
    expect((await instance.api.get("/api/post")).headers.get("vary")).toBe("Origin");
    const unknown = await instance.api.call("OPTIONS", "/api/nowhere", undefined, { headers: preflight("GET") });
    expect(unknown.status).toBe(404);
    expectAllowed(unknown);
    const login = await instance.api.post(
      "/api/user/login",
      { email: "admin@example.com", password: TEST_PASSWORD },
      { headers: { origin: APP } },
    );
    expect(login.status).toBe(200);
    expectAllowed(login);
    expect(login.headers.get("cache-control")).toBe("no-store");
  });
});

describe("CORS with CORS_ORIGINS '*'", () => {
  const instance = useInstance(createSqliteDatabase, undefined, { corsOrigins: "*" });

  it("allows any origin, answering with that origin and never with credentials", async () => {
    const pre = await instance.api.call("OPTIONS", "/api/user/me", undefined, { headers: { ...preflight("GET"), origin: OTHER } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe(OTHER);
    expect(pre.headers.get("access-control-allow-credentials")).toBeNull();
    const me = await instance.api.get("/api/user/me", { headers: { origin: OTHER } });
    expect(me.headers.get("access-control-allow-origin")).toBe(OTHER);
    expect(me.headers.get("access-control-allow-credentials")).toBeNull();
  });
});

describe("CORS without CORS_ORIGINS", () => {
  const instance = useInstance(createSqliteDatabase);

  it("changes nothing: no CORS header, no Vary, and a preflight is 405 with Allow", async () => {
    const pre = await instance.api.call("OPTIONS", "/api/post", undefined, { headers: preflight("POST") });
    expect(pre.status).toBe(405);
    expect(pre.headers.get("allow")).toBe("GET, POST, HEAD");
    expect(corsHeaders(pre)).toEqual({});
    const read = await instance.api.get("/api/post", { headers: { origin: APP } });
    expect(read.status).toBe(200);
    expect(corsHeaders(read)).toEqual({});
    expect(read.headers.get("vary")).toBeNull();
  });
});
