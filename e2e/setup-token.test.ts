import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, openTab, saveScreenshot } from "./support/browser.js";
import { ADMIN, api, fieldErrorText, fillAccountForm, profileValue } from "./support/flows.js";

const SETUP_TOKEN = "a-setup-token-only-the-operator-knows";
const TOKEN_LINE = /setup needs the SETUP_TOKEN you set: create the first administrator at http:\/\/localhost:\d+\/setup/;

describe("first run with SETUP_TOKEN", () => {
  const dir = mkdtempSync(join(tmpdir(), "domain-auth-e2e-"));
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp({ dir, env: { SETUP_TOKEN } }), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("the server says at start that setup needs the token, without printing it", async () => {
    expect(app.output()).toMatch(TOKEN_LINE);
    expect(app.output()).not.toContain(SETUP_TOKEN);
    expect((await api(app.url, "/user/setup")).body).toEqual({ setupRequired: true, setupTokenRequired: true });
  });

  test("/setup asks for the token, refuses a wrong one beside its input, then signs in with the right one", async () => {
    const page = await openTab(browser, app.url);
    await page.goto("/setup");
    const main = page.getByRole("main");
    const tokenInput = main.getByLabel("Setup token");
    await tokenInput.waitFor();
    expect(await tokenInput.getAttribute("type")).toBe("password");
    expect(await tokenInput.getAttribute("aria-invalid")).toBeNull();
    await saveScreenshot(page, "first-run-setup-token");

    await tokenInput.fill("not-the-setup-token-at-all");
    await fillAccountForm(page, ADMIN);
    await main.getByRole("button", { name: "Create administrator" }).click();
    expect(await fieldErrorText(tokenInput)).toMatch(/SETUP_TOKEN/);
    expect(await main.getByLabel("Email").getAttribute("aria-invalid")).toBeNull();
    expect(await main.getByRole("alert").textContent()).toBeTruthy();
    expect(new URL(page.url()).pathname).toBe("/setup");
    expect((await api(app.url, "/user/setup")).body.setupRequired).toBe(true);
    await saveScreenshot(page, "first-run-setup-token-wrong");

    await tokenInput.fill(SETUP_TOKEN);
    await main.getByRole("button", { name: "Create administrator" }).click();
    await page.waitForURL("**/profile");
    expect(await profileValue(page, ADMIN.email, "Role")).toBe("Admin");
    expect(await profileValue(page, ADMIN.email, "Email")).toBe(ADMIN.email);
    await page.context().close();
    expect((await api(app.url, "/user/setup")).body).toEqual({ setupRequired: false });
  });

  test("once setup is done, a restart no longer mentions the token", async () => {
    await app.stop();
    app = await startApp({ dir, env: { SETUP_TOKEN } });
    expect(app.output()).toMatch(/domain-auth: ready at http:\/\/localhost:\d+\//);
    expect(app.output()).not.toContain("SETUP_TOKEN");
  });
});
