import { inspect } from "node:util";
import { ADMIN, type SignedIn, setUpAdmin, signIn, signUp, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS, type TestDatabase } from "@domain-auth/test-support/databases";
import { domainOf } from "@domain-auth/test-support/domains";
import { type GitHubUser, startGitHub, type TestGitHub } from "@domain-auth/test-support/github-server";
import { startOpenIdProvider, type TestOpenIdProvider } from "@domain-auth/test-support/openid-provider";
import { parseSetCookie } from "cookie";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { totpCodeAt } from "../../packages/auth-core/src/mfa/totp.js";
import { SoftAuthenticator } from "../../packages/auth-core/test/support/soft-authenticator.js";
import { printFigures } from "./support/figures.js";
import { rawRequest, safetyProblems } from "./support/http.js";
import {
  APP_URL,
  Browser,
  type BrowserAnswer,
  blogWith,
  COOKIE,
  callbackUri,
  EVIL_ORIGIN,
  type FakeOpenIdProvider,
  type FakePerson,
  freshAddress,
  PROVIDER_TABLE_NAMES,
  pathOf,
  SAME_ORIGIN,
  type Served,
  serve,
  sessionCookiesOf,
  startFakeOpenIdProvider,
  tableRows,
} from "./support/providers.js";

/**
 * Attacks on sign-in with providers (docs/providers.md) the way an outside review makes them: a
 * stolen or replayed callback URL, another browser, an attacker's own flow finished in the victim's
 * browser, a state moved to another provider, an expired or raced flow, `next` and `error` as open
 * redirects, e-mail tricks against existing accounts (pre-account takeover), a provider that lies or
 * signs badly, the identity endpoints from an API key, a stale session or another site, two
 * disconnections at once, the second step's cookie from another site, leaks of the code, the state,
 * the flow secret or the provider's tokens, and floods. Each attack here is refused, and stays as a
 * regression test. The attacks that got through when they were found are in providers-review.test.ts.
 *
 * Instances are served on node:http (what a browser sends is what arrives); `acme` is a real OpenID
 * Provider (oidc-provider), `rogue` an OpenID Provider of our own that can be made to lie, sign with
 * another key or hold its answers (for races without timing luck), `github` a local server answering
 * as GitHub does.
 */

const HTTPS_APP = "https://app.example.com";
const figures = { attacks: 0, refused: 0 };

/** A refusal as docs/providers.md#errors says: a 302 to the page with the code, no body, no session cookie. */
function expectRefused(answer: BrowserAnswer, location: string, what = ""): void {
  expect(answer.status, `${what} ${answer.text}`).toBe(302);
  expect(answer.location, what).toBe(location);
  expect(answer.text, what).toBe("");
  expect(sessionCookiesOf(answer), what).toEqual([]);
  figures.refused++;
}

/** Whether a Location keeps the browser on the app's own origin (a path, not `//…`, no backslash or control character, and still so once resolved). */
function staysOnSite(location: string | null): boolean {
  if (location === null || !location.startsWith("/") || location.startsWith("//")) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/[\\\u0000-\u001f\u007f]/.test(location)) return false;
  const url = new URL(location, APP_URL);
  return url.origin === APP_URL && !url.pathname.startsWith("//");
}

/** The `Set-Cookie` line of a cookie, parsed; `undefined` when the answer sets none of that name. */
function cookieSet(answer: BrowserAnswer, name: string) {
  const line = answer.setCookies.find((header) => header.startsWith(`${name}=`));
  return line === undefined ? undefined : { line, ...parseSetCookie(line) };
}

