import { apiPaths } from "@domain-auth/core/policy";
import { afterEach, describe, expect, test } from "vitest";
import type { FetchLike } from "../lib/domain-auth/api-request";
import { renewalTime, SessionClient, type SessionState, type SignedInAnswer } from "../lib/domain-auth/session-client";
import { type SessionLocks, tabLocks } from "../lib/domain-auth/session-sync";
import {
  type BrowserFetch,
  browserFetch,
  ChannelBus,
  CookieJar,
  FakeClock,
  ORIGIN,
  sampleDomainText,
  startCore,
  type TestCore,
} from "./support";

const ADMIN = { email: "admin@example.com", password: "correct horse battery" };
const ACCESS = "domain-auth.token";
const REFRESH = "domain-auth.refresh-token";

let core: TestCore | undefined;
afterEach(async () => {
  await core?.stop();
  core = undefined;
});

/** A test browser: one core instance, one clock, one cookie jar, the lock and channel its tabs share. */
interface Browser {
  readonly core: TestCore;
  readonly clock: FakeClock;
  readonly jar: CookieJar;
  readonly locks: SessionLocks;
  readonly bus: ChannelBus<SessionState>;
}

async function startBrowser(tokenTtlSeconds: number, edit?: (yaml: string) => string): Promise<Browser> {
  const clock = new FakeClock();
  core = await startCore(await sampleDomainText(edit), { tokenTtlSeconds, now: clock.now });
  return { core, clock, jar: new CookieJar(), locks: tabLocks(), bus: new ChannelBus() };
}

/** A tab of the browser: its own session client over the browser's cookies, locks and channel. */
function openTab(browser: Browser, options: { locks?: SessionLocks; fetch?: FetchLike } = {}) {
  const fetch = browserFetch(browser.core.auth, browser.jar);
  const client = new SessionClient({
    clock: browser.clock,
    fetch: options.fetch ?? fetch,
    locks: options.locks ?? browser.locks,
    channel: browser.bus.join(),
  });
  return { client, fetch };
}

/** Creates the first administrator with the cookie transport, as the setup page does. */
async function setUp(browser: Browser, tab: { client: SessionClient; fetch: BrowserFetch }): Promise<SignedInAnswer> {
  const result = await tab.client.request<SignedInAnswer>(apiPaths(browser.core.view).setup, {
    method: "POST",
    body: { ...ADMIN, transport: "cookie" },
  });
  if (!result.ok) throw new Error(`setup failed: ${JSON.stringify(result.error)}`);
  tab.client.signedIn(result.data);
  tab.fetch.requests.length = 0;
  return result.data;
}

/** Resolves at the next change of a client's session. */
function nextChange(client: SessionClient): Promise<SessionState | null> {
  return new Promise((resolve) => {
    const stop = client.subscribe(() => {
      stop();
      resolve(client.snapshot());
    });
  });
}

/** `me` with the given cookie header, as another program holding those values would send it. */
async function meWithCookies(browser: Browser, cookie: string): Promise<number> {
  const request = new Request(new URL(apiPaths(browser.core.view).me, ORIGIN), { headers: { cookie } });
  return (await browser.core.auth.handle(request)).status;
}

describe("signing in with cookies", () => {
  test("the answer holds no token, the cookies hold both, and the tab knows the user and when to renew", async () => {
    const browser = await startBrowser(3600);
    const tab = openTab(browser);
    const answer = await setUp(browser, tab);
    expect(Object.keys(answer).sort()).toEqual(["expiresIn", "refreshExpiresIn", "user"]);
    expect([...browser.jar.values.keys()].sort()).toEqual([REFRESH, ACCESS]);
    expect(JSON.stringify(tab.client.snapshot())).not.toContain(browser.jar.values.get(ACCESS));
    expect(tab.client.snapshot()).toEqual({
      status: "signed-in",
      user: expect.objectContaining({ email: ADMIN.email }),
      renewAt: browser.clock.time + 3540_000,
    });
  });

  test("another tab hears of the sign-in; the server's render of a tab's first page is kept only until it knows better", async () => {
    const browser = await startBrowser(3600);
    const [first, second] = [openTab(browser), openTab(browser)];
    second.client.seed({ status: "signed-out", expired: false });
    const heard = nextChange(second.client);
    await setUp(browser, first);
    expect(await heard).toMatchObject({ status: "signed-in", user: { email: ADMIN.email } });
    second.client.seed({ status: "signed-out", expired: true });
    expect(second.client.snapshot()?.status).toBe("signed-in");
  });
});

