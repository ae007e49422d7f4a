import { setUpAdmin } from "@domain-auth/test-support/accounts";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { auditPage } from "./support/audit.js";
import { openTab, useServedApp, WAIT_MS } from "./support/browser.js";
import { ADMIN, mainNav, signIn } from "./support/flows.js";
import { expectStatusPage, saveShot, WIDTHS } from "./support/status-pages.js";

/** The `<title>` of a page as the server sends it. */
async function titleOf(url: string): Promise<string | undefined> {
  return /<title>([^<]*)<\/title>/.exec(await (await fetch(url)).text())?.[1];
}

/** Computed styles of the first element `selector` finds. */
function styleOf(page: Page, selector: string): Promise<{ color: string; background: string; font: string }> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const style = getComputedStyle(element);
      return { color: style.color, background: style.backgroundColor, font: style.fontFamily };
    });
}

/** The red of an `rgb(r, g, b)` colour: high in the light text of the dark scheme. */
const red = (color: string) => Number(/\d+/.exec(color)?.[0] ?? Number.NaN);

// The pages around the forms, as a person first meets them: the 404 page, the home page, the tab titles
// and the API reference, in the app's own styles and colour scheme.
describe("the pages' looks on the production server", () => {
  const served = useServedApp();
  beforeAll(() => setUpAdmin(served.app.url, ADMIN));

  test("a 404 page, at the root or of an auth page the domain turns off, is in the app's styles with a way back, at 1280 and 390 px", async () => {
    const page = await openTab(served.browser, served.app.url);
    // /forgot-password exists only where the server sends e-mail; this one sends none.
    for (const [path, name] of [
      ["/no-such-page", "404-root"],
      ["/forgot-password", "404-auth-page"],
    ] as const) {
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 760 });
        expect((await page.goto(path))?.status(), path).toBe(404);
        await expectStatusPage(page, "Page not found");
        // Signed out: the way to sign in too.
        await page.getByRole("main").getByRole("link", { name: "Sign in", exact: true }).waitFor();
        // The root one completes its title once on screen: Next.js prerenders it without the request.
        await expect.poll(() => page.title()).toBe("Page not found · blog");
        await saveShot(page, `${name}-${width}`);
      }
    }
    await page.context().close();
  });

  test("every tab's title names the service", async () => {
    const { url } = served.app;
    expect(await titleOf(`${url}/`)).toBe("blog");
    expect(await titleOf(`${url}/login`)).toBe("Sign in · blog");
    expect(await titleOf(`${url}/register`)).toBe("Create an account · blog");
    expect(await titleOf(`${url}/docs`)).toBe("API reference · blog");
  });

  test("signed in, the home page and a 404 offer the profile and admin, never sign-in or registration", async () => {
    const page = await openTab(served.browser, served.app.url);
    await signIn(page, ADMIN);
    await page.goto("/");
    const next = page.getByRole("navigation", { name: "Get started" });
    await next.getByRole("link", { name: "Your profile" }).waitFor();
    expect(await next.getByRole("link", { name: "Admin" }).getAttribute("href")).toBe("/admin");
    await page.getByRole("main").getByText(`You are signed in as ${ADMIN.email}.`).waitFor();
    for (const name of ["Sign in", "Create an account", "Register"]) {
      expect(await page.getByRole("link", { name, exact: true }).count(), name).toBe(0);
    }
    await mainNav(page).getByRole("button", { name: "Sign out" }).waitFor();
    await saveShot(page, "home-signed-in");
    await page.goto("/no-such-page");
    await page.getByRole("main").getByRole("link", { name: "Your profile" }).waitFor();
    expect(await page.getByRole("main").getByRole("link", { name: "Sign in", exact: true }).count()).toBe(0);
    await page.context().close();
  });

  test("/docs shows one row per GET, HEAD folded in, in the pages' type, and follows the dark scheme", async () => {
    const page = await openTab(served.browser, served.app.url);
    await page.goto("/docs");
    const tag = page.locator('.opblock-tag[data-tag="Post"]');
    await tag.waitFor({ timeout: WAIT_MS });
    expect(await page.locator(".opblock-get").count()).toBeGreaterThan(3);
    expect(await page.locator(".opblock-head").count()).toBe(0);
    const heading = await styleOf(page, "main h1");
    expect((await styleOf(page, '.opblock-tag[data-tag="Post"]')).font).toBe(heading.font);
    expect(red((await styleOf(page, ".opblock-tag")).color)).toBeLessThan(100);
    await saveShot(page, "docs-light");

    await page.emulateMedia({ colorScheme: "dark" });
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains("dark-mode"))).toBe(true);
    // Swagger UI's colours change with a transition: waited for, not read at once.
    await expect.poll(async () => red((await styleOf(page, ".opblock-tag")).color)).toBeGreaterThan(200);
    await expect.poll(async () => red((await styleOf(page, ".da-api-reference")).background)).toBeLessThan(60);
    await expect.poll(async () => red((await styleOf(page, ".opblock-get")).background)).toBeLessThan(60);
    expect(red((await styleOf(page, ".da-frame")).background)).toBeLessThan(60);
    await saveShot(page, "docs-dark");
    await page.emulateMedia({ colorScheme: "light" });
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains("dark-mode"))).toBe(false);
    await page.context().close();
  });

  test("every page around the admin fits a phone's width and a desktop's, and axe-core finds nothing serious, light and dark", async () => {
    const page = await openTab(served.browser, served.app.url);
    const visited: [path: string, heading: string][] = [
      ["/", "blog"],
      ["/login", "Sign in"],
      ["/register", "Create an account"],
      ["/no-such-page", "Page not found"],
    ];
    const signedIn: [path: string, heading: string][] = [
      ["/", "blog"],
      ["/profile", ADMIN.email],
      ["/docs", "API reference"],
    ];
    const check = async (path: string, heading: string, name: string) => {
      await page.goto(path);
      const ready = () => page.getByRole("main").getByRole("heading", { name: heading }).first().waitFor();
      for (const audit of await auditPage(page, name, ready)) {
        expect(audit.overflow, `${path} at ${audit.width} px`).toBeLessThanOrEqual(0);
        expect(audit.violations, `${path} at ${audit.width} px`).toEqual([]);
      }
    };
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [path, heading] of visited) await check(path, heading, `${path.slice(1) || "home"}-${scheme}`);
    }
    await signIn(page, ADMIN);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [path, heading] of signedIn) await check(path, heading, `signed-in-${path.slice(1) || "home"}-${scheme}`);
    }
    await page.context().close();
  });
});
