import { readFile } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";
import { setUpAdmin, signUp } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import { Secret, TOTP } from "otpauth";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, openTab, saveScreenshot, WAIT_MS, watchPolicy } from "./support/browser.js";
import { ADMIN, api, fieldErrorText, fillAccountForm, mainNav, profileValue, scriptStorage, signIn, signOut } from "./support/flows.js";

/**
 * Two-step verification in the pages (docs/web.md#pages, docs/mfa.md) in Chromium against the production server:
 * turning TOTP on and off on /profile, the second step of /login with a code or a recovery code, and
 * the enrolment a required role goes through at setup and at sign-in. Codes are computed here from
 * the key the page shows, as an authenticator app would.
 */

const BLOG = await readFile(new URL("../apps/web/domain.yaml", import.meta.url), "utf8");

/** The blog with an `auth.mfa` block. */
function blogWithMfa(mfa: string): string {
  const changed = BLOG.replace(/\n {2}endpoints: /, `\n  mfa: ${mfa}\n  endpoints: `);
  if (changed === BLOG) throw new Error("the sample domain.yaml has no endpoints line to put auth.mfa before");
  return changed;
}

const STEP_MS = 30_000;
/** The last time step whose code each secret has used: the server accepts a step once. */
const usedSteps = new Map<string, number>();

function codeAt(secret: string, timestamp: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30, timestamp });
}

/**
 * A code of `secret` the server has not seen. The server accepts the codes of its step and of the
 * steps either side, each only after every step accepted before: the current step's, or, when that
 * one was used, the next step's at once; only when the next step's was used too does this wait for
 * the next step to begin (the wait is computed, at most one step).
 */
async function freshCode(secret: string): Promise<string> {
  const used = usedSteps.get(secret) ?? -1;
  if (used > Math.floor(Date.now() / STEP_MS)) await delay(used * STEP_MS - Date.now() + 20);
  const step = Math.max(Math.floor(Date.now() / STEP_MS), used + 1);
  usedSteps.set(secret, step);
  return codeAt(secret, step * STEP_MS);
}

/** A code the server refuses: none of those of the steps it accepts now. */
function wrongCode(secret: string): string {
  const now = Date.now();
  const accepted = new Set([-1, 0, 1, 2].map((offset) => codeAt(secret, now + offset * STEP_MS)));
  let code = 0;
  while (accepted.has(String(code).padStart(6, "0"))) code++;
  return String(code).padStart(6, "0");
}

/** The profile's "Two-step verification" section. */
function twoStepSection(page: Page): Locator {
  return page.getByRole("main").getByRole("region", { name: "Two-step verification", exact: true });
}

/** The status the section shows ("On" or "Off"), once it shows one. */
async function twoStepStatus(page: Page): Promise<string | null> {
  return twoStepSection(page).locator('dt:text-is("Status") + dd').textContent();
}

/** The recovery codes a page shows, once all ten are there. */
async function shownRecoveryCodes(scope: Locator): Promise<string[]> {
  const items = scope.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await items.nth(9).waitFor();
  return items.allTextContents();
}

/**
 * Scans nothing but reads the key beside the QR code, checks the code is an image (the server's SVG
 * as a `data:` URL, no markup of the page), and confirms with a code of that key.
 */
async function setUpAuthenticator(scope: Locator): Promise<string> {
  const qr = scope.getByRole("img", { name: /QR code/ });
  expect(await qr.getAttribute("src")).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
  expect(await scope.locator("svg").count()).toBe(0);
  const secret = (await scope.locator('dt:text-is("Setup key") + dd').textContent())?.replace(/\s/g, "") ?? "";
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await scope.getByLabel("Authentication code").fill(await freshCode(secret));
  await scope.getByRole("button", { name: "Turn on" }).click();
  return secret;
}

/** Signs in with the password and waits for the second step's code input. */
async function passwordStep(page: Page, path = "/login"): Promise<Locator> {
  await page.goto(path);
  await fillAccountForm(page, { email: ADMIN.email, password: ADMIN.password });
  const main = page.getByRole("main");
  await main.getByRole("button", { name: "Sign in", exact: true }).click();
  await main.getByRole("heading", { name: "Two-step verification" }).waitFor();
  return main;
}

