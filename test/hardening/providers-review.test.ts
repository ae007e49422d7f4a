import { ADMIN, setUpAdmin, signIn, signUp, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS, type TestDatabase } from "@domain-auth/test-support/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SoftAuthenticator } from "../../packages/auth-core/test/support/soft-authenticator.js";
import {
  APP_URL,
  Browser,
  type BrowserAnswer,
  blogWith,
  COOKIE,
  callbackUri,
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
 * Attacks on sign-in with providers (docs/providers.md) that an outside review found getting through,
 * each kept as the rule that now holds (providers-attacks.test.ts holds the attacks that were refused
 * from the start):
 *
 * 1. A link flow must not outlive the session and the credentials that started it: a thief's link
 *    dies when the owner changes their password.
 * 2. A compatibility spelling of an address (full-width letters, a ligature, the Kelvin sign) that a
 *    provider vouches for never reaches the account of the address it normalizes to.
 * 3. Removing a passkey never removes the last way in.
 * 4. A `next` with a character beyond Latin-1 still ends the callback in a 302.
 * 5. `POST identities/<provider>` is limited per address, as starting a sign-in is.
 * 6. What a provider sends is checked as a sign-up is: its e-mail as an address, its name against
 *    the field's `maxLength`.
 * 7. The ID token's signature is checked against the issuer's published keys.
 */

/** The `maxLength` of the blog's `name` field in these tests. */
const NAME_MAX = 40;

describe.each(BACKENDS)("what the review of sign-in with providers found, now refused, on $name", (backend) => {
  let fake: FakeOpenIdProvider;
  let database: TestDatabase;
  let app: Served;
  let counter = 0;
  const unique = (label: string) => `${label}-${++counter}`;

  beforeAll(async () => {
    fake = await startFakeOpenIdProvider([callbackUri("rogue")]);
    database = await backend.create();
    // The blog, with a `maxLength` on the name a provider fills in.
    const yaml = blogWith({ rogue: `{ type: oidc, issuer: "${fake.issuer}", name: Rogue }` }).replace(
      "      name: string\n",
      `      name: { type: string, maxLength: ${NAME_MAX} }\n`,
    );
    expect(yaml).toContain(`maxLength: ${NAME_MAX} }`);
    app = await serve(database.url, yaml, {
      appUrl: APP_URL,
      registerLimit: 100_000,
      providers: { rogue: { clientId: fake.clientId, clientSecret: fake.clientSecret } },
      onError: () => {},
    });
    await setUpAdmin(app.base);
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
    await fake?.close();
  });

  const browser = (address?: string) => new Browser(app.base, address);

  const person = (over: Partial<FakePerson> = {}): FakePerson => {
    const id = unique("person");
    return { sub: id, email: `${id}@people.example`, email_verified: true, ...over };
  };

  async function rogueSignIn(b: Browser, who: FakePerson, next?: string): Promise<BrowserAnswer> {
    const started = await b.get(`/api/user/oauth/rogue${next === undefined ? "" : `?next=${encodeURIComponent(next)}`}`);
    expect(started.status, started.text).toBe(302);
    return b.get(pathOf(fake.approve(started.location ?? "", who)));
  }

  async function whoIs(b: Browser): Promise<{ id: string; email: string; role: string } | null> {
    const answer = await b.get("/api/user/me");
    return answer.status === 200 ? (answer.body as { user: { id: string; email: string; role: string } }).user : null;
  }

  async function identitiesOf(token: string): Promise<unknown[]> {
    const answer = await browser().call("GET", "/api/user/identities", { token });
    expect(answer.status, answer.text).toBe(200);
    return (answer.body as { items: unknown[] }).items;
  }

  async function adminToken(): Promise<string> {
    return (await signIn(app.base, ADMIN)).token;
  }

  it("1. a link flow started by a session that has since been revoked (a password change) links nothing", async () => {
    // A thief holds a fresh session of the owner (a stolen cookie) and starts connecting their own account.
    const owner = await signUp(app.base, { email: `${unique("owner")}@example.com` });
    const thief = browser();
    const started = await thief.call("POST", "/api/user/identities/rogue", { token: owner.token });
    expect(started.status, started.text).toBe(200);
    const thiefAtProvider = person({ email: "thief@evil.example" });
    const callback = pathOf(fake.approve((started.body as { url: string }).url, thiefAtProvider));
    // The owner notices and changes their password: every session of theirs is revoked.
    const changed = await browser().call("PATCH", `/api/user/${owner.id}`, {
      token: owner.token,
      body: { password: "the owner's new password", currentPassword: TEST_PASSWORD },
    });
    expect(changed.status, changed.text).toBe(200);
    expect((await browser().call("GET", "/api/user/me", { token: owner.token })).status).toBe(401);
    // The thief's pending link must die with the session that started it.
    const answer = await thief.get(callback);
    expect(answer.location, "the revoked session's link was completed").toMatch(/^\/profile\?error=/);
    const now = await signIn(app.base, { email: owner.email, password: "the owner's new password" });
    expect(await identitiesOf(now.token)).toEqual([]);
    const later = browser();
    await rogueSignIn(later, thiefAtProvider);
    expect((await whoIs(later))?.id, "the thief signs in as the owner with their own provider account").not.toBe(owner.id);
  });

  it("2. a compatibility spelling of someone's address (full-width, ligature, Kelvin sign) vouched for by a provider never reaches their account", async () => {
    const fiona = `fiona-${unique("f")}@example.com`;
    const kate = `kate-${unique("k")}@example.com`;
    const token = await adminToken();
    for (const email of [fiona, kate]) {
      const made = await browser().call("POST", "/api/user", { token, body: { email, password: TEST_PASSWORD } });
      expect(made.status, made.text).toBe(201);
    }
    const cases: [string, string][] = [
      // The setup administrator, through the mailbox `ａｄｍｉｎ@example.com` (full-width letters: another mailbox).
      [ADMIN.email, "\uff41\uff44\uff4d\uff49\uff4e@example.com"],
      [fiona, `\ufb01${fiona.slice(2)}`], // "ﬁona…": the ligature ﬁ
      [kate, `\u212a${kate.slice(1)}`], // "Kate…" with the Kelvin sign
    ];
    for (const [victim, spelling] of cases) {
      expect(spelling.normalize("NFKC").toLowerCase()).toBe(victim);
      const b = browser();
      const answer = await rogueSignIn(b, person({ email: spelling }));
      expect(answer.status).toBe(302);
      expect((await whoIs(b))?.email, `${spelling} signed in as ${victim}`).not.toBe(victim);
    }
  });

  it("3. removing the last passkey of a user with no password and no connected account is refused: LAST_SIGN_IN_METHOD", async () => {
    const b = browser();
    expect((await rogueSignIn(b, person())).location).toBe("/profile");
    const options = await b.call("POST", "/api/user/passkeys/options", { headers: SAME_ORIGIN });
    expect(options.status, options.text).toBe(200);
    const added = await b.call("POST", "/api/user/passkeys", {
      headers: SAME_ORIGIN,
      body: { response: new SoftAuthenticator(APP_URL).register(options.body as never) },
    });
    expect(added.status, added.text).toBe(201);
    // Disconnecting the account is allowed: the passkey is still a way in.
    const [identity] = ((await b.get("/api/user/identities")).body as { items: { id: string }[] }).items;
    expect((await b.call("DELETE", `/api/user/identities/${identity?.id}`, { headers: SAME_ORIGIN })).status).toBe(204);
    // Removing that passkey would leave no password, no passkey and no account: the last way in.
    const removed = await b.call("DELETE", `/api/user/passkeys/${(added.body as { id: string }).id}`, { headers: SAME_ORIGIN });
    expect(removed.status, "the last way in was removed").toBe(409);
    expect((removed.body as { code: string }).code).toBe("LAST_SIGN_IN_METHOD");
  });

  it("4. a next with characters beyond Latin-1 still ends the callback in a 302 with the session (never a 500)", async () => {
    const who = person();
    await rogueSignIn(browser(), who);
    for (const next of ["/\u0100", "/\u65e5\u672c\u8a9e", "/docs?q=\u2603", "/\u{1f4a9}"]) {
      const b = browser();
      const answer = await rogueSignIn(b, who, next);
      expect(answer.status, `next ${next}: ${answer.text}`).toBe(302);
      expect(answer.location?.startsWith("/") && !answer.location.startsWith("//")).toBe(true);
      expect(sessionCookiesOf(answer)).not.toEqual([]);
    }
  });

  it("5. starting link flows is limited per client address like starting sign-ins: past 30 a minute, 429 and no flow stored", async () => {
    const user = await signUp(app.base, { email: `${unique("flooder")}@example.com` });
    const address = freshAddress();
    const before = (await tableRows(database.url, PROVIDER_TABLE_NAMES.flows)).length;
    const statuses: number[] = [];
    for (let index = 0; index < 40; index++) {
      statuses.push((await browser(address).call("POST", "/api/user/identities/rogue", { token: user.token })).status);
    }
    expect(statuses.slice(30), "every start of a link was answered with a flow").toEqual(Array(10).fill(429));
    expect((await tableRows(database.url, PROVIDER_TABLE_NAMES.flows)).length - before).toBeLessThanOrEqual(30);
  });

  it("6. a provider's e-mail that is no valid address (no @, invisible characters, too long) makes no account", async () => {
    const spellings = [
      "not-an-email",
      `${ADMIN.email}\u200b`, // zero-width space: reads as the administrator's address
      `\u202e${"moc.elpmaxe@nimda"}`, // right-to-left override
      `a@${"b".repeat(260)}.example`,
      "two@at@signs.example",
    ];
    for (const email of spellings) {
      const b = browser();
      const answer = await rogueSignIn(b, person({ email }));
      expect(answer.location, `${JSON.stringify(email)} made an account`).toMatch(/^\/login\?error=/);
      expect(b.signedIn).toBe(false);
    }
  });

  it("6. a provider's name is held to the field's rules: never longer than its maxLength", async () => {
    for (const name of ["x".repeat(NAME_MAX + 1), "y".repeat(100_000)]) {
      const b = browser();
      await rogueSignIn(b, person({ name }));
      const me = await b.get("/api/user/me");
      if (me.status !== 200) continue; // refusing the sign-up keeps the rule too
      const stored = String((me.body as { user: { name: string | null } }).user.name ?? "");
      expect(stored.length, `a name of ${name.length} characters was stored as is`).toBeLessThanOrEqual(NAME_MAX);
    }
  });

  it("7. an ID token signed with a key the issuer does not publish is refused: OAUTH_FAILED", async () => {
    const b = browser();
    const answer = await rogueSignIn(b, person({ foreignKey: true }));
    expect(answer.location, "an ID token with a signature of another key was accepted").toBe("/login?error=OAUTH_FAILED");
    expect(b.cookies.has(COOKIE.access)).toBe(false);
  });
});
