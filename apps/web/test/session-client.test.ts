import { apiPaths } from "@domain-auth/core/policy";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { decodeClaims, refreshDelay, SessionClient, type TokenPair } from "../lib/domain-auth/session-client";
import { coreFetch, FakeClock, memoryStorage, sampleDomainText, startCore, type TestCore } from "./support";

const ADMIN = { email: "admin@example.com", password: "correct horse battery" };

let core: TestCore;
let clock: FakeClock;
let storage: ReturnType<typeof memoryStorage>;
let fetch: ReturnType<typeof coreFetch>;
let client: SessionClient;

async function start(tokenTtlSeconds: number): Promise<void> {
  clock = new FakeClock();
  core = await startCore(await sampleDomainText(), { tokenTtlSeconds, now: clock.now });
  storage = memoryStorage();
  fetch = coreFetch(core.auth);
  client = new SessionClient({ storage, clock, fetch });
}

/** Creates the first administrator through the client and keeps the tokens, as the setup page does. */
async function signIn(): Promise<TokenPair> {
  const result = await client.call<{ token: string; refreshToken: string }>(apiPaths(core.view).setup, { method: "POST", body: ADMIN });
  if (!result.ok) throw new Error(`setup failed: ${JSON.stringify(result.error)}`);
  const pair = { token: result.data.token, refreshToken: result.data.refreshToken };
  client.store(pair);
  fetch.requests.length = 0;
  return pair;
}

/** Resolves at the next change of the client's tokens. */
function nextChange(): Promise<void> {
  return new Promise((resolve) => {
    const stop = client.subscribe(() => {
      stop();
      resolve();
    });
  });
}

afterEach(async () => {
  await core?.stop();
});

describe("refresh timing", () => {
  test("an hour's token is renewed a minute before it expires, and the new one is scheduled in turn", async () => {
    await start(3600);
    const { token } = await signIn();
    const claims = decodeClaims(token);
    expect(claims?.exp).toBe(Math.floor(clock.time / 1000) + 3600);
    const stop = client.keepAlive(core.view);

    clock.advance(3540_000 - 1);
    expect(fetch.requests).toEqual([]);
    const changed = nextChange();
    clock.advance(1);
    await changed;
    expect(fetch.requests).toEqual([`POST ${apiPaths(core.view).refresh}`]);
    const renewed = client.readToken();
    expect(renewed).not.toBe(token);
    expect(decodeClaims(renewed ?? "")?.exp).toBe(Math.floor(clock.time / 1000) + 3600);
    expect(clock.timers.map((timer) => timer.at - clock.time)).toEqual([3540_000]);

    stop();
    expect(clock.timers).toEqual([]);
  });

  test("a short token is renewed at three quarters of its life", async () => {
    await start(40);
    await signIn();
    const stop = client.keepAlive(core.view);
    expect(clock.timers.map((timer) => timer.at - clock.time)).toEqual([30_000]);
    const changed = nextChange();
    clock.advance(30_000);
    await changed;
    expect(fetch.requests).toEqual([`POST ${apiPaths(core.view).refresh}`]);
    stop();
  });

  test("refreshDelay: a quarter of the lifetime ahead, at most 60 seconds, never negative", () => {
    expect(refreshDelay({ iat: 0, exp: 3600 }, 0)).toBe(3540_000);
    expect(refreshDelay({ iat: 0, exp: 4 }, 0)).toBe(3000);
    expect(refreshDelay({ iat: 0, exp: 4 }, 10_000)).toBe(0);
  });
});

describe("a call answered 401", () => {
  beforeEach(async () => {
    await start(60);
  });

  test("refreshes once and sends the call once more with the new token", async () => {
    const { token } = await signIn();
    const stop = client.keepAlive(core.view);
    clock.time += 61_000; // past the token's expiry, without running the renewal timer
    const me = apiPaths(core.view).me;
    const result = await client.call<{ user: { email: string } }>(me, { token });
    expect(result.ok && result.data.user.email).toBe(ADMIN.email);
    expect(fetch.requests).toEqual([`GET ${me}`, `POST ${apiPaths(core.view).refresh}`, `GET ${me}`]);
    expect(client.readToken()).not.toBe(token);
    stop();
  });

  test("calls that fail together share one refresh", async () => {
    const { token } = await signIn();
    const stop = client.keepAlive(core.view);
    clock.time += 61_000;
    const me = apiPaths(core.view).me;
    const results = await Promise.all([client.call(me, { token }), client.call(me, { token })]);
    expect(results.map((result) => result.status)).toEqual([200, 200]);
    expect(fetch.requests.filter((request) => request.includes("/refresh"))).toHaveLength(1);
    stop();
  });

  test("a refused refresh ends the session: the 401 is the answer and the tab forgets its tokens", async () => {
    const { token } = await signIn();
    const stop = client.keepAlive(core.view);
    const logout = await core.auth.handle(
      new Request(new URL(apiPaths(core.view).logout, "http://localhost"), {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
      }),
    );
    expect(logout.status).toBe(204);
    const me = apiPaths(core.view).me;
    const result = await client.call(me, { token });
    expect(result.ok ? null : [result.status, result.error.code]).toEqual([401, "UNAUTHENTICATED"]);
    expect(fetch.requests).toEqual([`GET ${me}`, `POST ${apiPaths(core.view).refresh}`]);
    expect([client.readToken(), client.readRefreshToken(), client.isRefused()]).toEqual([null, null, true]);
    stop();
  });

  test("without keepAlive nothing is renewed", async () => {
    const { token } = await signIn();
    clock.time += 61_000;
    const result = await client.call(apiPaths(core.view).me, { token });
    expect(result.status).toBe(401);
    expect(fetch.requests).toHaveLength(1);
  });
});

describe("signing out", () => {
  test("calls logout, so the old tokens are refused by the server, and forgets them", async () => {
    await start(3600);
    const pair = await signIn();
    await client.signOut(core.view);
    expect(fetch.requests).toEqual([`POST ${apiPaths(core.view).logout}`]);
    expect([...storage.items.keys()]).toEqual([]);
    expect(client.isRefused()).toBe(false);
    const me = await client.request(apiPaths(core.view).me, { token: pair.token });
    expect(me.status).toBe(401);
    const refresh = await client.request(apiPaths(core.view).refresh, { method: "POST", body: { refreshToken: pair.refreshToken } });
    expect(refresh.status).toBe(401);
  });
});

describe("errors", () => {
  test("the API's error body as it came; no answer is UNAVAILABLE with status 0", async () => {
    await start(3600);
    await signIn();
    const wrong = await client.call(apiPaths(core.view).login, {
      method: "POST",
      body: { email: ADMIN.email, password: "wrong password!" },
    });
    expect(wrong.ok ? null : wrong.error.code).toBe("INVALID_CREDENTIALS");
    const offline = new SessionClient({
      storage,
      clock,
      fetch: () => Promise.reject(new TypeError("Failed to fetch")),
    });
    const failed = await offline.call(apiPaths(core.view).me);
    expect(failed.ok ? null : [failed.status, failed.error.code]).toEqual([0, "UNAVAILABLE"]);
    const proxy = new SessionClient({ storage, clock, fetch: () => Promise.resolve(new Response("<html>", { status: 502 })) });
    const bad = await proxy.call(apiPaths(core.view).me);
    expect(bad.ok ? null : [bad.status, bad.error.code, bad.error.message]).toEqual([502, "UNAVAILABLE", "The server answered 502."]);
  });
});
