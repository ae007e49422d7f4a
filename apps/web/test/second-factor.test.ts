import { apiPaths } from "@domain-auth/core/policy";
import { afterEach, describe, expect, test } from "vitest";
import {
  confirmTotp,
  disableTotp,
  groupSecret,
  qrImageSource,
  recoveryCodesText,
  regenerateRecoveryCodes,
  type SignInStep,
  secondStepOf,
  startTotp,
  takeSignInAnswer,
  verifySecondFactor,
} from "../lib/domain-auth/second-factor";
import { SessionClient } from "../lib/domain-auth/session-client";
import { type BrowserFetch, browserFetch, CookieJar, FakeClock, sampleDomainText, startCore, type TestCore, totpCode } from "./support";

const ADMIN = { email: "admin@example.com", password: "correct horse battery" };
const STEP_MS = 30_000;

let core: TestCore | undefined;
afterEach(async () => {
  await core?.stop();
  core = undefined;
});

/** A tab of a test browser: a session client over one cookie jar, on a clock the test moves (the server's too). */
interface Tab {
  readonly core: TestCore;
  readonly clock: FakeClock;
  readonly jar: CookieJar;
  readonly fetch: BrowserFetch;
  readonly client: SessionClient;
}

async function openTab(edit?: (yaml: string) => string): Promise<Tab> {
  const clock = new FakeClock();
  core = await startCore(await sampleDomainText(edit), { now: clock.now });
  const jar = new CookieJar();
  const fetch = browserFetch(core.auth, jar);
  return { core, clock, jar, fetch, client: new SessionClient({ clock, fetch }) };
}

/** The blog, its administrators required to use a second factor. */
const requireAdminFactor = (yaml: string) => yaml.replace("  endpoints: {", "  mfa: { required: [Admin] }\n  endpoints: {");

/** Posts to a sign-in endpoint with the cookie transport, as `signIn` does, and reads the answer as it does. */
async function signInWith(tab: Tab, endpoint: "login" | "setup", body: object): Promise<SignInStep> {
  const result = await tab.client.request(apiPaths(tab.core.view)[endpoint], { method: "POST", body: { ...body, transport: "cookie" } });
  if (!result.ok) throw new Error(`${endpoint} failed: ${JSON.stringify(result.error)}`);
  return takeSignInAnswer(tab.client, result.data);
}

/** Sets up the administrator, signed in, and turns TOTP on from the profile: the secret and the recovery codes. */
async function adminWithTotp(tab: Tab): Promise<{ secret: string; recoveryCodes: readonly string[] }> {
  expect(await signInWith(tab, "setup", ADMIN)).toEqual({ kind: "signed-in" });
  const started = await startTotp(tab.client, tab.core.view);
  if (!started.ok) throw new Error(JSON.stringify(started.error));
  const confirmed = await confirmTotp(tab.client, tab.core.view, totpCode(started.data.secret, tab.clock.time));
  if (!confirmed.ok) throw new Error(JSON.stringify(confirmed.error));
  await tab.client.signOut(tab.core.view);
  // The confirming code's step is spent: the next sign-in needs a code of a later one.
  tab.clock.advance(STEP_MS);
  return { secret: started.data.secret, recoveryCodes: confirmed.data.recoveryCodes };
}

describe("the second step of a sign-in", () => {
  test("a right password answers the step and no session; a wrong code is refused; a right one signs the tab in with cookies", async () => {
    const tab = await openTab();
    const { secret, recoveryCodes } = await adminWithTotp(tab);
    expect(recoveryCodes).toHaveLength(10);

    const step = await signInWith(tab, "login", ADMIN);
    expect(step).toEqual({
      kind: "second-factor",
      mfaToken: expect.stringMatching(/^mfa_/),
      methods: ["totp", "recovery"],
      expiresIn: 300,
    });
    expect([...tab.jar.values.keys()]).toEqual([]);
    expect(tab.client.snapshot()).toEqual({ status: "signed-out", expired: false });
    if (step.kind !== "second-factor") return;

    const right = totpCode(secret, tab.clock.time);
    const wrong = right === "000000" ? "000001" : "000000";
    const refused = await verifySecondFactor(tab.client, tab.core.view, step.mfaToken, { code: wrong });
    expect(refused && [refused.status, refused.error.code]).toEqual([401, "INVALID_MFA_CODE"]);

    expect(await verifySecondFactor(tab.client, tab.core.view, step.mfaToken, { code: right })).toBeNull();
    expect(tab.client.snapshot()).toMatchObject({ status: "signed-in", user: { email: ADMIN.email } });
    expect([...tab.jar.values.keys()].sort()).toEqual(["domain-auth.refresh-token", "domain-auth.token"]);

    const spent = await verifySecondFactor(tab.client, tab.core.view, step.mfaToken, { code: right });
    expect(spent?.error.code).toBe("INVALID_MFA_TOKEN");
  });

  test("a recovery code signs in once", async () => {
    const tab = await openTab();
    const { recoveryCodes } = await adminWithTotp(tab);
    const [code = ""] = recoveryCodes;
    const first = await signInWith(tab, "login", ADMIN);
    if (first.kind !== "second-factor") throw new Error(first.kind);
    expect(await verifySecondFactor(tab.client, tab.core.view, first.mfaToken, { recoveryCode: code.toUpperCase() })).toBeNull();
    await tab.client.signOut(tab.core.view);
    const again = await signInWith(tab, "login", ADMIN);
    if (again.kind !== "second-factor") throw new Error(again.kind);
    const used = await verifySecondFactor(tab.client, tab.core.view, again.mfaToken, { recoveryCode: code });
    expect(used?.error.code).toBe("INVALID_MFA_CODE");
  });

  test("new recovery codes and turning off ask for the password; off, the password alone signs in", async () => {
    const tab = await openTab();
    const { secret, recoveryCodes } = await adminWithTotp(tab);
    const step = await signInWith(tab, "login", ADMIN);
    if (step.kind !== "second-factor") throw new Error(step.kind);
    expect(await verifySecondFactor(tab.client, tab.core.view, step.mfaToken, { code: totpCode(secret, tab.clock.time) })).toBeNull();

    const wrongPassword = await regenerateRecoveryCodes(tab.client, tab.core.view, "not the password");
    expect(wrongPassword.ok ? null : [wrongPassword.status, wrongPassword.error.issues?.[0]?.path]).toEqual([403, ["currentPassword"]]);
    const renewed = await regenerateRecoveryCodes(tab.client, tab.core.view, ADMIN.password);
    expect(renewed.ok && renewed.data.recoveryCodes.filter((code) => recoveryCodes.includes(code))).toEqual([]);

    tab.clock.advance(STEP_MS);
    const off = await disableTotp(tab.client, tab.core.view, { currentPassword: ADMIN.password, code: totpCode(secret, tab.clock.time) });
    expect(off.ok && off.status).toBe(204);
    await tab.client.signOut(tab.core.view);
    expect(await signInWith(tab, "login", ADMIN)).toEqual({ kind: "signed-in" });
  });
});