/** Submits the second step with `value` in the input named `label` and waits for the server's answer. */
async function verify(main: Locator, label: string, value: string): Promise<number> {
  await main.getByLabel(label).fill(value);
  const [response] = await Promise.all([
    main.page().waitForResponse((answer) => answer.url().endsWith("/api/user/login/mfa")),
    main.getByRole("button", { name: "Verify" }).click(),
  ]);
  return response.status();
}

describe("two-step verification in the browser", () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let secret = "";
  let recoveryCodes: string[] = [];
  /** What the browser reported about the pages' Content-Security-Policy. */
  let policyReports: string[] = [];

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), launchBrowser()]);
    await setUpAdmin(app.url, ADMIN);
    page = await openTab(browser, app.url);
    policyReports = await watchPolicy(page);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  test("turning it on in /profile: a QR image and its key, a code, then ten recovery codes once; other devices are signed out", async () => {
    const other = await openTab(browser, app.url, { userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0" });
    await signIn(other, ADMIN);
    await signIn(page, ADMIN);
    const section = twoStepSection(page);
    expect(await twoStepStatus(page)).toBe("Off");
    const devices = page.getByRole("region", { name: "Signed-in devices" }).getByRole("listitem");
    // This tab, the other device, and the session of the API's setup.
    await expect.poll(() => devices.count(), { timeout: WAIT_MS }).toBe(3);

    await section.getByRole("button", { name: "Turn on two-step verification" }).click();
    await saveScreenshot(page, "mfa-turn-on");
    secret = await setUpAuthenticator(section);
    recoveryCodes = await shownRecoveryCodes(section);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}(?:-[a-z2-9]{4}){3}$/);
    await section.getByRole("status").filter({ hasText: "Two-step verification is on." }).waitFor();
    await saveScreenshot(page, "mfa-recovery-codes");

    const [download] = await Promise.all([page.waitForEvent("download"), section.getByRole("link", { name: "Download as .txt" }).click()]);
    expect(download.suggestedFilename()).toBe("recovery-codes.txt");
    const file = await readFile(await download.path(), "utf8");
    expect(file).toContain(`Recovery codes for ${ADMIN.email}`);
    for (const code of recoveryCodes) expect(file).toContain(code);

    // The server signed out the other devices; the list is loaded again.
    await expect.poll(() => devices.count(), { timeout: WAIT_MS }).toBe(1);
    await other.goto("/profile");
    await other.getByText("Your session is no longer valid. Please sign in again.").waitFor();
    await other.context().close();

    await section.getByRole("button", { name: "Done" }).click();
    expect(await twoStepStatus(page)).toBe("On");
    expect(await section.getByRole("list", { name: "Recovery codes" }).count()).toBe(0);
    await page.reload();
    expect(await twoStepStatus(page)).toBe("On");
    expect(await (await page.request.get("/profile")).text()).not.toContain(recoveryCodes[0]);
    // The QR image, the download link and the forms work under the pages' policy.
    expect(policyReports).toEqual([]);
  });

  test("signing in asks for a code after the password: a wrong one is shown at its input, a right one goes on to ?next=", async () => {
    await signOut(page);
    const main = await passwordStep(page, "/login?next=%2Fadmin");
    const input = main.getByLabel("Authentication code");
    expect(await input.getAttribute("autocomplete")).toBe("one-time-code");
    expect(await input.getAttribute("inputmode")).toBe("numeric");
    expect(await input.evaluate((element) => element === document.activeElement)).toBe(true);
    await saveScreenshot(page, "login-second-step");

    expect(await verify(main, "Authentication code", wrongCode(secret))).toBe(401);
    expect(await fieldErrorText(main.getByLabel("Authentication code"))).toMatch(/wrong, expired or already used/);
    expect(await verify(main, "Authentication code", await freshCode(secret))).toBe(200);
    await page.waitForURL("**/admin");
    await mainNav(page).getByText(ADMIN.email).waitFor();
    expect(await scriptStorage(page)).toEqual({ cookies: "", session: [], local: [] });
  });

  test("a recovery code signs in instead, once: the used one is refused, another one works", async () => {
    await signOut(page);
    let main = await passwordStep(page);
    await main.getByRole("button", { name: "Use a recovery code instead" }).click();
    expect(await verify(main, "Recovery code", recoveryCodes[0] ?? "")).toBe(200);
    await page.waitForURL("**/profile");

    await signOut(page);
    main = await passwordStep(page);
    await main.getByRole("button", { name: "Use a recovery code instead" }).click();
    expect(await verify(main, "Recovery code", recoveryCodes[0] ?? "")).toBe(401);
    expect(await fieldErrorText(main.getByLabel("Recovery code"))).toMatch(/wrong, expired or already used/);
    expect(await verify(main, "Recovery code", (recoveryCodes[1] ?? "").toUpperCase())).toBe(200);
    await page.waitForURL("**/profile");
  });

  test("a second step whose sign-in expired goes back to the password, saying so", async () => {
    await signOut(page);
    const main = await passwordStep(page);
    // The server's answer to a dead mfaToken, without waiting five minutes: the step sends one it never issued.
    await page.route("**/api/user/login/mfa", (route) => {
      const body = JSON.parse(route.request().postData() ?? "{}") as Record<string, unknown>;
      return route.continue({ postData: JSON.stringify({ ...body, mfaToken: "mfa_expired" }) });
    });
    expect(await verify(main, "Authentication code", wrongCode(secret))).toBe(401);
    await page.unroute("**/api/user/login/mfa");
    await main.getByRole("alert").filter({ hasText: "This sign-in has expired" }).waitFor();
    await main.getByLabel("Email").waitFor();
    expect(await main.getByLabel("Authentication code").count()).toBe(0);
  });

  test("new recovery codes need the password, and replace the old set", async () => {
    await page.getByRole("main").getByLabel("Email").fill(ADMIN.email);
    await page.getByRole("main").getByLabel("Password", { exact: true }).fill(ADMIN.password);
    const main = page.getByRole("main");
    await main.getByRole("button", { name: "Sign in", exact: true }).click();
    await main.getByRole("button", { name: "Use a recovery code instead" }).click();
    expect(await verify(main, "Recovery code", recoveryCodes[2] ?? "")).toBe(200);
    await page.waitForURL("**/profile");

    const section = twoStepSection(page);
    await section.getByRole("button", { name: "New recovery codes" }).click();
    await section.getByLabel("Current password").fill("not my password");
    await section.getByRole("button", { name: "Create new codes" }).click();
    expect(await fieldErrorText(section.getByLabel("Current password"))).toBe("Current password is wrong.");
    await section.getByLabel("Current password").fill(ADMIN.password);
    await section.getByRole("button", { name: "Create new codes" }).click();
    const renewed = await shownRecoveryCodes(section);
    expect(renewed.filter((code) => recoveryCodes.includes(code))).toEqual([]);
    recoveryCodes = renewed;
    await section.getByRole("button", { name: "Done" }).click();
    expect(await twoStepStatus(page)).toBe("On");
  });

  test("turning it off needs the password and a current code; then the password alone signs in", async () => {
    const section = twoStepSection(page);
    await section.getByRole("button", { name: "Turn off" }).click();
    await section.getByLabel("Current password").fill(ADMIN.password);
    await section.getByLabel("Authentication code").fill(await freshCode(secret));
    await section.getByRole("button", { name: "Turn off" }).click();
    await section.getByRole("status").filter({ hasText: "Two-step verification is off." }).waitFor();
    expect(await twoStepStatus(page)).toBe("Off");
    await signOut(page);
    await signIn(page, ADMIN);
    expect(await twoStepStatus(page)).toBe("Off");
  });

  test("too many wrong codes: the second step says how long to wait", async () => {
    const reader = await signUp(app.url, { email: "rita@example.com", password: "reading all day" });
    const started = await api(app.url, "/user/mfa/totp", { method: "POST", token: reader.token });
    const readerSecret = String(started.body.secret);
    const confirmed = await api(app.url, "/user/mfa/totp/confirm", { body: { code: await freshCode(readerSecret) }, token: reader.token });
    expect(confirmed.status).toBe(200);

    const tab = await openTab(browser, app.url);
    await tab.goto("/login");
    await fillAccountForm(tab, { email: reader.email, password: reader.password });
    const main = tab.getByRole("main");
    await main.getByRole("button", { name: "Sign in", exact: true }).click();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7 && !statuses.includes(429); attempt++) {
      statuses.push(await verify(main, "Authentication code", wrongCode(readerSecret)));
    }
    expect(statuses.at(-1)).toBe(429);
    await main
      .getByRole("alert")
      .filter({ hasText: /Try again in 10 minutes\./ })
      .waitFor();
    await saveScreenshot(tab, "login-second-step-throttled");
    await tab.context().close();
  });
});