describe.each(BACKENDS)("attacks on sign-in with providers on $name", (backend) => {
  let op: TestOpenIdProvider;
  let fake: FakeOpenIdProvider;
  let github: TestGitHub;
  let database: TestDatabase;
  let app: Served;
  let clock = Date.now();
  const advance = (seconds: number) => {
    clock += seconds * 1000;
  };
  const reports: unknown[] = [];
  let counter = 0;
  const unique = (label: string) => `${label}-${++counter}`;

  beforeAll(async () => {
    op = await startOpenIdProvider({ redirectUris: [callbackUri("acme")] });
    fake = await startFakeOpenIdProvider([callbackUri("rogue")]);
    github = await startGitHub();
    database = await backend.create();
    const yaml = blogWith(
      {
        acme: `{ type: oidc, issuer: "${op.issuer}", name: Acme }`,
        rogue: `{ type: oidc, issuer: "${fake.issuer}", name: Rogue }`,
        github: `{ type: github, url: "${github.url}" }`,
      },
      "  mfa: { required: [Editor] }\n",
    );
    app = await serve(database.url, yaml, {
      now: () => clock,
      appUrl: APP_URL,
      registerLimit: 100_000,
      onError: (error) => reports.push(error),
      providers: {
        acme: { clientId: op.clientId, clientSecret: op.clientSecret },
        rogue: { clientId: fake.clientId, clientSecret: fake.clientSecret },
        github: { clientId: github.clientId, clientSecret: github.clientSecret },
      },
    });
    await setUpAdmin(app.base);
  });

  afterAll(async () => {
    printFigures(`providers-attacks.test.ts (${backend.name})`, { "attacks tried": figures.attacks, "refusals checked": figures.refused });
    await app?.close();
    await database?.drop();
    await op?.close();
    await fake?.close();
    await github?.close();
  });

  // --- helpers -------------------------------------------------------------------------------

  const browser = (address?: string) => new Browser(app.base, address);

  /** A person at `rogue` with a fresh subject and a vouched e-mail of their own, changed by `over`. */
  const person = (over: Partial<FakePerson> = {}): FakePerson => {
    const id = unique("person");
    return { sub: id, email: `${id}@people.example`, email_verified: true, name: id, ...over };
  };

  /** `GET oauth/<provider>` from `b`: the 302 to the provider. */
  async function start(b: Browser, provider: string, next?: string): Promise<BrowserAnswer> {
    const started = await b.get(`/api/user/oauth/${provider}${next === undefined ? "" : `?next=${encodeURIComponent(next)}`}`);
    expect(started.status, started.text).toBe(302);
    expect(started.location).not.toMatch(/^\/login/);
    return started;
  }

  /** Starts a `rogue` flow in `b` and has `who` sign in at the provider: the callback's path (not opened). */
  async function rogueCallback(b: Browser, who: FakePerson, next?: string): Promise<string> {
    return pathOf(fake.approve((await start(b, "rogue", next)).location ?? "", who));
  }

  /** A whole sign-in with `rogue` in `b`: the callback's answer. */
  async function rogueSignIn(b: Browser, who: FakePerson, next?: string): Promise<BrowserAnswer> {
    return b.get(await rogueCallback(b, who, next));
  }

  /** Starts an `acme` flow in `b` and signs `account` in at the real provider: the callback's path (not opened). */
  async function acmeCallback(b: Browser, account: string): Promise<string> {
    return pathOf(await op.signIn((await start(b, "acme")).location ?? "", account));
  }

  /** The administrator's token (signed in again each time: tests move the clock). */
  async function adminToken(): Promise<string> {
    return (await signIn(app.base, ADMIN)).token;
  }

  /** The user a browser or token is signed in as, or `null`. */
  async function whoIs(who: Browser | string): Promise<{ id: string; email: string; role: string } | null> {
    const answer = typeof who === "string" ? await browser().call("GET", "/api/user/me", { token: who }) : await who.get("/api/user/me");
    return answer.status === 200 ? (answer.body as { user: { id: string; email: string; role: string } }).user : null;
  }

  /** A user's identities, as `GET identities` lists them. */
  async function identitiesOf(who: Browser | string): Promise<{ id: string; provider: string; email: string | null }[]> {
    const answer =
      typeof who === "string" ? await browser().call("GET", "/api/user/identities", { token: who }) : await who.get("/api/user/identities");
    expect(answer.status, answer.text).toBe(200);
    return (answer.body as { items: { id: string; provider: string; email: string | null }[] }).items;
  }

  /** A user an administrator made with a password: their e-mail counts as verified. */
  async function verifiedUser(email: string, role = "Reader"): Promise<SignedIn> {
    const made = await browser().call("POST", "/api/user", { token: await adminToken(), body: { email, password: TEST_PASSWORD, role } });
    expect(made.status, made.text).toBe(201);
    return signIn(app.base, { email });
  }

  /** Every user, through the administrator's list. */
  async function allUsers(): Promise<{ id: string; email: string; role: string }[]> {
    const token = await adminToken();
    const users: { id: string; email: string; role: string }[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await browser().call("GET", `/api/user?limit=100&offset=${offset}`, { token });
      expect(page.status, page.text).toBe(200);
      const items = (page.body as { items: { id: string; email: string; role: string }[] }).items;
      users.push(...items);
      if (items.length < 100) return users;
    }
  }

  /** The security events, newest first (up to 100), of one type (of one user). */
  async function events(type: string, userId?: string): Promise<Record<string, unknown>[]> {
    const query = `type=${type}&limit=100${userId === undefined ? "" : `&userId=${userId}`}`;
    const answer = await browser().call("GET", `/api/user/events?${query}`, { token: await adminToken() });
    expect(answer.status, answer.text).toBe(200);
    return (answer.body as { items: Record<string, unknown>[] }).items;
  }

  /** The events of a refused attempt are written once its answer is on its way: waits (up to 5 s) for `count` of them. */
  async function eventsAtLeast(type: string, userId: string, count: number): Promise<Record<string, unknown>[]> {
    for (let tries = 0; ; tries++) {
      const found = await events(type, userId);
      if (found.length >= count || tries >= 50) return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** A browser signed in with `rogue` as a new provider-only user (no password): the browser and who it is. */
  async function providerUser(over: Partial<FakePerson> = {}) {
    const who = person(over);
    const b = browser();
    const answer = await rogueSignIn(b, who);
    expect(answer.location, answer.text).toBe("/profile");
    const user = await whoIs(b);
    if (!user) throw new Error("the provider sign-in started no session");
    return { browser: b, person: who, user };
  }

  /** Links `who` at `rogue` to the user signed in in `b` (a fresh cookie session): the callback's answer. */
  async function linkFromProfile(b: Browser, who: FakePerson): Promise<BrowserAnswer> {
    const started = await b.call("POST", "/api/user/identities/rogue", { headers: SAME_ORIGIN });
    expect(started.status, started.text).toBe(200);
    return b.get(pathOf(fake.approve((started.body as { url: string }).url, who)));
  }

  const flowCount = async () => (await tableRows(database.url, PROVIDER_TABLE_NAMES.flows)).length;

  // --- login CSRF and session fixation -------------------------------------------------------

  describe("login CSRF and session fixation (docs/providers.md#the-flow)", () => {
    it("an attacker's own callback opened in the victim's browser signs nobody in, and leaves the victim's session as it was", async () => {
      op.setAccount("mallory", { email: "mallory@evil.example", email_verified: true });
      const attacker = browser();
      const callback = await acmeCallback(attacker, "mallory");
      figures.attacks += 3;

      // A victim without any flow cookie.
      const bare = browser();
      expectRefused(await bare.get(callback), "/login?error=OAUTH_STATE", "no flow cookie");
      expect(bare.signedIn).toBe(false);

      // A victim signed in as themselves, with a flow of their own under way.
      const victim = await verifiedUser(`${unique("csrf-victim")}@example.com`);
      const signedIn = browser();
      const login = await signedIn.call("POST", "/api/user/login", {
        body: { email: victim.email, password: TEST_PASSWORD, transport: "cookie" },
        headers: SAME_ORIGIN,
      });
      expect(login.status, login.text).toBe(200);
      await start(signedIn, "acme");
      const before = signedIn.cookies.get(COOKIE.access);
      expectRefused(await signedIn.get(callback), "/login?error=OAUTH_STATE", "the victim's own flow cookie");
      expect(signedIn.cookies.get(COOKIE.access)).toBe(before);
      expect((await whoIs(signedIn))?.id).toBe(victim.id);

      // The attacker's flow was not spent by those: it is still theirs to finish, in their browser only.
      const own = await attacker.get(callback);
      expect(own.location).toBe("/profile");
      expect((await whoIs(attacker))?.email).toBe("mallory@evil.example");
    });

    it("a flow cookie of the attacker's choosing (a guess, empty, huge, another flow's) opens nobody's flow and spoils none", async () => {
      const victim = browser();
      const who = person();
      const callback = await rogueCallback(victim, who);
      const other = browser();
      await start(other, "rogue");
      const values = ["", "a", "x".repeat(4000), other.cookies.get(COOKIE.flow) ?? "missing", `${victim.cookies.get(COOKIE.flow)}x`];
      for (const value of values) {
        figures.attacks++;
        const attacker = browser();
        attacker.cookies.set(COOKIE.flow, value);
        expectRefused(await attacker.get(callback), "/login?error=OAUTH_STATE", `flow cookie ${value.slice(0, 20)}`);
        expect(attacker.signedIn).toBe(false);
      }
      expect(fake.exchanges.filter((code) => callback.includes(code))).toEqual([]);
      const own = await victim.get(callback);
      expect(own.location).toBe("/profile");
      expect((await whoIs(victim))?.email).toBe(who.email);
    });

    it("a provider sign-in hands out new session cookies: a session cookie planted before is not kept (no fixation)", async () => {
      const planted = await verifiedUser(`${unique("planted")}@example.com`);
      const b = browser();
      // Whatever session cookie the browser held (an attacker's, say), the sign-in replaces it.
      b.cookies.set(COOKIE.access, planted.token);
      const who = person();
      const answer = await rogueSignIn(b, who);
      expect(answer.location).toBe("/profile");
      expect(cookieSet(answer, COOKIE.access)?.value).not.toBe(planted.token);
      expect((await whoIs(b))?.email).toBe(who.email);
    });
  });

  // --- the state -----------------------------------------------------------------------------

  describe("the state: single use, one provider, ten minutes, one winner", () => {
    it("a callback replayed with the flow cookie put back signs in once", async () => {
      const b = browser();
      const callback = await rogueCallback(b, person());
      const binding = b.cookies.get(COOKIE.flow) ?? "";
      expect((await b.get(callback)).location).toBe("/profile");
      figures.attacks++;
      const replay = browser();
      replay.cookies.set(COOKIE.flow, binding);
      expectRefused(await replay.get(callback), "/login?error=OAUTH_STATE");
      expect(replay.signedIn).toBe(false);
    });

    it("a state started at one provider is refused at another, and its code never goes to that provider", async () => {
      op.setAccount("crossing", { email: "crossing@example.com", email_verified: true });
      const exchangesBefore = fake.exchanges.length;
      figures.attacks += 3;
      // Started at acme, brought back to rogue's callback.
      const a = browser();
      const fromAcme = await acmeCallback(a, "crossing");
      expectRefused(await a.get(fromAcme.replace("/oauth/acme/", "/oauth/rogue/")), "/login?error=OAUTH_STATE", "acme → rogue");
      expect(fake.exchanges.length).toBe(exchangesBefore);
      // Started at rogue, brought back to acme's and github's.
      for (const other of ["acme", "github"]) {
        const b = browser();
        const fromRogue = await rogueCallback(b, person());
        expectRefused(await b.get(fromRogue.replace("/oauth/rogue/", `/oauth/${other}/`)), "/login?error=OAUTH_STATE", `rogue → ${other}`);
        expect(b.signedIn).toBe(false);
      }
      expect(fake.exchanges.length).toBe(exchangesBefore);
    });

    it("a flow older than ten minutes signs nobody in, and its code is not exchanged", async () => {
      const late = browser();
      const callback = await rogueCallback(late, person());
      advance(601);
      figures.attacks++;
      expectRefused(await late.get(callback), "/login?error=OAUTH_STATE");
      expect(fake.exchanges.filter((code) => callback.includes(code))).toEqual([]);
      // Within the ten minutes, the same steps sign in.
      const inTime = browser();
      const fresh = await rogueCallback(inTime, person());
      advance(590);
      expect((await inTime.get(fresh)).location).toBe("/profile");
    });

    it("callbacks of one flow at once: exactly one signs in, and the code goes to the provider once", async () => {
      for (let round = 0; round < 4; round++) {
        const b = browser();
        const callback = await rogueCallback(b, person());
        const code = new URL(callback, APP_URL).searchParams.get("code");
        figures.attacks += 6;
        const answers = await Promise.all(Array.from({ length: 6 }, () => b.get(callback)));
        const winners = answers.filter((answer) => answer.location === "/profile");
        expect(winners, answers.map((answer) => answer.location).join(", ")).toHaveLength(1);
        expect(sessionCookiesOf(winners[0] as BrowserAnswer)).not.toEqual([]);
        for (const answer of answers.filter((each) => each !== winners[0])) expectRefused(answer, "/login?error=OAUTH_STATE");
        expect(fake.exchanges.filter((each) => each === code)).toHaveLength(1);
      }
    });

    it("callbacks of one link flow at once: the account is linked once", async () => {
      const { browser: b, user } = await providerUser();
      const started = await b.call("POST", "/api/user/identities/rogue", { headers: SAME_ORIGIN });
      const callback = pathOf(fake.approve((started.body as { url: string }).url, person()));
      const answers = await Promise.all(Array.from({ length: 5 }, () => b.get(callback)));
      expect(answers.filter((answer) => answer.location === "/profile?connected=rogue")).toHaveLength(1);
      // The losers' state opens no flow, so nothing says it was a link's: the sign-in page says it.
      for (const answer of answers.filter((each) => each.location !== "/profile?connected=rogue"))
        expectRefused(answer, "/login?error=OAUTH_STATE");
      expect(await identitiesOf(b)).toHaveLength(2);
      const linked = await events("identity.linked", user.id);
      expect(linked).toHaveLength(2); // the sign-up's, and this one
    });

    it("two first sign-ins of one new person at once (two tabs) make one user, and every answer is a 302", async () => {
      for (let round = 0; round < 3; round++) {
        const who = person();
        const tabs = [browser(), browser()];
        const callbacks = await Promise.all(tabs.map((tab) => rogueCallback(tab, who)));
        fake.hold(2); // both token answers go out together: both callbacks decide at the same moment
        const answers = await Promise.all(tabs.map((tab, index) => tab.get(callbacks[index] as string)));
        for (const answer of answers) {
          expect(answer.status, answer.text).toBe(302);
          expect(answer.text).toBe("");
          expect(answer.location === "/profile" || answer.location === "/login?error=OAUTH_FAILED", answer.location ?? "").toBe(true);
          if (answer.location !== "/profile") expect(sessionCookiesOf(answer)).toEqual([]);
        }
        const users = (await allUsers()).filter((user) => user.email === who.email);
        expect(users).toHaveLength(1);
        for (const tab of tabs.filter((each) => each.signedIn)) expect((await whoIs(tab))?.id).toBe(users[0]?.id);
        expect(tabs.some((tab) => tab.signedIn)).toBe(true);
      }
    });

    it("two users linking the same provider account at once: one of them gets it, nobody is signed in", async () => {
      for (let round = 0; round < 3; round++) {
        const who = person();
        const first = await providerUser();
        const second = await providerUser();
        const urls = await Promise.all(
          [first, second].map(async ({ browser: b }) => {
            const started = await b.call("POST", "/api/user/identities/rogue", { headers: SAME_ORIGIN });
            return pathOf(fake.approve((started.body as { url: string }).url, who));
          }),
        );
        const before = [first.browser.cookies.get(COOKIE.access), second.browser.cookies.get(COOKIE.access)];
        fake.hold(2);
        const answers = await Promise.all([first.browser.get(urls[0] as string), second.browser.get(urls[1] as string)]);
        const locations = answers.map((answer) => answer.location).sort();
        expect(
          locations.filter((location) => location === "/profile?connected=rogue"),
          locations.join(", "),
        ).toHaveLength(1);
        for (const answer of answers) {
          expect(answer.status).toBe(302);
          expect(sessionCookiesOf(answer)).toEqual([]);
          expect(["/profile?connected=rogue", "/profile?error=IDENTITY_TAKEN", "/profile?error=OAUTH_FAILED"]).toContain(answer.location);
        }
        expect([first.browser.cookies.get(COOKIE.access), second.browser.cookies.get(COOKIE.access)]).toEqual(before);
        const held = [(await identitiesOf(first.browser)).length, (await identitiesOf(second.browser)).length].sort();
        expect(held).toEqual([1, 2]);
      }
    });
  });

  // --- open redirects ------------------------------------------------------------------------

  describe("open redirects through next and the error path", () => {
    const NEXTS = [
      "//evil.example",
      "///evil.example",
      "////evil.example/x",
      "/\\evil.example",
      "\\\\evil.example",
      "\\/evil.example",
      "/\\/evil.example",
      "%2F%2Fevil.example",
      "/%2F%2Fevil.example",
      "%5C%5Cevil.example",
      "/..//evil.example",
      "/../..//evil.example",
      "/%2e%2e//evil.example",
      "/%2E%2E/%2E%2E//evil.example",
      "/.//evil.example",
      "/./\\evil.example",
      "/a/../..//evil.example",
      "https://evil.example",
      "HTTPS://evil.example",
      "http:evil.example",
      "http:/evil.example",
      "javascript:alert(1)",
      "JaVaScRiPt:alert(document.cookie)",
      "data:text/html,<script>alert(1)</script>",
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r\nLocation: https://evil.example",
      "/\r\nSet-Cookie: domain-auth.token=planted",
      "\u0000//evil.example",
      " //evil.example",
      "/ /evil.example",
      "//evil.example@localhost:3000",
      "/@evil.example",
      "ftp://evil.example",
      "",
    ];

    it("a next of any form sends the browser to a path of this site, never elsewhere", async () => {
      const who = person();
      await rogueSignIn(browser(), who); // signed up once: the attacks below are sign-ins (rule 2)
      for (const next of NEXTS) {
        figures.attacks++;
        const b = browser();
        const answer = await rogueSignIn(b, who, next);
        expect(answer.status, `next ${JSON.stringify(next)}: ${answer.text}`).toBe(302);
        expect(staysOnSite(answer.location), `next ${JSON.stringify(next)} → ${answer.location}`).toBe(true);
        expect(b.signedIn).toBe(true);
        expect(answer.headers.get("set-cookie") ?? "").not.toContain("planted");
      }
    });

    it("a provider's error, description or URI never reaches the Location; a link's error goes back to the profile", async () => {
      const cases: [Record<string, string>, string][] = [
        [{ error: "access_denied", error_description: "<script>x</script>", error_uri: "https://evil.example" }, "OAUTH_DENIED"],
        [{ error: "https://evil.example/", error_description: "//evil.example" }, "OAUTH_FAILED"],
        [{ error: "\r\nLocation: //evil.example" }, "OAUTH_FAILED"],
        [{ error: "ACCOUNT_EXISTS" }, "OAUTH_FAILED"],
        [{ error: "" }, "OAUTH_FAILED"],
      ];
      for (const [params, code] of cases) {
        figures.attacks++;
        const b = browser();
        const state = new URL((await start(b, "rogue")).location ?? "").searchParams.get("state") ?? "";
        const query = new URLSearchParams({ state, ...params });
        expectRefused(await b.get(`/api/user/oauth/rogue/callback?${query}`), `/login?error=${code}`, JSON.stringify(params));
      }
      const { browser: b } = await providerUser();
      const started = await b.call("POST", "/api/user/identities/rogue", { headers: SAME_ORIGIN });
      const denied = await b.get(pathOf(fake.deny((started.body as { url: string }).url)));
      expectRefused(denied, "/profile?error=OAUTH_DENIED");
      // An error with a state that is no flow: the state is checked first.
      const stranger = browser();
      expectRefused(await stranger.get("/api/user/oauth/rogue/callback?state=nothing&error=access_denied"), "/login?error=OAUTH_STATE");
    });
  });

  // --- pre-account takeover and e-mail linking -------------------------------------------------

  describe("existing accounts and e-mail (docs/providers.md#who-signs-in)", () => {
    it("an e-mail the provider does not vouch for (false, a string, a number, absent) never reaches an existing account", async () => {
      const victim = await verifiedUser(`${unique("unvouched")}@example.com`);
      const failedBefore = (await events("login.failed", victim.id)).length;
      const claims: unknown[] = [false, "true", "TRUE", 1, "1", "yes", null, {}, [true]];
      for (const email_verified of claims) {
        figures.attacks++;
        const b = browser();
        const answer = await rogueSignIn(b, person({ email: victim.email, email_verified }));
        expectRefused(answer, "/login?error=ACCOUNT_EXISTS", `email_verified ${JSON.stringify(email_verified)}`);
      }
      const absent = browser();
      const { email_verified: _dropped, ...noClaim } = person({ email: victim.email });
      expectRefused(await rogueSignIn(absent, noClaim), "/login?error=ACCOUNT_EXISTS", "no email_verified");
      expect(await identitiesOf(victim.token)).toEqual([]);
      const failed = await eventsAtLeast("login.failed", victim.id, failedBefore + claims.length + 1);
      expect(failed.length - failedBefore).toBe(claims.length + 1);
      expect(failed[0]).toMatchObject({ detail: { method: "provider", provider: "rogue", reason: "account_exists" } });
    });

    it("a vouched e-mail never reaches an account whose own address is unverified: the squatter's password does not survive into it", async () => {
      const email = `${unique("squatted")}@example.com`;
      const squatter = await signUp(app.base, { email, password: "the squatter's own password" });
      for (const spelling of [email, email.toUpperCase(), ` ${email} `]) {
        figures.attacks++;
        const owner = browser();
        expectRefused(await rogueSignIn(owner, person({ email: spelling })), "/login?error=ACCOUNT_EXISTS", spelling);
      }
      expect(await identitiesOf(squatter.token)).toEqual([]);
      // The account is exactly as it was: the squatter's password is still the only way into it.
      await signIn(app.base, { email, password: "the squatter's own password" });
    });

    it("addresses that only look like the victim's, vouched for, never reach the victim's account", async () => {
      const local = unique("lookalike");
      const victim = await verifiedUser(`${local}@example.com`);
      const spellings = [
        `${local}@example.com.`,
        `${local}+x@example.com`,
        `${local}@example.com.evil.example`,
        `${local}@examp1e.com`,
        `${local}@sub.example.com`,
        `"${local}"@example.com`,
        `${local}.@example.com`,
        `${local}@example.co`,
        `x${local}@example.com`,
        `${local}@example.com@evil.example`,
        `${local}%example.com@evil.example`,
      ];
      for (const email of spellings) {
        figures.attacks++;
        const b = browser();
        const answer = await rogueSignIn(b, person({ email }));
        expect(answer.status, email).toBe(302);
        if (b.signedIn) expect((await whoIs(b))?.id, email).not.toBe(victim.id);
      }
      expect(await identitiesOf(victim.token)).toEqual([]);
      // The control: the victim's own address, in another case (the same mailbox), does reach it.
      const owner = browser();
      expect((await rogueSignIn(owner, person({ email: victim.email.toUpperCase() }))).location).toBe("/profile");
      expect((await whoIs(owner))?.id).toBe(victim.id);
    });

    it("a provider's claims give no role: a sign-up gets the default role whatever the ID token or user info says", async () => {
      const extra = { role: "Admin", roles: ["Admin"], groups: ["Admin"], is_admin: true, "https://example.com/role": "Admin" };
      for (const who of [person({ extra }), person({ extra, emailOnlyInUserInfo: true })]) {
        figures.attacks++;
        const b = browser();
        expect((await rogueSignIn(b, who)).location).toBe("/profile");
        expect((await whoIs(b))?.role).toBe("Reader");
      }
    });

    // An ID token signed with a key the issuer does not publish: see providers-review.test.ts.
    it("an ID token that fails a check (nonce, audience, issuer, expiry, alg none, missing, user info of another subject) signs nobody in and makes nobody", async () => {
      const victim = await verifiedUser(`${unique("idtoken")}@example.com`);
      const now = Math.floor(Date.now() / 1000);
      const broken: [string, Partial<FakePerson>][] = [
        ["another nonce", { idToken: { nonce: "an-attacker-nonce" } }],
        ["no nonce", { idToken: { nonce: undefined } }],
        ["another audience", { idToken: { aud: "another-client" } }],
        ["audiences without ours", { idToken: { aud: ["another-client", "a-third"] } }],
        ["another issuer", { idToken: { iss: "https://evil.example" } }],
        ["expired", { idToken: { exp: now - 3600, iat: now - 7200 } }],
        ["alg none", { unsigned: true }],
        ["no ID token", { noIdToken: true }],
        [
          "user info of another subject",
          { emailOnlyInUserInfo: true, userInfo: { sub: "someone-else", email: victim.email, email_verified: true } },
        ],
      ];
      const usersBefore = (await allUsers()).length;
      for (const [what, tamper] of broken) {
        figures.attacks++;
        const b = browser();
        const answer = await rogueSignIn(b, person({ email: victim.email, ...tamper }));
        expectRefused(answer, "/login?error=OAUTH_FAILED", what);
      }
      expect((await allUsers()).length).toBe(usersBefore);
      expect(await identitiesOf(victim.token)).toEqual([]);
    });

    it("GitHub: only the primary verified address counts; a verified secondary address or an unverified primary one reaches nobody", async () => {
      const victim = await verifiedUser(`${unique("octo-victim")}@example.com`);
      const signInWithGitHub = async (user: GitHubUser) => {
        github.nextUser = user;
        const b = browser();
        const started = await start(b, "github");
        const back = await fetch(started.location ?? "", { redirect: "manual" });
        return { b, answer: await b.get(pathOf(back.headers.get("location") ?? "")) };
      };
      figures.attacks += 2;
      const secondary = await signInWithGitHub({
        id: 9_000_001,
        login: "mallory",
        emails: [
          { email: victim.email, primary: false, verified: true },
          { email: "mallory.unverified@evil.example", primary: true, verified: false },
        ],
      });
      expectRefused(secondary.answer, "/login?error=EMAIL_NOT_VERIFIED");
      const unverified = await signInWithGitHub({
        id: 9_000_002,
        login: "mallory2",
        emails: [{ email: victim.email, primary: true, verified: false }],
      });
      expectRefused(unverified.answer, "/login?error=ACCOUNT_EXISTS");
      expect(await identitiesOf(victim.token)).toEqual([]);
    });

    it("Microsoft's e-mail is never vouched for (its claim is not verified)", () => {
      const model = domainOf(blogWith({ work: "{ type: microsoft, tenant: contoso.onmicrosoft.com }" }));
      expect(model.auth?.providers.map((provider) => [provider.id, provider.vouchesForEmail])).toEqual([["work", false]]);
    });
  });

  // --- the identity endpoints ----------------------------------------------------------------

  describe("the identity endpoints", () => {
    it("an API key never lists, links or unlinks accounts: 403 FORBIDDEN, and no flow is stored", async () => {
      const owner = await signUp(app.base, { email: `${unique("keyed")}@example.com` });
      const made = await browser().call("POST", "/api/user/api-keys", { token: owner.token, body: { name: "export" } });
      expect(made.status, made.text).toBe(201);
      const key = String((made.body as { key: string }).key);
      const flows = await flowCount();
      for (const [method, path] of [
        ["GET", "/api/user/identities"],
        ["POST", "/api/user/identities/rogue"],
        ["DELETE", "/api/user/identities/anything"],
      ] as const) {
        figures.attacks++;
        const answer = await browser().call(method, path, { token: key });
        expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(403);
        expect((answer.body as { code: string }).code).toBe("FORBIDDEN");
        expect(answer.setCookies).toEqual([]);
      }
      expect(await flowCount()).toBe(flows);
    });

    it("linking needs a recent sign-in: a stale session is 403 REAUTHENTICATION_REQUIRED and starts no flow; the password renews it", async () => {
      const owner = await signUp(app.base, { email: `${unique("stale")}@example.com` });
      const { browser: providerOnly } = await providerUser();
      advance(601);
      const flows = await flowCount();
      figures.attacks += 4;
      const stale = await browser().call("POST", "/api/user/identities/rogue", { token: owner.token });
      expect(stale.status, stale.text).toBe(403);
      expect((stale.body as { code: string }).code).toBe("REAUTHENTICATION_REQUIRED");
      expect(stale.setCookies).toEqual([]);
      const wrong = await browser().call("POST", "/api/user/identities/rogue", { token: owner.token, body: { currentPassword: "not it" } });
      expect(wrong.status).toBe(403);
      // A provider-only user has no password to give: any is refused, and a new sign-in is the way.
      for (const currentPassword of ["", "anything"]) {
        const answer = await providerOnly.call("POST", "/api/user/identities/rogue", { headers: SAME_ORIGIN, body: { currentPassword } });
        expect(answer.status, answer.text).toBe(403);
        expect(answer.setCookies).toEqual([]);
      }
      expect(await flowCount()).toBe(flows);
      const renewed = await browser().call("POST", "/api/user/identities/rogue", {
        token: owner.token,
        body: { currentPassword: TEST_PASSWORD },
      });
      expect(renewed.status, renewed.text).toBe(200);
    });

    it("linking or unlinking with the session cookie from another site is 403 FORBIDDEN_ORIGIN and sets no cookie", async () => {
      const { browser: b } = await providerUser();
      const [identity] = await identitiesOf(b);
      const flows = await flowCount();
      const foreign: Record<string, string>[] = [
        EVIL_ORIGIN,
        { origin: "null" },
        { origin: `${APP_URL}.evil.example` },
        { origin: "http://localhost:3001" },
        { origin: HTTPS_APP },
        { "sec-fetch-site": "cross-site" },
        { "sec-fetch-site": "same-site" },
        {},
      ];
      for (const headers of foreign) {
        figures.attacks += 2;
        const link = await b.call("POST", "/api/user/identities/rogue", { headers });
        expect(link.status, `${JSON.stringify(headers)}: ${link.text}`).toBe(403);
        expect((link.body as { code: string }).code).toBe("FORBIDDEN_ORIGIN");
        expect(link.setCookies).toEqual([]);
        const unlink = await b.call("DELETE", `/api/user/identities/${identity?.id}`, { headers });
        expect(unlink.status).toBe(403);
      }
      expect(await flowCount()).toBe(flows);
      expect(await identitiesOf(b)).toHaveLength(1);
      expect((await b.call("POST", "/api/user/identities/rogue", { headers: SAME_ORIGIN })).status).toBe(200);
    });

    it("a link flow finished in another browser links nothing to anyone (link CSRF both ways)", async () => {
      const attacker = await providerUser();
      const victim = await providerUser();
      // The attacker's link URL, signed in at the provider by the victim, comes back in the victim's browser.
      const started = await attacker.browser.call("POST", "/api/user/identities/rogue", { headers: SAME_ORIGIN });
      const url = (started.body as { url: string }).url;
      figures.attacks += 2;
      expectRefused(await victim.browser.get(pathOf(fake.approve(url, person()))), "/login?error=OAUTH_STATE");
      // The attacker's own account at the provider, the callback opened by the signed-in victim.
      const again = await attacker.browser.call("POST", "/api/user/identities/rogue", { headers: SAME_ORIGIN });
      expectRefused(
        await victim.browser.get(pathOf(fake.approve((again.body as { url: string }).url, person()))),
        "/login?error=OAUTH_STATE",
      );
      expect(await identitiesOf(attacker.browser)).toHaveLength(1);
      expect(await identitiesOf(victim.browser)).toHaveLength(1);
      expect((await whoIs(victim.browser))?.id).toBe(victim.user.id);
    });

    it("another user's identity cannot be unlinked (404), nor an id of any form", async () => {
      const owner = await providerUser();
      const other = await providerUser();
      await linkFromProfile(other.browser, person()); // the other has two: a 404 cannot be a LAST_SIGN_IN_METHOD in disguise
      const [identity] = await identitiesOf(owner.browser);
      for (const id of [identity?.id, `${identity?.id} `, identity?.id.toUpperCase(), "%00", "..%2F", "' or 1=1 --"]) {
        figures.attacks++;
        const answer = await other.browser.call("DELETE", `/api/user/identities/${encodeURIComponent(id ?? "")}`, { headers: SAME_ORIGIN });
        expect(answer.status, `${id}: ${answer.text}`).toBe(404);
      }
      expect(await identitiesOf(owner.browser)).toHaveLength(1);
      expect(await identitiesOf(other.browser)).toHaveLength(2);
    });

    it("two disconnections at once never leave a provider-only user without a way in", async () => {
      for (let round = 0; round < 4; round++) {
        const { browser: b } = await providerUser();
        expect((await linkFromProfile(b, person())).location).toBe("/profile?connected=rogue");
        const identities = await identitiesOf(b);
        expect(identities).toHaveLength(2);
        figures.attacks += 2;
        const answers = await Promise.all(
          identities.map((identity) => b.call("DELETE", `/api/user/identities/${identity.id}`, { headers: SAME_ORIGIN })),
        );
        expect(answers.map((answer) => answer.status).sort()).toEqual([204, 409]);
        expect(answers.find((answer) => answer.status === 409)?.body).toMatchObject({ code: "LAST_SIGN_IN_METHOD" });
        expect(await identitiesOf(b)).toHaveLength(1);
      }
    });

    it("IDENTITY_TAKEN: a link never moves another user's provider account, and signs nobody in", async () => {
      const holder = await providerUser();
      const thief = await providerUser();
      figures.attacks++;
      const before = thief.browser.cookies.get(COOKIE.access);
      expectRefused(await linkFromProfile(thief.browser, holder.person), "/profile?error=IDENTITY_TAKEN");
      expect(thief.browser.cookies.get(COOKIE.access)).toBe(before);
      expect(await identitiesOf(holder.browser)).toHaveLength(1);
      expect(await identitiesOf(thief.browser)).toHaveLength(1);
      // The holder still signs in with it.
      const b = browser();
      await rogueSignIn(b, holder.person);
      expect((await whoIs(b))?.id).toBe(holder.user.id);
    });

    it("a deleted user's accounts go with them: the provider account makes a new user, and their pending link links nothing", async () => {
      const gone = await providerUser();
      const started = await gone.browser.call("POST", "/api/user/identities/rogue", { headers: SAME_ORIGIN });
      const pending = pathOf(fake.approve((started.body as { url: string }).url, person()));
      const deleted = await browser().call("DELETE", `/api/user/${gone.user.id}`, { token: await adminToken() });
      expect(deleted.status, deleted.text).toBe(204);
      figures.attacks += 2;
      expectRefused(await gone.browser.get(pending), "/profile?error=OAUTH_STATE");
      const again = browser();
      expect((await rogueSignIn(again, gone.person)).location).toBe("/profile");
      const now = await whoIs(again);
      expect(now?.id).not.toBe(gone.user.id);
      expect(now?.email).toBe(gone.user.email);
    });
  });

  // --- the second step's cookie --------------------------------------------------------------

  describe("the second step's mfa cookie (docs/providers.md#second-factors)", () => {
    let holder: { person: FakePerson; secret: string; id: string };
    const code = () => totpCodeAt(holder.secret, clock);

    beforeAll(async () => {
      const { browser: b, person: who, user } = await providerUser();
      const started = await b.call("POST", "/api/user/mfa/totp", { headers: SAME_ORIGIN });
      expect(started.status, started.text).toBe(200);
      const secret = String((started.body as { secret: string }).secret);
      const confirmed = await b.call("POST", "/api/user/mfa/totp/confirm", {
        headers: SAME_ORIGIN,
        body: { code: totpCodeAt(secret, clock) },
      });
      expect(confirmed.status, confirmed.text).toBe(200);
      holder = { person: who, secret, id: user.id };
    });

    /** A browser at the second step of the holder's provider sign-in (the mfa cookie set): its answer. */
    async function atSecondStep(next?: string) {
      advance(30); // each step's code is accepted once: the next sign-in gets a new one
      const b = browser();
      const answer = await rogueSignIn(b, holder.person, next);
      expect(answer.location ?? "").toMatch(/^\/login\?step=second-factor&methods=totp,recovery&next=/);
      return { b, answer };
    }

    it("the cookie is HttpOnly and SameSite=Lax, the token never in the URL, and no session before the code", async () => {
      const { b, answer } = await atSecondStep("/dashboard");
      const cookie = cookieSet(answer, COOKIE.mfa);
      expect(cookie?.httpOnly).toBe(true);
      expect(cookie?.sameSite).toBe("lax");
      expect(cookie?.path).toBe("/");
      expect(cookie?.maxAge).toBe(300);
      expect(answer.location).not.toContain(cookie?.value ?? "missing");
      expect(sessionCookiesOf(answer)).toEqual([]);
      expect(b.signedIn).toBe(false);
    });

    it("another site cannot spend it at login/mfa or login/passkey/options, and its tries do not spend it", async () => {
      const { b } = await atSecondStep();
      const foreign: Record<string, string>[] = [
        EVIL_ORIGIN,
        { origin: "null" },
        { origin: `${APP_URL}.evil.example` },
        { "sec-fetch-site": "cross-site" },
        { "sec-fetch-site": "same-site" },
        {},
      ];
      for (const headers of foreign) {
        figures.attacks += 2;
        const mfa = await b.call("POST", "/api/user/login/mfa", { headers, body: { code: code(), transport: "cookie" } });
        expect(mfa.status, `${JSON.stringify(headers)}: ${mfa.text}`).toBe(403);
        expect((mfa.body as { code: string }).code).toBe("FORBIDDEN_ORIGIN");
        expect(sessionCookiesOf(mfa)).toEqual([]);
        const options = await b.call("POST", "/api/user/login/passkey/options", { headers, body: { secondStep: true } });
        expect(options.status, options.text).toBe(403);
      }
      expect(b.signedIn).toBe(false);
      const done = await b.call("POST", "/api/user/login/mfa", { headers: SAME_ORIGIN, body: { code: code(), transport: "cookie" } });
      expect(done.status, done.text).toBe(200);
      expect((await whoIs(b))?.id).toBe(holder.id);
      expect(b.cookies.has(COOKIE.mfa)).toBe(false);
    });

    it("a challenge's cookie is no enrolment token: the enrolment endpoints refuse it", async () => {
      const { b } = await atSecondStep();
      for (const path of ["/api/user/mfa/totp", "/api/user/mfa/totp/confirm", "/api/user/passkeys/options"]) {
        figures.attacks++;
        const answer = await b.call("POST", path, { headers: SAME_ORIGIN, body: path.endsWith("confirm") ? { code: "123456" } : {} });
        expect(answer.status, `${path}: ${answer.text}`).toBe(401);
      }
      expect(b.signedIn).toBe(false);
    });

    it("after five minutes the cookie opens nothing", async () => {
      const { b } = await atSecondStep();
      advance(301);
      figures.attacks++;
      const late = await b.call("POST", "/api/user/login/mfa", { headers: SAME_ORIGIN, body: { code: code(), transport: "cookie" } });
      expect(late.status, late.text).toBe(401);
      expect((late.body as { code: string }).code).toBe("INVALID_MFA_TOKEN");
      expect(b.signedIn).toBe(false);
    });

    it("the next of the second step is the same safe path", async () => {
      for (const next of ["//evil.example", "/\\evil.example", "/..//evil.example", "https://evil.example", "/ok?x=1&y=//evil"]) {
        figures.attacks++;
        const { answer } = await atSecondStep(next);
        const inner = new URL(answer.location ?? "", APP_URL).searchParams.get("next");
        expect(staysOnSite(inner), `${next} → ${inner}`).toBe(true);
      }
    });

    it("a stale or foreign mfa cookie does not break another user's passkey sign-in", async () => {
      // Someone with a passkey, signed in by password: their passkey made with a bearer token.
      const owner = await signUp(app.base, { email: `${unique("passkey-owner")}@example.com` });
      const authenticator = new SoftAuthenticator(APP_URL);
      const options = await browser().call("POST", "/api/user/passkeys/options", { token: owner.token });
      expect(options.status, options.text).toBe(200);
      const added = await browser().call("POST", "/api/user/passkeys", {
        token: owner.token,
        body: { response: authenticator.register(options.body as never) },
      });
      expect(added.status, added.text).toBe(201);
      // A shared browser still holding the holder's second-step cookie (live, then stale).
      for (const wait of [0, 301]) {
        const { b } = await atSecondStep();
        advance(wait);
        figures.attacks++;
        const signInOptions = await b.call("POST", "/api/user/login/passkey/options", { headers: SAME_ORIGIN, body: {} });
        expect(signInOptions.status, signInOptions.text).toBe(200);
        const assertion = authenticator.authenticate(signInOptions.body as never);
        const answer = await b.call("POST", "/api/user/login/passkey", {
          headers: SAME_ORIGIN,
          body: { response: assertion, transport: "cookie" },
        });
        expect(answer.status, answer.text).toBe(200);
        expect((await whoIs(b))?.id).toBe(owner.id);
      }
    });

    it("an enrolment's cookie works only from the app's pages, and a signed-in user's own enrolment is theirs whatever mfa cookie the browser holds", async () => {
      // An Editor must enrol (mfa.required): a provider sign-in of theirs ends at the enrolment step.
      const editor = await providerUser();
      const promoted = await browser().call("PATCH", `/api/user/${editor.user.id}`, {
        token: await adminToken(),
        body: { role: "Editor" },
      });
      expect(promoted.status, promoted.text).toBe(200);
      const b = browser();
      const answer = await rogueSignIn(b, editor.person);
      expect(answer.location).toBe("/login?step=enrolment&next=%2Fprofile");
      expect(cookieSet(answer, COOKIE.mfa)?.httpOnly).toBe(true);
      for (const headers of [EVIL_ORIGIN, { "sec-fetch-site": "cross-site" }, {}] as Record<string, string>[]) {
        figures.attacks++;
        const refused = await b.call("POST", "/api/user/mfa/totp", { headers });
        expect(refused.status, refused.text).toBe(403);
        expect((refused.body as { code: string }).code).toBe("FORBIDDEN_ORIGIN");
      }
      // Someone else signs in on that browser (by password, cookie transport), the editor's cookie still there.
      const other = await signUp(app.base, { email: `${unique("same-browser")}@example.com` });
      const login = await b.call("POST", "/api/user/login", {
        headers: SAME_ORIGIN,
        body: { email: other.email, password: TEST_PASSWORD, transport: "cookie" },
      });
      expect(login.status, login.text).toBe(200);
      expect(b.cookies.has(COOKIE.mfa)).toBe(true);
      const own = await b.call("POST", "/api/user/mfa/totp", { headers: SAME_ORIGIN });
      expect(own.status, own.text).toBe(200);
      expect(decodeURIComponent(String((own.body as { otpauthUrl: string }).otpauthUrl))).toContain(other.email);
      // And with a bearer token, the same.
      const bearer = await b.call("POST", "/api/user/mfa/totp", { token: other.token, headers: SAME_ORIGIN });
      expect(bearer.status, bearer.text).toBe(200);
      expect(decodeURIComponent(String((bearer.body as { otpauthUrl: string }).otpauthUrl))).toContain(other.email);
    });
  });

  // --- leaks ---------------------------------------------------------------------------------

  describe("leaks", () => {
    it("no code, state, flow secret or provider token in an answer, an event, a report or the database", async () => {
      const answers: BrowserAnswer[] = [];
      const states: string[] = [];
      const bindings: string[] = [];
      const keep = (answer: BrowserAnswer) => {
        answers.push(answer);
        return answer;
      };
      const flowIn = async (b: Browser, who: FakePerson) => {
        const started = await start(b, "rogue");
        states.push(new URL(started.location ?? "").searchParams.get("state") ?? "");
        bindings.push(b.cookies.get(COOKIE.flow) ?? "");
        return keep(await b.get(pathOf(fake.approve(started.location ?? "", who))));
      };
      reports.length = 0;
      // A sign-up, a sign-in, a refusal, a failed check (reported), a link, an unlink.
      const who = person();
      const b = browser();
      await flowIn(b, who);
      await flowIn(browser(), who);
      const victim = await verifiedUser(`${unique("leak")}@example.com`);
      await flowIn(browser(), person({ email: victim.email, email_verified: false }));
      await flowIn(browser(), person({ idToken: { nonce: "wrong" } }));
      // Its answer is the provider's URL, with the state in it by design: not one of the answers searched.
      const link = await b.call("POST", "/api/user/identities/rogue", { headers: SAME_ORIGIN });
      states.push(new URL((link.body as { url: string }).url).searchParams.get("state") ?? "");
      bindings.push(b.cookies.get(COOKIE.flow) ?? "");
      keep(await b.get(pathOf(fake.approve((link.body as { url: string }).url, person()))));
      const [first] = await identitiesOf(b);
      keep(await b.call("DELETE", `/api/user/identities/${first?.id}`, { headers: SAME_ORIGIN }));
      expect(reports.length).toBeGreaterThan(0); // the failed nonce check reached onError
      await eventsAtLeast("login.failed", victim.id, 1);

      const secrets = [...fake.secrets, ...states, ...bindings].filter((secret) => secret.length >= 16);
      expect(secrets.length).toBeGreaterThan(10);
      const answerTexts = answers.map((answer) => {
        // The flow cookie's own Set-Cookie carries its secret (that is its point); the rest may carry none.
        const cookies = answer.setCookies.filter((line) => !line.startsWith(`${COOKIE.flow}=`));
        return [answer.location ?? "", answer.text, ...cookies].join("\n");
      });
      const eventTexts: string[] = [];
      for (const type of ["login.succeeded", "login.failed", "register", "identity.linked", "identity.unlinked"])
        eventTexts.push(JSON.stringify(await events(type)));
      const reportTexts = reports.map((report) => inspect(report, { depth: 8 }));
      const rows: string[] = [];
      for (const table of [PROVIDER_TABLE_NAMES.flows, PROVIDER_TABLE_NAMES.identities, "domain_auth_events"])
        rows.push(JSON.stringify(await tableRows(database.url, table)));
      for (const [where, texts] of [
        ["answers", answerTexts],
        ["events", eventTexts],
        ["reports", reportTexts],
        ["database", rows],
      ] as const) {
        for (const secret of secrets) {
          const found = texts.find((text) => text.includes(secret));
          expect(found === undefined, `${where} hold a secret ${secret.slice(0, 24)}…: ${found?.slice(0, 300)}`).toBe(true);
        }
      }
      // The identity as its owner sees it: never a subject, a token or a hash.
      expect(Object.keys((await identitiesOf(b))[0] ?? {}).sort()).toEqual(["createdAt", "email", "id", "provider"]);
    });

    it("the flow and session cookies of a provider sign-in are HttpOnly, SameSite=Lax and Path=/", async () => {
      const b = browser();
      const started = await start(b, "rogue");
      const flow = cookieSet(started, COOKIE.flow);
      expect(flow).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/", maxAge: 600 });
      expect(flow?.domain).toBeUndefined();
      const done = await b.get(pathOf(fake.approve(started.location ?? "", person())));
      for (const name of [COOKIE.access, COOKIE.refresh]) {
        const cookie = cookieSet(done, name);
        if (cookie) expect(cookie, name).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/" });
      }
      expect(cookieSet(done, COOKIE.access)).toBeDefined();
      expect(cookieSet(done, COOKIE.flow)?.maxAge).toBe(0);
    });
  });

  // --- denial --------------------------------------------------------------------------------

  describe("floods and malformed requests", () => {
    it("starts: 30 a minute from one address, then TOO_MANY_ATTEMPTS with no flow stored and no cookie", async () => {
      const address = freshAddress();
      const before = await flowCount();
      for (let index = 0; index < 30; index++) await start(browser(address), "rogue");
      figures.attacks += 5;
      for (let index = 0; index < 5; index++) {
        const refused = await browser(address).get("/api/user/oauth/rogue");
        expect(refused.location).toBe("/login?error=TOO_MANY_ATTEMPTS");
        expect(refused.setCookies).toEqual([]);
      }
      expect((await flowCount()) - before).toBe(30);
      await start(browser(), "rogue"); // another address is not held back
    });

    it("callbacks: 30 a minute from one address, then TOO_MANY_ATTEMPTS even for a genuine flow", async () => {
      const address = freshAddress();
      for (let index = 0; index < 30; index++) {
        expectRefused(await browser(address).get(`/api/user/oauth/rogue/callback?state=guess-${index}&code=x`), "/login?error=OAUTH_STATE");
      }
      const b = browser(address);
      const callback = await rogueCallback(b, person());
      figures.attacks++;
      expectRefused(await b.get(callback), "/login?error=TOO_MANY_ATTEMPTS");
      expect(fake.exchanges.filter((code) => callback.includes(code))).toEqual([]);
    });

    it("huge and malformed state, code, next and error values: a 302 to the sign-in page, never a 5xx or JSON", async () => {
      const big = "A".repeat(7000);
      const targets = [
        `/api/user/oauth/rogue/callback?state=${big}&code=${big}`,
        `/api/user/oauth/rogue/callback?state=%&code=%ZZ`,
        `/api/user/oauth/rogue/callback?state=%C0%AF%FF%FE&code=%00`,
        `/api/user/oauth/rogue/callback?state=a&state=b&code=1&code=2`,
        `/api/user/oauth/rogue/callback?state[]=x&code[$ne]=1`,
        `/api/user/oauth/rogue/callback?state=${"%F0%9F%92%A9".repeat(500)}`,
        `/api/user/oauth/rogue/callback?error=${big}`,
        `/api/user/oauth/rogue/callback`,
        `/api/user/oauth/rogue/callback?;state=x`,
        `/api/user/oauth/rogue/callback?state=x#fragment`,
      ];
      for (const target of targets) {
        figures.attacks++;
        const answer = await rawRequest(app.port, [
          `GET ${target} HTTP/1.1\r\nhost: localhost:3000\r\nx-forwarded-for: ${freshAddress()}\r\nconnection: close\r\n\r\n`,
        ]);
        expect(answer.status, `${target.slice(0, 80)}: ${answer.head}`).toBe(302);
        expect(answer.head).toMatch(/\r\nlocation: \/login\?error=OAUTH_STATE\r\n/i);
        expect(answer.head).not.toMatch(/set-cookie: (__Host-)?domain-auth\.(token|refresh-token)=[^;]/i);
      }
      // Starts with a huge or odd next: a flow, and the next is made safe.
      for (const next of [`/${"a".repeat(6000)}`, "%", "%ZZ", "/%C0%AF", `//${"e".repeat(3000)}.example`]) {
        figures.attacks++;
        const answer = await rawRequest(app.port, [
          `GET /api/user/oauth/rogue?next=${next} HTTP/1.1\r\nhost: localhost:3000\r\nx-forwarded-for: ${freshAddress()}\r\nconnection: close\r\n\r\n`,
        ]);
        expect(answer.status, answer.head).toBe(302);
        expect(safetyProblems(answer, { head: true })).toEqual([]);
      }
    });

    it("provider ids that are not declared are 404 (Object's own names included), the flow cookie untouched", async () => {
      const { browser: signedIn } = await providerUser();
      for (const id of ["ACME", "__proto__", "constructor", "toString", "rogue%2F..", "..%2Frogue"]) {
        figures.attacks++;
        const link = await signedIn.call("POST", `/api/user/identities/${id}`, { headers: SAME_ORIGIN });
        expect(link.status, `POST identities/${id}: ${link.text}`).toBe(404);
        expect(link.setCookies).toEqual([]);
      }
      for (const id of ["ACME", "acme2", "__proto__", "constructor", "toString", "hasOwnProperty", "rogue%2F..", "..%2Facme"]) {
        for (const path of [`/api/user/oauth/${id}`, `/api/user/oauth/${id}/callback?state=x&code=y`]) {
          figures.attacks++;
          const answer = await browser().get(path);
          expect(answer.status, `${path}: ${answer.text}`).toBe(404);
          expect(answer.setCookies).toEqual([]);
        }
      }
    });
  });
});

describe("the flow cookie over https (a sibling subdomain may toss cookies)", () => {
  let fake: FakeOpenIdProvider;
  let database: TestDatabase;
  let app: Served;

  beforeAll(async () => {
    fake = await startFakeOpenIdProvider([callbackUri("rogue", HTTPS_APP)]);
    database = await BACKENDS[0].create();
    app = await serve(database.url, blogWith({ rogue: `{ type: oidc, issuer: "${fake.issuer}" }` }), {
      appUrl: HTTPS_APP,
      providers: { rogue: { clientId: fake.clientId, clientSecret: fake.clientSecret } },
    });
    await setUpAdmin(app.base);
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
    await fake?.close();
  });

  it("is __Host-, Secure, HttpOnly, SameSite=Lax, with no Domain: a cookie of the plain name (tossed) opens no flow", async () => {
    const attacker = new Browser(app.base);
    const started = await attacker.get("/api/user/oauth/rogue");
    expect(started.status, started.text).toBe(302);
    const line = started.setCookies.find((header) => header.startsWith(`__Host-${COOKIE.flow}=`)) ?? "";
    expect(parseSetCookie(line)).toMatchObject({ secure: true, httpOnly: true, sameSite: "lax", path: "/" });
    expect(parseSetCookie(line).domain).toBeUndefined();
    const binding = attacker.cookies.get(`__Host-${COOKIE.flow}`) ?? "";
    const callback = pathOf(fake.approve(started.location ?? "", { sub: "tosser", email: "tosser@evil.example", email_verified: true }));
    // A sibling subdomain can set `domain-auth.oauth-flow` for the parent domain, never a `__Host-` cookie.
    const victim = new Browser(app.base);
    victim.cookies.set(COOKIE.flow, binding);
    const answer = await victim.get(callback);
    expectRefused(answer, "/login?error=OAUTH_STATE");
    expect(victim.cookies.has(`__Host-${COOKIE.access}`)).toBe(false);
    // The control: in the browser that holds the real cookie, the same callback signs in.
    const own = await attacker.get(callback);
    expect(own.location).toBe("/profile");
    expect(own.setCookies.some((header) => header.startsWith(`__Host-${COOKIE.access}=`))).toBe(true);
  });
});

describe("the setup role reached through a provider's vouched e-mail", () => {
  let fake: FakeOpenIdProvider;
  let database: TestDatabase;
  let app: Served;
  let clock = Date.now();

  beforeAll(async () => {
    fake = await startFakeOpenIdProvider([callbackUri("rogue")]);
    database = await BACKENDS[0].create();
    app = await serve(database.url, blogWith({ rogue: `{ type: oidc, issuer: "${fake.issuer}" }` }), {
      appUrl: APP_URL,
      now: () => clock,
      providers: { rogue: { clientId: fake.clientId, clientSecret: fake.clientSecret } },
    });
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
    await fake?.close();
  });

  it("an administrator with a second factor still gives it: the provider's e-mail opens no session without the code", async () => {
    const admin = await setUpAdmin(app.base);
    const started = await new Browser(app.base).call("POST", "/api/user/mfa/totp", { token: admin.token });
    expect(started.status, started.text).toBe(200);
    const secret = String((started.body as { secret: string }).secret);
    const confirmed = await new Browser(app.base).call("POST", "/api/user/mfa/totp/confirm", {
      token: admin.token,
      body: { code: totpCodeAt(secret, clock) },
    });
    expect(confirmed.status, confirmed.text).toBe(200);
    clock += 30_000;
    const b = new Browser(app.base);
    const begun = await b.get("/api/user/oauth/rogue");
    const answer = await b.get(
      pathOf(fake.approve(begun.location ?? "", { sub: "admin-at-idp", email: ADMIN.email, email_verified: true })),
    );
    expect(answer.location).toBe("/login?step=second-factor&methods=totp,recovery&next=%2Fprofile");
    expect(sessionCookiesOf(answer)).toEqual([]);
    expect(b.signedIn).toBe(false);
    const wrong = await b.call("POST", "/api/user/login/mfa", { headers: SAME_ORIGIN, body: { code: "000000", transport: "cookie" } });
    expect([401, 400]).toContain(wrong.status);
    expect(b.signedIn).toBe(false);
  });
});
