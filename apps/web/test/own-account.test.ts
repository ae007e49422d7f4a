import { PEER_ADDRESS_HEADER } from "@domain-auth/core";
import { apiPaths } from "@domain-auth/core/policy";
import { afterEach, describe, expect, test } from "vitest";
import { changeOwnCredentials, mayEditOwnAccount, ownEditableFields, ownRecordPath, saveOwnFields } from "../lib/domain-auth/own-account";
import type { UserProfile } from "../lib/domain-auth/profile";
import { SessionClient, type SessionState, type SignedInAnswer } from "../lib/domain-auth/session-client";
import { tabLocks } from "../lib/domain-auth/session-sync";
import { browserFetch, ChannelBus, CookieJar, FakeClock, ORIGIN, sampleDomainText, startCore, type TestCore } from "./support";

const ADMIN = { email: "admin@example.com", password: "correct horse battery" };
const ACCESS = "domain-auth.token";
const REFRESH = "domain-auth.refresh-token";

let running: TestCore | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

/** A core instance for the test, stopped after it. */
async function startTestCore(edit?: (yaml: string) => string, clock?: FakeClock): Promise<TestCore> {
  running = await startCore(await sampleDomainText(edit), clock ? { now: clock.now } : {});
  return running;
}

/** A browser signed in as the first administrator (set up with the cookie transport), with two tabs. */
async function signedInBrowser() {
  const clock = new FakeClock();
  const core = await startTestCore(undefined, clock);
  const jar = new CookieJar();
  const [locks, bus] = [tabLocks(), new ChannelBus<SessionState>()];
  const fetch = browserFetch(core.auth, jar);
  const client = new SessionClient({ clock, fetch, locks, channel: bus.join() });
  const other = new SessionClient({ clock, fetch: browserFetch(core.auth, jar), locks, channel: bus.join() });
  const answer = await client.request<SignedInAnswer>(apiPaths(core.view).setup, {
    method: "POST",
    body: { ...ADMIN, transport: "cookie" },
  });
  if (!answer.ok) throw new Error(`setup failed: ${JSON.stringify(answer.error)}`);
  client.signedIn(answer.data);
  await Promise.resolve();
  fetch.requests.length = 0;
  return { core, clock, jar, fetch, client, other, user: answer.data.user };
}

/** `POST login` with the body transport, as another program would. */
async function loginStatus(core: TestCore, email: string, password: string): Promise<number> {
  const request = new Request(new URL(apiPaths(core.view).login, ORIGIN), {
    method: "POST",
    headers: { "content-type": "application/json", [PEER_ADDRESS_HEADER]: "127.0.0.1" },
    body: JSON.stringify({ email, password }),
  });
  return (await core.auth.handle(request)).status;
}

function signedInUser(client: SessionClient): UserProfile | null {
  const state = client.snapshot();
  return state?.status === "signed-in" ? state.user : null;
}

describe("what a user may change of their own record", () => {
  const reader: UserProfile = { id: "u2", email: "rita@example.com", role: "Reader" };

  test("the sample domain lets a reader change their name, the only declared field besides the credentials and role", async () => {
    const core = await startTestCore();
    expect(mayEditOwnAccount(core.view, reader)).toBe(true);
    expect(ownEditableFields(core.view, reader).map((field) => field.name)).toEqual(["name"]);
  });

  test("where only the administrator may update users, a reader may change nothing", async () => {
    const onlyAdmin = (yaml: string) =>
      yaml.replace('update: [Admin, "@Owner"]\n      delete: [Admin]', "update: [Admin]\n      delete: [Admin]");
    const core = await startTestCore(onlyAdmin);
    expect(mayEditOwnAccount(core.view, reader)).toBe(false);
    expect(mayEditOwnAccount(core.view, { ...reader, role: "Admin" })).toBe(true);
  });
});