describe("renewing ahead of the expiry", () => {
  test("an hour's token is renewed a minute before it expires, and the new one is scheduled in turn", async () => {
    const browser = await startBrowser(3600);
    const tab = openTab(browser);
    await setUp(browser, tab);
    const before = browser.jar.values.get(ACCESS);
    const stop = tab.client.keepAlive(browser.core.view);

    browser.clock.advance(3540_000 - 1);
    expect(tab.fetch.requests).toEqual([]);
    const changed = nextChange(tab.client);
    browser.clock.advance(1);
    expect(await changed).toMatchObject({ status: "signed-in", renewAt: browser.clock.time + 3540_000 });
    expect(tab.fetch.requests).toEqual([`POST ${apiPaths(browser.core.view).refresh}`]);
    expect(browser.jar.values.get(ACCESS)).not.toBe(before);
    expect(browser.clock.timers.map((timer) => timer.at - browser.clock.time)).toEqual([3540_000]);

    stop();
    expect(browser.clock.timers).toEqual([]);
  });

  test("a short token is renewed at three quarters of its life", async () => {
    const browser = await startBrowser(40);
    const tab = openTab(browser);
    await setUp(browser, tab);
    const stop = tab.client.keepAlive(browser.core.view);
    expect(browser.clock.timers.map((timer) => timer.at - browser.clock.time)).toEqual([30_000]);
    const changed = nextChange(tab.client);
    browser.clock.advance(30_000);
    await changed;
    expect(tab.fetch.requests).toEqual([`POST ${apiPaths(browser.core.view).refresh}`]);
    stop();
  });

  test("of two tabs due at once, one renews: the other hears of it while it waits for the lock", async () => {
    const browser = await startBrowser(40);
    const [first, second] = [openTab(browser), openTab(browser)];
    second.client.seed({ status: "signed-out", expired: false });
    const heard = nextChange(second.client);
    await setUp(browser, first);
    await heard;
    const stops = [first.client.keepAlive(browser.core.view), second.client.keepAlive(browser.core.view)];
    const renewed = [nextChange(first.client), nextChange(second.client)];
    browser.clock.advance(30_000);
    await Promise.all(renewed);
    await browser.locks.request("domain-auth.refresh", () => Promise.resolve());
    expect([...first.fetch.requests, ...second.fetch.requests]).toEqual([`POST ${apiPaths(browser.core.view).refresh}`]);
    expect(second.client.snapshot()).toEqual(first.client.snapshot());
    for (const stop of stops) stop();
  });

  test("renewalTime: a quarter of the lifetime ahead, at most a minute", () => {
    expect(renewalTime(0, 3600_000)).toBe(3540_000);
    expect(renewalTime(0, 4000)).toBe(3000);
    expect(renewalTime(5000, 5000)).toBe(5000);
  });
});