describe("a required enrolment", () => {
  test("setup answers the enrolment; its token, as the bearer, starts and confirms TOTP, which signs the tab in", async () => {
    const tab = await openTab(requireAdminFactor);
    const step = await signInWith(tab, "setup", ADMIN);
    if (step.kind !== "enrolment") throw new Error(step.kind);
    expect(tab.client.snapshot()).toBeNull();
    const options = { enrolmentToken: step.mfaToken };

    const elsewhere = await tab.client.request(apiPaths(tab.core.view).me, { bearer: step.mfaToken ?? "" });
    expect(elsewhere.ok ? null : elsewhere.status).toBe(401);
    const started = await startTotp(tab.client, tab.core.view, options);
    if (!started.ok) throw new Error(JSON.stringify(started.error));
    const wrong = await confirmTotp(tab.client, tab.core.view, "12345", options);
    expect(wrong.ok ? null : [wrong.status, wrong.error.issues?.[0]?.path]).toEqual([400, ["code"]]);
    expect([...tab.jar.values.keys()]).toEqual([]);

    const confirmed = await confirmTotp(tab.client, tab.core.view, totpCode(started.data.secret, tab.clock.time), options);
    expect(confirmed.ok && Object.keys(confirmed.data)).toEqual(["recoveryCodes"]);
    expect(tab.client.snapshot()).toMatchObject({ status: "signed-in", user: { email: ADMIN.email, role: "Admin" } });
    expect([...tab.jar.values.keys()].sort()).toEqual(["domain-auth.refresh-token", "domain-auth.token"]);

    const again = await startTotp(tab.client, tab.core.view, options);
    expect(again.ok ? null : again.status).toBe(401);
  });
});

describe("reading and showing", () => {
  test("secondStepOf: the step a sign-in answer asks for, or null for a session", () => {
    expect(secondStepOf({ user: { id: "u1" }, expiresIn: 3600 })).toBeNull();
    expect(secondStepOf(null)).toBeNull();
    expect(secondStepOf({ mfaEnrollmentRequired: true, mfaToken: "mfa_x" })).toEqual({ kind: "enrolment", mfaToken: "mfa_x" });
    expect(secondStepOf({ mfaRequired: true, mfaToken: "mfa_y", methods: ["totp"], expiresIn: 120 })).toEqual({
      kind: "second-factor",
      mfaToken: "mfa_y",
      methods: ["totp"],
      expiresIn: 120,
    });
  });

  test("the QR code is an image's data: URL, never markup; the key is grouped; the codes' file names the account", () => {
    const source = qrImageSource('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect(source.startsWith("data:image/svg+xml;charset=utf-8,")).toBe(true);
    expect(source).not.toMatch(/[<>"]/);
    expect(groupSecret("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP")).toBe("JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP");
    expect(recoveryCodesText(["aaaa-bbbb", "cccc-dddd"], { account: "ada@example.com" }).split("\n")).toEqual([
      "Recovery codes for ada@example.com",
      "Each code works once, in place of a code of your authenticator app.",
      "",
      "aaaa-bbbb",
      "cccc-dddd",
      "",
    ]);
  });

  test("the test's own TOTP matches RFC 6238's SHA-1 vector", () => {
    // The secret "12345678901234567890" at 59 s: 94287082, whose last six digits a 6-digit app shows.
    expect(totpCode("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", 59_000)).toBe("287082");
  });
});
