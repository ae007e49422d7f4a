import { setUpAdmin } from "@domain-auth/test-support/accounts";
import { Secret, TOTP } from "otpauth";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, openTab } from "./support/browser.js";
import { type DevServer, startDevServer } from "./support/dev-server.js";
import { ADMIN, signIn } from "./support/flows.js";

/**
 * The pages under `next dev`, as a developer first meets them: React's development checks run (every
 * effect twice on mount, duplicate keys reported), so what only goes wrong there is seen here.
 */

/** React's warning for two siblings with one key, in the server's output or the browser's console. */
const DUPLICATE_KEY = /Encountered two children with the same key/;

/** Waits until a page has compiled and answers (next dev compiles a route on its first request). */
async function compiled(server: DevServer, path: string): Promise<void> {
  const answer = await fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(180_000) });
  expect(answer.status, server.output().slice(-2000)).toBeLessThan(500);
}

describe("next dev", () => {
  let server: DevServer;
  let browser: Browser;
  let page: Page;
  const consoleLines: string[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startDevServer(), launchBrowser()]);
    await setUpAdmin(server.url, ADMIN);
    for (const path of ["/login", "/profile", "/", "/admin"]) await compiled(server, path);
    page = await openTab(browser, server.url);
    page.context().setDefaultTimeout(60_000);
    page.on("console", (message) => consoleLines.push(message.text()));
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  test("turns on two-step verification with a code of the key the page shows (its effect runs twice)", { timeout: 300_000 }, async () => {
    await signIn(page, ADMIN);
    const starts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().endsWith("/api/user/mfa/totp")) starts.push(request.url());
    });
    const section = page.getByRole("main").getByRole("region", { name: "Two-step verification", exact: true });
    const [started] = await Promise.all([
      page.waitForResponse((answer) => answer.url().endsWith("/api/user/mfa/totp") && answer.request().method() === "POST"),
      section.getByRole("button", { name: "Turn on two-step verification" }).click(),
    ]);
    expect(started.status()).toBe(200);
    const key = section.locator('dt:text-is("Setup key") + dd');
    await key.waitFor();
    const secret = (await key.textContent())?.replace(/\s/g, "") ?? "";
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const code = TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
    await section.getByLabel("Authentication code").fill(code);
    const [confirmed] = await Promise.all([
      page.waitForResponse((answer) => answer.url().endsWith("/api/user/mfa/totp/confirm")),
      section.getByRole("button", { name: "Turn on" }).click(),
    ]);
    expect(confirmed.status(), await confirmed.text()).toBe(200);
    await section.getByRole("status").filter({ hasText: "Two-step verification is on." }).waitFor();
    // One start for one click, though React ran the page's effect twice: two starts raced, and the
    // page could show the secret the server had already replaced.
    expect(starts).toHaveLength(1);
  });

  test("renders the pages without React's duplicate-key warning, in the server's output or the browser's console", {
    timeout: 300_000,
  }, async () => {
    for (const path of ["/", "/profile", "/admin"]) {
      await page.goto(path);
      await page.getByRole("main").waitFor();
    }
    expect(server.output().match(DUPLICATE_KEY)?.input?.slice(0, 3000) ?? "").toBe("");
    expect(consoleLines.filter((line) => DUPLICATE_KEY.test(line))).toEqual([]);
  });
});
