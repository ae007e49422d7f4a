import { ADMIN, setUpAdmin } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import {
  API_EXAMPLE_PATH,
  EDITORS_ONLY_PATH,
  ensureOwnerRulesBuilt,
  OWNER_RULES_APP,
  WHOAMI_PATH,
} from "@domain-auth/test-support/app-variants";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, openTab } from "./support/browser.js";
import { expectStatusPage, saveShot, WIDTHS } from "./support/status-pages.js";

/**
 * A newcomer's first route handlers in the sample app: `currentUser` and `requireUser` of
 * `@domain-auth/core/next` in a route of the project's own. The copy of the app that has them must
 * build (`next build` once failed on such a route with MODULE_UNPARSABLE … app-router-context.js) and
 * answer for the signed-in user.
 */
describe("route handlers of the project's own that read the session", () => {
  let app: RunningApp;
  let browser: Browser;
  let token = "";

  beforeAll(async () => {
    ensureOwnerRulesBuilt();
    [app, browser] = await Promise.all([startApp({ app: OWNER_RULES_APP }), launchBrowser()]);
    ({ token } = await setUpAdmin(app.url, ADMIN));
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  test("currentUser() in a route handler answers the signed-in user, and null signed out", async () => {
    const signedIn = await fetch(`${app.url}${WHOAMI_PATH}`, { headers: { authorization: `Bearer ${token}` } });
    expect(signedIn.status).toBe(200);
    expect(await signedIn.json()).toEqual({ email: ADMIN.email });
    const signedOut = await fetch(`${app.url}${WHOAMI_PATH}`);
    expect(signedOut.status).toBe(200);
    expect(await signedOut.json()).toEqual({ email: null });
  });

  test("requireUser() in a route handler answers the signed-in user, and sends the signed out to sign in", async () => {
    const signedIn = await fetch(`${app.url}${API_EXAMPLE_PATH}`, { headers: { authorization: `Bearer ${token}` } });
    expect(signedIn.status).toBe(200);
    expect(await signedIn.json()).toEqual({ email: ADMIN.email });
    const signedOut = await fetch(`${app.url}${API_EXAMPLE_PATH}`, { redirect: "manual" });
    expect([303, 307]).toContain(signedOut.status);
    expect(new URL(signedOut.headers.get("location") ?? "", app.url).pathname).toBe("/login");
  });

  test("a page of the project's own for another role answers 403 with the app's 403 page: styled, a way back, at 1280 and 390 px", async () => {
    const page = await openTab(browser, app.url);
    // The administrator's token, as a page's request may carry it: `requireUser` reads it as it reads the cookie.
    await page.setExtraHTTPHeaders({ authorization: `Bearer ${token}` });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 760 });
      expect((await page.goto(EDITORS_ONLY_PATH))?.status()).toBe(403);
      await expectStatusPage(page, "Not allowed");
      expect(await page.getByRole("main").getByRole("link", { name: "Your profile" }).getAttribute("href")).toBe("/profile");
      expect(await page.getByRole("main").textContent()).toContain("This page could not be accessed.");
      expect(await page.getByRole("main").getByText("Editors only").count()).toBe(0);
      // Named once the page asked who is there: Next.js renders a root forbidden page into every page, so it reads nothing itself.
      await expect.poll(() => page.title()).toBe("Not allowed · blog");
      await saveShot(page, `403-${width}`);
    }
    await page.context().close();
  });
});