describe("a role that must use a second factor", () => {
  let app: RunningApp;
  let browser: Browser;
  let adminCodes: string[] = [];

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp({ domain: blogWithMfa("{ required: [Admin] }") }), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  test("first run: setup, then setting up the authenticator, the recovery codes, and the profile, signed in", async () => {
    const page = await openTab(browser, app.url);
    const policyReports = await watchPolicy(page);
    await page.goto("/setup");
    await fillAccountForm(page, ADMIN);
    const main = page.getByRole("main");
    await main.getByRole("button", { name: "Create administrator" }).click();
    await main.getByRole("heading", { name: "Set up two-step verification" }).waitFor();
    await saveScreenshot(page, "setup-enrolment");
    expect(await page.context().cookies()).toEqual([]);

    await setUpAuthenticator(main);
    await main.getByRole("heading", { name: "Two-step verification is on" }).waitFor();
    adminCodes = await shownRecoveryCodes(main);
    expect(adminCodes).toHaveLength(10);
    expect((await page.context().cookies()).map((cookie) => [cookie.name, cookie.httpOnly]).sort()).toEqual([
      ["domain-auth.refresh-token", true],
      ["domain-auth.token", true],
    ]);
    await main.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL("**/profile");
    expect(await profileValue(page, ADMIN.email, "Role")).toBe("Admin");
    expect(await twoStepStatus(page)).toBe("On");
    await mainNav(page).getByRole("link", { name: "Admin" }).waitFor();
    expect(await scriptStorage(page)).toEqual({ cookies: "", session: [], local: [] });
    expect(policyReports).toEqual([]);

    // The administrator's next sign-in asks for the second factor (the code's step is spent: a recovery code).
    await signOut(page);
    const step = await passwordStep(page);
    expect(await step.getByLabel("Authentication code").count()).toBe(1);
    await step.getByRole("button", { name: "Use a recovery code instead" }).click();
    expect(await verify(step, "Recovery code", adminCodes[0] ?? "")).toBe(200);
    await page.waitForURL("**/profile");
    await page.context().close();
  });

  test("a user given the required role sets up the authenticator at their next sign-in, on /login", async () => {
    const editor = { email: "eve@example.com", password: "editing all day" };
    const registered = await api(app.url, "/user/register", { body: editor });
    const id = String((registered.body.user as { id: string }).id);
    // The administrator, with a recovery code for the second step, gives the role; the new Admin has no factor yet.
    const login = await api(app.url, "/user/login", { body: { email: ADMIN.email, password: ADMIN.password } });
    expect(login.body.mfaRequired).toBe(true);
    const second = await api(app.url, "/user/login/mfa", { body: { mfaToken: login.body.mfaToken, recoveryCode: adminCodes[1] } });
    const promoted = await api(app.url, `/user/${id}`, { method: "PATCH", body: { role: "Admin" }, token: String(second.body.token) });
    expect(promoted.status).toBe(200);

    const page = await openTab(browser, app.url);
    await page.goto("/login?next=%2Fadmin");
    await fillAccountForm(page, editor);
    const main = page.getByRole("main");
    await main.getByRole("button", { name: "Sign in", exact: true }).click();
    await main.getByRole("heading", { name: "Set up two-step verification" }).waitFor();
    await setUpAuthenticator(main);
    await shownRecoveryCodes(main);
    await main.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL("**/admin");
    await mainNav(page).getByText(editor.email).waitFor();
    await page.context().close();
  });
});

describe("without TOTP", () => {
  test("with auth.mfa.totp false, /profile has no two-step verification and sign-in asks for none", async () => {
    const [app, browser] = await Promise.all([startApp({ domain: blogWithMfa("{ totp: false }") }), launchBrowser()]);
    try {
      await setUpAdmin(app.url, ADMIN);
      const page = await openTab(browser, app.url);
      await signIn(page, ADMIN);
      await page.getByRole("region", { name: "Signed-in devices" }).waitFor();
      expect(await twoStepSection(page).count()).toBe(0);
    } finally {
      await browser.close();
      await app.stop();
    }
  });
});
