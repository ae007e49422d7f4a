import { type SignedIn, setUpAdmin, signIn, signUp, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { TEST_SECRET } from "@domain-auth/test-support/domains";
import { tokenOf } from "@domain-auth/test-support/mail-server";
import { startOpenIdProvider } from "@domain-auth/test-support/openid-provider";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writePasskeyAdded, writePasskeyRemoved } from "../../src/accounts/passkey-events.js";
import type { RequestEvents } from "../../src/accounts/security-events.js";
import { SECURITY_EVENT_TYPES, type SecurityEvent } from "../../src/browser.js";
import { writeTransaction } from "../../src/store/transaction.js";
import { ADDRESS_HEADER, clientAddressFromHeader } from "../support/client-address.js";
import { eventOf, eventually, readAllEvents, settled } from "../support/events.js";
import { useMailInstance } from "../support/mail.js";
import { Browser, blogWithProvider, pathOf } from "../support/provider-flow.js";
import { currentCode, enrolTotp, passwordStep, wrongCode } from "../support/second-factors.js";

/**
 * The security events of docs/events.md on both databases: one run of every flow that records one,
 * then each type checked where it happened, `onEvent` against the table, and a scan of every event
 * for the run's passwords, tokens, codes and stored hashes.
 */

const CLIENT = { "user-agent": "EventsTest/1.0", [ADDRESS_HEADER]: "203.0.113.7" };

/** The app's host as the provider's flows see it: their callback URL is built from it (no APP_URL here). */
const APP_HOST = { host: "localhost:3000" };
/** A real OpenID Provider for the flows that link accounts. */
const provider = await startOpenIdProvider({
  redirectUris: ["http://localhost:3000/api/user/oauth/acme/callback"],
  accounts: {
    gina: { email: "gina@example.com", email_verified: true, name: "Gina" },
    "frank-at-acme": { email: "frank.acme@example.com", email_verified: true },
  },
});
afterAll(() => provider.close());
const NEW_PASSWORD = "a brand new passphrase";
const RESET_PASSWORD = "the password of a reset link";
const sidOf = (token: string) => String(decodeJwt(token).sid);
/** Organizations, so that their events are recorded too. */
const ORGANIZATIONS = "  organizations: { roles: [Owner, Manager, Member], manage: [Owner, Manager] }\n";