describe("a call refused 401 while signed in", () => {
  test("is sent again under the lock, then once more after one refresh", async () => {
    const browser = await startBrowser(60);
    const tab = openTab(browser);
    await setUp(browser, tab);
    const stop = tab.client.keepAlive(browser.core.view);
    browser.clock.time += 61_000; // past the token's expiry, without running the renewal timer
    const me = apiPaths(browser.core.view).me;
    const result = await tab.client.call<{ user: { email: string } }>(me);
    expect(result.ok && result.data.user.email).toBe(ADMIN.email);
    expect(tab.fetch.requests).toEqual([`GET ${me}`, `GET ${me}`, `POST ${apiPaths(browser.core.view).refresh}`, `GET ${me}`]);
    expect(tab.client.snapshot()?.status).toBe("signed-in");
    stop();
  });

  test("calls of two tabs that fail together share one refresh: the second finds the session renewed", async () => {
    const browser = await startBrowser(60);
    const [first, second] = [openTab(browser), openTab(browser)];
    await setUp(browser, first);
    second.client.seed(first.client.snapshot() ?? { status: "signed-out", expired: false });
    const stops = [first.client.keepAlive(browser.core.view), second.client.keepAlive(browser.core.view)];
    browser.clock.time += 61_000;
    const me = apiPaths(browser.core.view).me;
    const results = await Promise.all([first.client.call(me), second.client.call(me), first.client.call(me)]);
    expect(results.map((result) => result.status)).toEqual([200, 200, 200]);
    const requests = [...first.fetch.requests, ...second.fetch.requests];
    expect(requests.filter((request) => request.endsWith("/refresh"))).toHaveLength(1);
    for (const stop of stops) stop();
  });

  test("a refused refresh ends the session in every tab: the 401 is the answer", async () => {
    const browser = await startBrowser(60);
    const [first, second] = [openTab(browser), openTab(browser)];
    await setUp(browser, first);
    second.client.seed(first.client.snapshot() ?? { status: "signed-out", expired: false });
    const stop = first.client.keepAlive(browser.core.view);
    const logout = await browser.core.auth.handle(
      new Request(new URL(apiPaths(browser.core.view).logout, ORIGIN), {
        method: "POST",
        headers: { cookie: browser.jar.header(), origin: ORIGIN, host: new URL(ORIGIN).host },
      }),
    );
    expect(logout.status).toBe(204);
    const heard = nextChange(second.client);
    const me = apiPaths(browser.core.view).me;
    const result = await first.client.call(me);
    expect(result.ok ? null : [result.status, result.error.code]).toEqual([401, "UNAUTHENTICATED"]);
    expect(first.fetch.requests).toEqual([`GET ${me}`, `GET ${me}`, `POST ${apiPaths(browser.core.view).refresh}`, `GET ${me}`]);
    expect(first.client.snapshot()).toEqual({ status: "signed-out", expired: true });
    expect(await heard).toEqual({ status: "signed-out", expired: true });
    stop();
  });

  test("a wrong password, a signed-out tab or a page that keeps nothing alive: the 401 is the answer, nothing is refreshed", async () => {
    const browser = await startBrowser(60);
    const tab = openTab(browser);
    await setUp(browser, tab);
    const me = apiPaths(browser.core.view).me;
    browser.clock.time += 61_000;
    expect((await tab.client.call(me)).status).toBe(401);
    const stop = tab.client.keepAlive(browser.core.view);
    const wrong = await tab.client.call(apiPaths(browser.core.view).login, { method: "POST", body: { ...ADMIN, password: "wrong!" } });
    expect(wrong.ok ? null : wrong.error.code).toBe("INVALID_CREDENTIALS");
    const signedOut = openTab(browser);
    signedOut.client.seed({ status: "signed-out", expired: false });
    const stopSignedOut = signedOut.client.keepAlive(browser.core.view);
    expect((await signedOut.client.call(me)).status).toBe(401);
    expect([...tab.fetch.requests, ...signedOut.fetch.requests].filter((request) => request.endsWith("/refresh"))).toEqual([]);
    stop();
    stopSignedOut();
  });
});

describe("two tabs with no lock to share (a browser without navigator.locks)", () => {
  test("the tab whose refresh loses the race goes on with the winner's cookies", async () => {
    const browser = await startBrowser(60);
    const refresh = apiPaths(browser.core.view).refresh;
    // Both refreshes leave before either is answered: the same refresh cookie, presented twice at once.
    let waiting: (() => void)[] = [];
    const fetch = browserFetch(browser.core.auth, browser.jar);
    const together: FetchLike = async (input, init) => {
      if (input === refresh) {
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          if (waiting.length === 2) for (const release of waiting) release();
        });
        waiting = [];
      }
      return fetch(input, init);
    };
    const [first, second] = [0, 1].map(() => new SessionClient({ clock: browser.clock, fetch: together, locks: tabLocks() }));
    if (!first || !second) throw new Error("two tabs");
    await setUp(browser, { client: first, fetch });
    second.seed(first.snapshot() ?? { status: "signed-out", expired: false });
    const stops = [first.keepAlive(browser.core.view), second.keepAlive(browser.core.view)];
    browser.clock.time += 61_000;
    const me = apiPaths(browser.core.view).me;
    const results = await Promise.all([first.call(me), second.call(me)]);
    expect(results.map((result) => result.status)).toEqual([200, 200]);
    expect(fetch.requests.filter((request) => request.endsWith("/refresh"))).toHaveLength(2);
    expect([first.snapshot()?.status, second.snapshot()?.status]).toEqual(["signed-in", "signed-in"]);
    for (const stop of stops) stop();
  });
});