describe("changing one's own credentials with the cookie session", () => {
  test("a wrong current password is refused beside its input; the session stays as it was", async () => {
    const { core, jar, client, user } = await signedInBrowser();
    const cookies = new Map(jar.values);
    const result = await changeOwnCredentials(client, core.view, user, { password: "a brand new passphrase", currentPassword: "not it" });
    expect(result).toEqual({
      ok: false,
      error: expect.objectContaining({ code: "FORBIDDEN", issues: [{ path: ["currentPassword"], message: "is wrong" }] }),
    });
    expect(jar.values).toEqual(cookies);
    expect(await loginStatus(core, ADMIN.email, ADMIN.password)).toBe(200);
  });

  test("a new password: fresh cookies keep the browser signed in, the old password no longer signs in", async () => {
    const { core, jar, client, other, user } = await signedInBrowser();
    const before = { access: jar.values.get(ACCESS), refresh: jar.values.get(REFRESH) };
    const result = await changeOwnCredentials(client, core.view, user, {
      password: "a brand new passphrase",
      currentPassword: ADMIN.password,
    });
    expect(result).toMatchObject({ ok: true, user: { id: user.id, email: ADMIN.email } });
    expect(jar.values.get(ACCESS)).not.toBe(before.access);
    expect(jar.values.get(REFRESH)).not.toBe(before.refresh);
    expect((await client.call(apiPaths(core.view).me)).status).toBe(200);
    await Promise.resolve();
    expect(other.snapshot()).toMatchObject({ status: "signed-in", user: { id: user.id } });
    expect(await loginStatus(core, ADMIN.email, ADMIN.password)).toBe(401);
    expect(await loginStatus(core, ADMIN.email, "a brand new passphrase")).toBe(200);
  });

  test("a new email: every tab shows it, unconfirmed, and it signs in", async () => {
    const { core, client, other, user } = await signedInBrowser();
    const result = await changeOwnCredentials(client, core.view, user, { email: "ada@example.com", currentPassword: ADMIN.password });
    expect(result).toMatchObject({ ok: true, user: { email: "ada@example.com", emailVerified: false } });
    expect(signedInUser(client)).toMatchObject({ email: "ada@example.com" });
    await Promise.resolve();
    expect(signedInUser(other)).toMatchObject({ email: "ada@example.com" });
    expect((await client.call<{ user: UserProfile }>(apiPaths(core.view).me)).status).toBe(200);
    expect(await loginStatus(core, "ada@example.com", ADMIN.password)).toBe(200);
    expect(await loginStatus(core, ADMIN.email, ADMIN.password)).toBe(401);
  });

  test("an access token that expired meanwhile is renewed once under the lock, then the change goes through", async () => {
    const { core, clock, fetch, client, user } = await signedInBrowser();
    const stop = client.keepAlive(core.view);
    // Past the access token's life, without running the renewal timer: the PATCH meets a refused session.
    clock.time += 2 * 3600_000;
    const result = await changeOwnCredentials(client, core.view, user, {
      password: "a brand new passphrase",
      currentPassword: ADMIN.password,
    });
    stop();
    expect(result).toMatchObject({ ok: true });
    const path = ownRecordPath(core.view, user);
    expect(fetch.requests).toEqual([`PATCH ${path}`, `POST ${apiPaths(core.view).refresh}`, `PATCH ${path}`]);
    expect(client.snapshot()).toMatchObject({ status: "signed-in", renewAt: expect.any(Number) });
  });

  test("the email one already has changes nothing: no new session, the user as it was", async () => {
    const { core, jar, client, user } = await signedInBrowser();
    const access = jar.values.get(ACCESS);
    const result = await changeOwnCredentials(client, core.view, user, { email: ADMIN.email, currentPassword: "not even checked" });
    expect(result).toMatchObject({ ok: true, user: { email: ADMIN.email } });
    expect(jar.values.get(ACCESS)).toBe(access);
    expect(client.snapshot()).toMatchObject({ status: "signed-in", renewAt: expect.any(Number) });
  });
});

describe("saving one's own fields", () => {
  test("the name is saved without the password, and every tab shows it", async () => {
    const { core, client, other, user } = await signedInBrowser();
    const result = await saveOwnFields(client, core.view, user, { name: "Ada Lovelace" });
    expect(result).toMatchObject({ ok: true, user: { name: "Ada Lovelace" } });
    expect(signedInUser(client)).toMatchObject({ name: "Ada Lovelace" });
    await Promise.resolve();
    expect(signedInUser(other)).toMatchObject({ name: "Ada Lovelace" });
  });

  test("a refusal comes back with the API's issues, for the form to place", async () => {
    const { core, client, user } = await signedInBrowser();
    const result = await saveOwnFields(client, core.view, user, { name: 12 });
    expect(result).toMatchObject({ ok: false, error: { code: "INVALID_BODY", issues: [{ path: ["name"] }] } });
    expect(signedInUser(client)).not.toHaveProperty("name", 12);
  });
});