describe.each(BACKENDS)("security events on $name", (backend) => {
  const heard: SecurityEvent[] = [];
  const secrets = new Set<string>([TEST_SECRET, TEST_PASSWORD, NEW_PASSWORD, RESET_PASSWORD]);
  const test = useMailInstance(backend.create, `${blogWithProvider(provider.issuer)}${ORGANIZATIONS}`, {
    providers: { acme: { clientId: provider.clientId, clientSecret: provider.clientSecret } },
    clientAddress: clientAddressFromHeader,
    onEvent: (event) => {
      heard.push(event);
    },
  });
  const api = () => test.api;
  /** Remembers what no event may ever hold. */
  const keep = (...values: unknown[]) => {
    for (const value of values) if (typeof value === "string" && value.length >= 6) secrets.add(value);
  };
  const people = {} as Record<"admin" | "alice" | "bob" | "carol" | "erin" | "frank", SignedIn> & { dave: string };
  let events: SecurityEvent[] = [];

  /** The link token of the newest message to `to`, once it has arrived. */
  async function mailTokenFor(to: string, count: number): Promise<string> {
    await eventually(() => test.mail.messages.filter((message) => message.to.includes(to)).length >= count);
    const token = tokenOf(test.mail.messages.filter((message) => message.to.includes(to)).at(-1) as never);
    keep(token);
    return token;
  }

  async function accountFlows(): Promise<void> {
    people.admin = await setUpAdmin(api());
    people.alice = await signUp(api(), { email: "alice@example.com" });
    keep(people.admin.token, people.admin.refreshToken, people.alice.token, people.alice.refreshToken);
    const wrong = await api().post("/api/user/login", { email: "alice@example.com", password: "not her password" }, { headers: CLIENT });
    expect(wrong.status).toBe(401);
    const unknown = await api().post("/api/user/login", { email: "nobody@example.com", password: "whatever it is" }, { headers: CLIENT });
    expect(unknown.status).toBe(401);
    keep("not her password", "whatever it is");
  }

  async function sessionFlows(): Promise<void> {
    const alice = people.alice;
    const phone = await signIn(api(), alice);
    const refreshed = await api().post("/api/user/refresh", { refreshToken: phone.refreshToken });
    keep(phone.token, phone.refreshToken, refreshed.body.token, refreshed.body.refreshToken);
    test.advance(11);
    expect((await api().post("/api/user/refresh", { refreshToken: phone.refreshToken }, { headers: CLIENT })).status).toBe(401);
    const laptop = await signIn(api(), alice);
    expect((await api().post("/api/user/logout", undefined, { token: laptop.token, headers: CLIENT })).status).toBe(204);
    const tablet = await signIn(api(), alice);
    const desk = await signIn(api(), alice);
    keep(laptop.token, laptop.refreshToken, tablet.token, tablet.refreshToken, desk.token, desk.refreshToken);
    expect((await api().delete(`/api/user/sessions/${sidOf(tablet.token)}`, { token: desk.token })).status).toBe(204);
    expect((await api().delete("/api/user/sessions", { token: desk.token })).status).toBe(204);
    expect((await api().delete(`/api/user/sessions?userId=${alice.id}`, { token: people.admin.token })).status).toBe(204);
  }

  async function credentialFlows(): Promise<void> {
    const alice = await signIn(api(), people.alice);
    const path = `/api/user/${alice.id}`;
    const refused = await api().patch(path, { password: "never applied!", currentPassword: "a wrong guess" }, { token: alice.token });
    expect(refused.status).toBe(403);
    const changed = await api().patch(path, { password: NEW_PASSWORD, currentPassword: TEST_PASSWORD }, { token: alice.token });
    expect(changed.status).toBe(200);
    const moved = await api().patch(path, { email: "alice2@example.com", currentPassword: NEW_PASSWORD }, { token: changed.body.token });
    expect(moved.status).toBe(200);
    keep("never applied!", "a wrong guess", alice.token, alice.refreshToken, changed.body.token, changed.body.refreshToken);
    keep(moved.body.token, moved.body.refreshToken);
    expect((await api().patch(path, { role: "Editor" }, { token: people.admin.token })).status).toBe(200);
  }

  async function mailFlows(): Promise<void> {
    expect((await api().post("/api/user/forgot-password", { email: "alice2@example.com" }, { headers: CLIENT })).status).toBe(202);
    expect((await api().post("/api/user/forgot-password", { email: "ghost@example.com" }, { headers: CLIENT })).status).toBe(202);
    const reset = await api().post("/api/user/reset-password", {
      token: await mailTokenFor("alice2@example.com", 1),
      password: RESET_PASSWORD,
    });
    expect(reset.status).toBe(200);
    keep(reset.body.token, reset.body.refreshToken);
    people.bob = await signUp(api(), { email: "bob@example.com" });
    keep(people.bob.token, people.bob.refreshToken);
    expect((await api().post("/api/user/resend-verification", { email: "bob@example.com" })).status).toBe(202);
    expect((await api().post("/api/user/verify-email", { token: await mailTokenFor("bob@example.com", 1) })).status).toBe(200);
  }

  async function adminFlows(): Promise<void> {
    const token = people.admin.token;
    const carol = await api().post("/api/user", { email: "carol@example.com", password: TEST_PASSWORD }, { token, headers: CLIENT });
    expect(carol.status).toBe(201);
    people.carol = await signIn(api(), { email: "carol@example.com" });
    keep(people.carol.token, people.carol.refreshToken);
    const dave = await api().post("/api/user", { email: "dave@example.com" }, { token });
    expect(dave.status).toBe(201);
    people.dave = dave.body.item.id;
    await mailTokenFor("dave@example.com", 1);
    expect((await api().delete(`/api/user/${people.dave}`, { token })).status).toBe(204);
  }

  async function secondFactorFlows(): Promise<void> {
    const carol = people.carol;
    const totp = await enrolTotp(api(), test.auth, carol.token);
    keep(totp.secret, ...totp.recoveryCodes, ...totp.recoveryCodes.map((code) => code.replaceAll("-", "")));
    test.advance(30);
    const first = await passwordStep(api(), carol.email, carol.password);
    const wrong = wrongCode(test.auth, totp.secret);
    expect((await api().post("/api/user/login/mfa", { mfaToken: first, code: wrong }, { headers: CLIENT })).status).toBe(401);
    const code = currentCode(test.auth, totp.secret);
    const signedIn = await api().post("/api/user/login/mfa", { mfaToken: first, code });
    expect(signedIn.status).toBe(200);
    const second = await passwordStep(api(), carol.email, carol.password);
    const recovered = await api().post("/api/user/login/mfa", { mfaToken: second, recoveryCode: totp.recoveryCodes[0] });
    expect(recovered.status).toBe(200);
    keep(first, second, code, signedIn.body.token, signedIn.body.refreshToken, recovered.body.token, recovered.body.refreshToken);
    const off = (code: string) =>
      api().call("DELETE", "/api/user/mfa/totp", { currentPassword: carol.password, code }, { token: recovered.body.token });
    expect((await off(wrongCode(test.auth, totp.secret))).status).toBe(403);
    test.advance(30);
    const last = currentCode(test.auth, totp.secret);
    keep(last);
    expect((await off(last)).status).toBe(204);
  }

  async function lockFlow(): Promise<void> {
    people.erin = await signUp(api(), { email: "erin@example.com" });
    keep(people.erin.token, people.erin.refreshToken);
    const attempt = () => api().post("/api/user/login", { email: "erin@example.com", password: "guessing again" }, { headers: CLIENT });
    for (let index = 0; index < 5; index++) expect((await attempt()).status).toBe(401);
    expect((await attempt()).status).toBe(429);
    expect((await attempt()).status).toBe(429);
  }

  async function passkeyFlow(): Promise<void> {
    const log = test.auth.tools.events;
    if (!log) throw new Error("no event log");
    const events: RequestEvents = { write: async (trx, draft) => void (await log.write(trx, draft)), later: () => {} };
    const change = { user: { id: people.carol.id, email: people.carol.email }, sessionId: null, passkeyId: "pk-1", name: "Laptop" };
    await writeTransaction(test.database, (trx) => writePasskeyAdded(events, trx, change));
    await writeTransaction(test.database, (trx) => writePasskeyRemoved(events, trx, change));
  }

  /** Frank makes an API key and uses it; the administrator revokes it. */
  async function apiKeyFlow(): Promise<void> {
    people.frank = await signUp(api(), { email: "frank@example.com" });
    keep(people.frank.token, people.frank.refreshToken);
    const created = await api().post(
      "/api/user/api-keys",
      { name: "Exporter", scopes: ["post:read"] },
      { token: people.frank.token, headers: CLIENT },
    );
    expect(created.status).toBe(201);
    keep(created.body.key, created.body.key.slice(3));
    expect((await api().get("/api/user/me", { token: created.body.key })).status).toBe(200);
    expect((await api().delete(`/api/user/api-keys/${created.body.id}`, { token: people.admin.token })).status).toBe(204);
  }

  /** Goes through a provider's flow from `browser` (the flow cookie it holds), keeping what no event may hold. */
  async function throughProvider(browser: Browser, start: string, account: string) {
    keep(...browser.cookies.values());
    const callback = await provider.signIn(start, account);
    keep(callback.searchParams.get("code"), callback.searchParams.get("state"));
    const back = await browser.get(pathOf(callback), { headers: APP_HOST });
    keep(...browser.cookies.values());
    return back;
  }

  /** Gina signs up through the provider; Frank connects his account there, then disconnects it. */
  async function providerFlows(): Promise<void> {
    const gina = new Browser(api());
    const started = await gina.get("/api/user/oauth/acme", { headers: APP_HOST });
    expect((await throughProvider(gina, started.headers.get("location") ?? "", "gina")).headers.get("location")).toBe("/profile");
    const frank = new Browser(api());
    const link = await frank.call("POST", "/api/user/identities/acme", undefined, { token: people.frank.token, headers: APP_HOST });
    expect(link.status, link.text).toBe(200);
    expect((await throughProvider(frank, link.body.url, "frank-at-acme")).headers.get("location")).toBe("/profile?connected=acme");
    const [identity] = (await api().get("/api/user/identities", { token: people.frank.token })).body.items;
    expect((await api().delete(`/api/user/identities/${identity.id}`, { token: people.frank.token })).status).toBe(204);
  }

  /** Frank creates an organization and invites Hana; she joins, is promoted, leaves; Frank deletes it. */
  async function organizationFlows(): Promise<void> {
    const { frank } = people;
    const carol = await signUp(api(), { email: "hana@example.com" });
    keep(carol.token, carol.refreshToken);
    const created = await api().post("/api/orgs", { name: "Frankly" }, { token: frank.token, headers: CLIENT });
    expect(created.status, created.text).toBe(201);
    const organization = `/api/orgs/${created.body.organization.id}`;
    const invited = await api().post(`${organization}/invitations`, { email: carol.email, role: "Member" }, { token: frank.token });
    expect(invited.status, invited.text).toBe(201);
    const token = await mailTokenFor(carol.email, test.mail.to(carol.email).length + 1);
    expect((await api().post("/api/orgs/invitations/accept", { token }, { token: carol.token })).status).toBe(200);
    expect((await api().patch(`${organization}/members/${carol.id}`, { role: "Manager" }, { token: frank.token })).status).toBe(200);
    expect((await api().delete(`${organization}/members/${carol.id}`, { token: carol.token })).status).toBe(204);
    expect((await api().delete(organization, { token: frank.token })).status).toBe(204);
  }

  /** Every hash and sealed secret the database holds: no event may carry one. */
  async function storedSecrets(): Promise<void> {
    const db = test.database.db;
    const columns: [string, string][] = [
      ["user", "passwordHash"],
      ["domain_auth_sessions", "refreshHash"],
      ["domain_auth_spent_refresh_tokens", "hash"],
      ["domain_auth_tokens", "tokenHash"],
      ["domain_auth_recovery_codes", "codeHash"],
      ["domain_auth_mfa_tokens", "tokenHash"],
      ["domain_auth_totp", "secret"],
      ["domain_auth_api_keys", "keyHash"],
    ];
    for (const [table, column] of columns) {
      const rows = await db.selectFrom(table).select(column).execute();
      keep(...rows.map((row) => row[column]));
    }
  }

  beforeAll(async () => {
    for (const flow of [
      accountFlows,
      sessionFlows,
      credentialFlows,
      mailFlows,
      adminFlows,
      secondFactorFlows,
      lockFlow,
      passkeyFlow,
      apiKeyFlow,
      providerFlows,
      organizationFlows,
    ]) {
      await flow();
    }
    await eventually(async () => (await readAllEvents(api(), people.admin.token, { type: "invitation.sent" })).length === 2);
    await settled(test.auth);
    await storedSecrets();
    events = await readAllEvents(api(), people.admin.token);
  });

  it("records every type of docs/events.md", () => {
    const recorded = new Set(events.map((event) => event.type));
    expect(SECURITY_EVENT_TYPES.filter((type) => !recorded.has(type))).toEqual([]);
  });

  it("records API keys made and revoked, with the key's id and name, never the key", () => {
    const { admin, frank } = people;
    const created = eventOf(events, "api_key.created");
    expect(created).toMatchObject({
      userId: frank.id,
      actorId: frank.id,
      email: frank.email,
      address: "203.0.113.7",
      detail: { name: "Exporter" },
    });
    expect(created.sessionId).toBe(sidOf(frank.token));
    expect(eventOf(events, "api_key.revoked")).toMatchObject({
      userId: frank.id,
      actorId: admin.id,
      detail: { keyId: created.detail.keyId },
    });
  });

  it("records setup, registrations and sign-ins with who, from where and which session", () => {
    const { admin, alice } = people;
    expect(eventOf(events, "setup")).toMatchObject({ userId: admin.id, actorId: admin.id, email: admin.email, detail: { role: "Admin" } });
    expect(eventOf(events, "register", { userId: alice.id })).toMatchObject({ actorId: alice.id, detail: { role: "Reader" } });
    const signIn = eventOf(events, "login.succeeded", { sessionId: sidOf(alice.token) });
    expect(signIn).toMatchObject({ userId: alice.id, actorId: alice.id, email: alice.email, detail: { method: "password" } });
    expect(signIn.address).toBe("198.51.100.1");
    expect(eventOf(events, "login.succeeded", { sessionId: sidOf(admin.token) }).userId).toBe(admin.id);
    expect(new Date(signIn.at).toISOString()).toBe(signIn.at);
  });

  it("records refused sign-ins after their answer: a wrong password, an unknown email, a lock once", () => {
    const wrong = events.find(
      (event) => event.type === "login.failed" && event.detail.reason === "wrong_password" && event.userId === people.alice.id,
    );
    expect(wrong).toMatchObject({
      actorId: null,
      address: "203.0.113.7",
      userAgent: "EventsTest/1.0",
      detail: { reason: "wrong_password" },
    });
    expect(eventOf(events, "login.failed", { email: "nobody@example.com" })).toMatchObject({
      userId: null,
      detail: { reason: "unknown_email" },
    });
    expect(events.filter((event) => event.type === "login.failed" && event.email === "erin@example.com")).toHaveLength(5);
    const locked = events.filter((event) => event.type === "login.locked");
    expect(locked).toHaveLength(1);
    expect(locked[0]).toMatchObject({ userId: people.erin.id, email: "erin@example.com", detail: { retryAfter: expect.any(Number) } });
  });

  it("records sign-outs and revocations, and a replayed refresh token", () => {
    const { alice, admin } = people;
    expect(eventOf(events, "session.reuse_detected")).toMatchObject({ userId: alice.id, address: "203.0.113.7" });
    expect(eventOf(events, "logout")).toMatchObject({
      userId: alice.id,
      actorId: alice.id,
      email: alice.email,
      userAgent: "EventsTest/1.0",
    });
    const revoked = events.filter((event) => event.type === "session.revoked").map((event) => event.detail.scope);
    expect(revoked.sort()).toEqual(["all", "one", "others"]);
    expect(eventOf(events, "session.revoked", { actorId: admin.id })).toMatchObject({ userId: alice.id, detail: { scope: "all" } });
  });

  it("records credential, role and address changes with the actor", () => {
    const { alice, admin } = people;
    expect(eventOf(events, "login.failed", { userId: alice.id, actorId: null, email: "alice@example.com" })).toBeDefined();
    expect(events.some((event) => event.type === "login.failed" && event.detail.reason === "wrong_current_password")).toBe(true);
    expect(eventOf(events, "password.changed", { userId: alice.id })).toMatchObject({ actorId: alice.id });
    expect(eventOf(events, "email.changed")).toMatchObject({ email: "alice2@example.com", detail: { previousEmail: "alice@example.com" } });
    expect(eventOf(events, "role.changed")).toMatchObject({
      userId: alice.id,
      actorId: admin.id,
      detail: { from: "Reader", to: "Editor" },
    });
  });

  it("records the e-mail flows: reset requests (for unknown emails too), resets and verifications", () => {
    const { alice, bob } = people;
    expect(eventOf(events, "password.reset_requested", { email: "alice2@example.com" }).userId).toBe(alice.id);
    expect(eventOf(events, "password.reset_requested", { email: "ghost@example.com" }).userId).toBeNull();
    expect(eventOf(events, "password.reset")).toMatchObject({ userId: alice.id, detail: { invitation: false } });
    expect(eventOf(events, "login.succeeded", { userId: alice.id, email: "alice2@example.com" }).detail).toEqual({ method: "reset_link" });
    expect(eventOf(events, "email.verified", { userId: bob.id })).toMatchObject({ detail: { via: "verify" } });
  });

  it("records what an administrator does to users", () => {
    const { admin, carol, dave } = people;
    expect(eventOf(events, "user.created", { userId: carol.id })).toMatchObject({ actorId: admin.id, detail: { invitation: false } });
    expect(eventOf(events, "user.created", { userId: dave })).toMatchObject({ email: "dave@example.com", detail: { invitation: true } });
    expect(eventOf(events, "invitation.sent", { userId: dave })).toMatchObject({ actorId: admin.id });
    expect(eventOf(events, "invitation.sent", { email: "hana@example.com" })).toMatchObject({ userId: null, detail: { role: "Member" } });
    expect(eventOf(events, "user.deleted")).toMatchObject({ userId: dave, actorId: admin.id, email: "dave@example.com" });
  });

  it("records second factors turned on and off, their failures and the sign-ins they finish", () => {
    const { carol } = people;
    expect(eventOf(events, "mfa.enabled")).toMatchObject({ userId: carol.id, actorId: carol.id, detail: { method: "totp" } });
    expect(eventOf(events, "mfa.disabled")).toMatchObject({ userId: carol.id, detail: { method: "totp" } });
    expect(events.filter((event) => event.type === "mfa.failed").map((event) => event.detail.method)).toEqual(["totp", "totp"]);
    const methods = events
      .filter((event) => event.type === "login.succeeded" && event.userId === carol.id)
      .map((event) => event.detail.method);
    expect(methods.sort()).toEqual(["password", "recovery_code", "totp"]);
    expect(eventOf(events, "passkey.added")).toMatchObject({ userId: carol.id, detail: { passkeyId: "pk-1", name: "Laptop" } });
    expect(eventOf(events, "passkey.removed")).toMatchObject({ userId: carol.id });
  });

  it("never holds a password, token, code or hash", () => {
    expect(secrets.size).toBeGreaterThan(40);
    const texts = [...events, ...heard].map((event) => JSON.stringify(event));
    for (const text of texts) {
      for (const secret of secrets) expect(text.includes(secret), `${text} holds a secret`).toBe(false);
      expect(text).not.toMatch(/\$2[aby]\$|eyJ[A-Za-z0-9_-]{10,}|da_[A-Za-z0-9_-]{20,}|mfa_[A-Za-z0-9_-]{10,}/);
    }
  });

  it("hands every committed event to onEvent, once", () => {
    const heardIds = heard.map((event) => event.id);
    expect(new Set(heardIds).size).toBe(heardIds.length);
    expect([...heardIds].sort()).toEqual(events.map((event) => event.id).sort());
    const stored = new Map(events.map((event) => [event.id, event]));
    for (const event of heard) expect(event).toEqual(stored.get(event.id));
  });
});
