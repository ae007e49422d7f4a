import { startApp } from "@domain-auth/test-support/app-server";
import { describe, expect, test } from "vitest";
import { openTab, saveScreenshot, useServedApp, WAIT_MS, watchPolicy } from "./support/browser.js";
import { ADMIN, fillAccountForm, mainNav, profileValue } from "./support/flows.js";

/** The auth pages; the project's own pages (here apps/web's home page) get no nonce policy from domain-auth. */
const PAGES = ["/login", "/register", "/setup", "/admin", "/profile", "/docs"];
const NONCE = /'nonce-([A-Za-z0-9+/=_-]+)'/;

/** The policy as a map from directive to its sources. */
function directivesOf(policy: string | null): Map<string, string[]> {
  return new Map(
    (policy ?? "").split(";").map((directive) => {
      const [name = "", ...sources] = directive.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

/** Asserts the headers every page carries (docs/security.md#security-headers) and returns the response's nonce. */
function expectPageHeaders(path: string, headers: Headers): string {
  const directives = directivesOf(headers.get("content-security-policy"));
  const nonce = NONCE.exec(headers.get("content-security-policy") ?? "")?.[1] ?? "";
  expect(nonce, path).not.toBe("");
  expect(directives.get("script-src"), path).toEqual(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"]);
  expect(directives.get("object-src"), path).toEqual(["'none'"]);
  expect(directives.get("base-uri"), path).toEqual(["'none'"]);
  expect(directives.get("form-action"), path).toEqual(["'self'"]);
  expect(directives.get("frame-ancestors"), path).toEqual(["'none'"]);
  expect(headers.get("x-content-type-options"), path).toBe("nosniff");
  expect(headers.get("referrer-policy"), path).toBe("no-referrer");
  expect(headers.get("x-powered-by"), path).toBeNull();
  return nonce;
}

describe("security headers", () => {
  const served = useServedApp();

  test("first-run setup, the profile and the admin page work in Chromium under the policy, with no violation", async () => {
    const page = await openTab(served.browser, served.app.url);
    const reports = await watchPolicy(page);
    const response = await page.goto("/setup");
    expectPageHeaders("/setup", new Headers(await response?.allHeaders()));
    await page.getByRole("main").getByRole("heading", { name: "Welcome to blog" }).waitFor();
    await fillAccountForm(page, ADMIN);
    await page.getByRole("main").getByRole("button", { name: "Create administrator" }).click();
    await page.waitForURL("**/profile");
    expect(await profileValue(page, ADMIN.email, "Role")).toBe("Admin");

    await page.goto("/admin/users");
    expect(await page.getByRole("region", { name: "Users" }).getByLabel(`Role of ${ADMIN.email}`, { exact: true }).inputValue()).toBe(
      "Admin",
    );
    // The stylesheet loaded: the header has its border, not the browser's unstyled default.
    expect(await page.getByRole("banner").evaluate((header) => getComputedStyle(header).borderBottomStyle)).toBe("solid");
    await saveScreenshot(page, "admin-under-csp");
    await mainNav(page).getByRole("link", { name: "Profile" }).click();
    await page.waitForURL("**/profile");
    expect(await profileValue(page, ADMIN.email, "Email")).toBe(ADMIN.email);
    expect(reports).toEqual([]);
    await page.context().close();
  });

  test("every auth page carries the headers, with a nonce that changes per response and that its scripts carry", async () => {
    for (const path of PAGES) {
      const [first, second] = await Promise.all([fetch(`${served.app.url}${path}`), fetch(`${served.app.url}${path}`)]);
      expect(first.status, path).toBe(200);
      const nonce = expectPageHeaders(path, first.headers);
      expect(expectPageHeaders(path, second.headers), path).not.toBe(nonce);
      expect(first.headers.get("strict-transport-security"), path).toBeNull();

      const scripts = (await first.text()).match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length, path).toBeGreaterThan(0);
      for (const script of scripts) expect(script, path).toContain(`nonce="${nonce}"`);
      await second.body?.cancel();
    }
  });

  test("every rendering of an auth page carries the policy: a prefetch, an RSC request, a page that is not found", async () => {
    const renderings: [string, Record<string, string>][] = [
      ["a router prefetch", { "next-router-prefetch": "1", rsc: "1" }],
      ["a browser prefetch", { purpose: "prefetch" }],
      ["an RSC request", { rsc: "1" }],
    ];
    for (const path of PAGES) {
      for (const [what, headers] of renderings) {
        const response = await fetch(`${served.app.url}${path}`, { headers, redirect: "manual" });
        expectPageHeaders(`${what} of ${path}`, response.headers);
        await response.body?.cancel();
      }
    }
  });

  test("the sample's own pages carry no nonce policy, but are neither sniffed, nor framed, nor referred", async () => {
    for (const [path, status] of [
      ["/", 200],
      ["/no-such-page", 404],
    ] as const) {
      const response = await fetch(`${served.app.url}${path}`);
      expect(response.status, path).toBe(status);
      expect(response.headers.get("content-security-policy"), path).toBe("frame-ancestors 'none'");
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("referrer-policy"), path).toBe("no-referrer");
      expect(response.headers.get("x-powered-by"), path).toBeNull();
      await response.body?.cancel();
    }
  });

  test("scripts injected into a page's markup without the nonce do not run, and Chromium reports them", async () => {
    const page = await openTab(served.browser, served.app.url);
    const reports = await watchPolicy(page);
    const injected = '<script>window.injected = true</script><script src="http://elsewhere.example/evil.js"></script>';
    await page.route(`${served.app.url}/login`, async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: (await response.text()).replace("<head>", `<head>${injected}`) });
    });
    let fetchedForeign = false;
    await page.route("http://elsewhere.example/evil.js", (route) => {
      fetchedForeign = true;
      return route.fulfill({ contentType: "text/javascript", body: "window.injected = true" });
    });
    await page.goto("/login");
    // The app's own scripts ran: the navigation appears once React has hydrated.
    await mainNav(page).getByRole("link", { name: "Register" }).waitFor();
    expect(await page.evaluate(() => "injected" in window)).toBe(false);
    expect(fetchedForeign).toBe(false);
    // Chromium's reports come through a binding of the page, after the violations: polled as long as a locator waits.
    await expect
      .poll(() => reports.filter((report) => !report.startsWith("console:")), { timeout: WAIT_MS })
      .toEqual(["script-src-elem: inline on /login", "script-src-elem: http://elsewhere.example/evil.js on /login"]);
    await page.context().close();
  });

  test("/admin cannot be framed by another origin", async () => {
    const response = await fetch(`${served.app.url}/admin`);
    expect(directivesOf(response.headers.get("content-security-policy")).get("frame-ancestors")).toEqual(["'none'"]);
    await response.body?.cancel();

    const page = await openTab(served.browser, served.app.url);
    // A page of another origin, answered by the browser itself, that frames /admin.
    await page.route("http://elsewhere.example/", (route) =>
      route.fulfill({ contentType: "text/html", body: `<iframe src="${served.app.url}/admin"></iframe>` }),
    );
    const framed = page.waitForEvent("framenavigated", (frame) => frame !== page.mainFrame());
    await page.goto("http://elsewhere.example/");
    // Chromium shows its error page in the frame instead of the served.app.
    expect((await framed).url()).toBe("chrome-error://chromewebdata/");
    await page.context().close();
  });

  test("API answers, also those the server writes itself, are neither sniffed nor stored, each header once", async () => {
    const login = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) };
    const answers = {
      login: await fetch(`${served.app.url}/api/user/login`, login),
      status: await fetch(`${served.app.url}/api/user/setup`),
      "the bare /api": await fetch(`${served.app.url}/api`),
      "an oversized header": await fetch(`${served.app.url}/api/user/me`, { headers: { authorization: `Bearer ${"A".repeat(20_000)}` } }),
    };
    expect(Object.values(answers).map((answer) => answer.status)).toEqual([200, 200, 404, 431]);
    for (const [name, answer] of Object.entries(answers)) {
      expect(answer.headers.get("x-content-type-options"), name).toBe("nosniff");
      expect(answer.headers.get("cache-control"), name).toBe("no-store");
      expect(answer.headers.get("content-security-policy"), name).toBeNull();
      expect(answer.headers.get("x-powered-by"), name).toBeNull();
      await answer.body?.cancel();
    }
  });

  test("over https the pages also carry Strict-Transport-Security, redirects included", async () => {
    const secure = await startApp({ env: { APP_URL: "https://auth.example.com" } });
    try {
      for (const path of ["/setup", "/admin"]) {
        const response = await fetch(`${secure.url}${path}`, { redirect: "manual" });
        expect(response.status, path).toBe(path === "/setup" ? 200 : 307);
        expectPageHeaders(path, response.headers);
        expect(response.headers.get("strict-transport-security"), path).toBe("max-age=31536000");
        expect(directivesOf(response.headers.get("content-security-policy")).has("upgrade-insecure-requests"), path).toBe(true);
        await response.body?.cancel();
      }
    } finally {
      await secure.stop();
    }
  });
});