describe("signing out", () => {
  test("calls logout: the cookies are cleared, their old values refused, and every tab shows it at once", async () => {
    const browser = await startBrowser(3600);
    const [first, second] = [openTab(browser), openTab(browser)];
    await setUp(browser, first);
    second.client.seed(first.client.snapshot() ?? { status: "signed-out", expired: false });
    const old = browser.jar.header();
    const heard = nextChange(second.client);
    await first.client.signOut(browser.core.view);
    expect(first.fetch.requests).toEqual([`POST ${apiPaths(browser.core.view).logout}`]);
    expect([...browser.jar.values]).toEqual([]);
    expect(first.client.snapshot()).toEqual({ status: "signed-out", expired: false });
    expect(await heard).toEqual({ status: "signed-out", expired: false });
    expect(await meWithCookies(browser, old)).toBe(401);
  });

  test("without logout, the cookies are only removed (the app's server action), and no API call is made", async () => {
    const browser = await startBrowser(3600, (yaml) => yaml.replace(/endpoints: \{([^}]*)\}/, "endpoints: {$1, logout: false }"));
    expect(browser.core.view.endpoints.logout).toBe(false);
    const fetch = browserFetch(browser.core.auth, browser.jar);
    let forgotten = 0;
    const client = new SessionClient({ clock: browser.clock, fetch, forget: async () => void forgotten++ });
    await setUp(browser, { client, fetch });
    await client.signOut(browser.core.view);
    expect([forgotten, fetch.requests]).toEqual([1, []]);
    expect(client.snapshot()).toEqual({ status: "signed-out", expired: false });
  });
});

describe("a bearer token", () => {
  test("goes in the Authorization header, and its 401 is the answer even while signed in: nothing is refreshed", async () => {
    const browser = await startBrowser(3600);
    const sent: (string | null)[] = [];
    const fetch = browserFetch(browser.core.auth, browser.jar);
    const recording: FetchLike = (input, init) => {
      sent.push(new Headers(init.headers).get("authorization"));
      return fetch(input, init);
    };
    const tab = openTab(browser, { fetch: recording });
    await setUp(browser, { client: tab.client, fetch });
    const stop = tab.client.keepAlive(browser.core.view);
    const refused = await tab.client.call(apiPaths(browser.core.view).me, { bearer: "mfa_not-a-session" });
    stop();
    expect(refused.ok ? null : [refused.status, refused.error.code]).toEqual([401, "UNAUTHENTICATED"]);
    expect(sent.at(-1)).toBe("Bearer mfa_not-a-session");
    expect(fetch.requests.filter((request) => request.endsWith("/refresh"))).toHaveLength(0);
  });
});

describe("errors", () => {
  test("the API's error body as it came; no answer is UNAVAILABLE with status 0", async () => {
    const browser = await startBrowser(3600);
    const tab = openTab(browser);
    const offline = new SessionClient({ clock: browser.clock, fetch: () => Promise.reject(new TypeError("Failed to fetch")) });
    const failed = await offline.call(apiPaths(browser.core.view).me);
    expect(failed.ok ? null : [failed.status, failed.error.code]).toEqual([0, "UNAVAILABLE"]);
    const proxy = new SessionClient({ clock: browser.clock, fetch: () => Promise.resolve(new Response("<html>", { status: 502 })) });
    const bad = await proxy.call(apiPaths(browser.core.view).me);
    expect(bad.ok ? null : [bad.status, bad.error.code, bad.error.message]).toEqual([502, "UNAVAILABLE", "The server answered 502."]);
    const anonymous = await tab.client.call(apiPaths(browser.core.view).me);
    expect(anonymous.ok ? null : anonymous.error.code).toBe("UNAUTHENTICATED");
  });
});
