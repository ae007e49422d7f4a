import { setUpAdmin } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, openTab, saveScreenshot, WAIT_MS } from "./support/browser.js";
import { ADMIN, signIn } from "./support/flows.js";

const APP_ORIGIN = "https://app.example.com";

/** Collects every request the page makes, every Content-Security-Policy report and every uncaught error. */
async function watch(page: Page): Promise<{ requests: string[]; violations: string[]; errors: string[] }> {
  const seen = { requests: [] as string[], violations: [] as string[], errors: [] as string[] };
  page.on("request", (request) => seen.requests.push(request.url()));
  page.on("pageerror", (error) => seen.errors.push(error.message));
  page.on("console", (message) => {
    if (/Content.Security.Policy/i.test(message.text())) seen.violations.push(message.text());
  });
  await page.exposeFunction("reportViolation", (report: string) => seen.violations.push(report));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { reportViolation(report: string): void }).reportViolation(
        `${event.effectiveDirective}: ${event.blockedURI || "inline"}`,
      );
    });
  });
  return seen;
}

describe("the API reference and CORS on the production server", () => {
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp({ env: { CORS_ORIGINS: APP_ORIGIN } }), launchBrowser()]);
    await setUpAdmin(app.url, ADMIN);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  test("answers a listed origin's preflight and lets it read errors, over HTTP; an unlisted origin gets nothing", async () => {
    const preflight = await fetch(`${app.url}/api/post`, {
      method: "OPTIONS",
      headers: {
        origin: APP_ORIGIN,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(APP_ORIGIN);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, POST, HEAD");
    expect(preflight.headers.get("access-control-allow-headers")).toBe("authorization, content-type");
    expect(preflight.headers.get("access-control-max-age")).toBe("600");
    const me = await fetch(`${app.url}/api/user/me`, { headers: { origin: APP_ORIGIN } });
    expect(me.status).toBe(401);
    expect(me.headers.get("access-control-allow-origin")).toBe(APP_ORIGIN);
    expect(me.headers.get("access-control-expose-headers")).toBe("Retry-After, WWW-Authenticate");
    expect(me.headers.get("access-control-allow-credentials")).toBeNull();
    expect(me.headers.get("vary")).toMatch(/Origin/);
    // An API path Next.js cannot route (an unknown method) is answered by the core at the edge, with CORS too.
    const unknownMethod = await fetch(`${app.url}/api/post`, { method: "PROPFIND", headers: { origin: APP_ORIGIN } });
    expect(unknownMethod.status).toBe(405);
    expect(unknownMethod.headers.get("access-control-allow-origin")).toBe(APP_ORIGIN);
    const other = await fetch(`${app.url}/api/post`, { headers: { origin: "https://evil.example" } });
    expect(other.status).toBe(200);
    const names: string[] = [];
    other.headers.forEach((_, name) => {
      names.push(name);
    });
    expect(names.filter((name) => name.startsWith("access-control-"))).toEqual([]);
    const otherPreflight = await fetch(`${app.url}/api/post`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(otherPreflight.status).toBe(405);
  });

  test("/docs shows every entity from /api/openapi.json and sends a request as the signed-in user (the session cookie, no token of the page's), to this origin only", async () => {
    const page = await openTab(browser, app.url);
    const seen = await watch(page);
    const sentToMe: Promise<Record<string, string>>[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/user/me") sentToMe.push(request.allHeaders());
    });
    await signIn(page, ADMIN);
    await page.goto("/docs");
    for (const tag of ["Authentication", "User", "Post"])
      await expect.poll(() => page.locator(`.opblock-tag[data-tag="${tag}"]`).count(), { timeout: WAIT_MS }).toBe(1);

    const me = page.locator(".opblock-get", { has: page.locator('[data-path="/api/user/me"]') });
    await me.locator(".opblock-summary").click();
    // tryItOutEnabled: the operation opens ready to send.
    await me.getByRole("button", { name: "Execute" }).click();
    const response = me.locator(".responses-wrapper .live-responses-table .response");
    await expect.poll(() => response.locator(".response-col_status").first().textContent(), { timeout: WAIT_MS }).toContain("200");
    expect(await response.locator(".response-col_description").first().textContent()).toContain(ADMIN.email);
    const [headers] = await Promise.all(sentToMe);
    expect(headers?.authorization).toBeUndefined();
    expect(headers?.cookie).toMatch(/(^|; )domain-auth\.token=/);
    await saveScreenshot(page, "api-reference");

    const origins = new Set(seen.requests.filter((url) => !url.startsWith("data:")).map((url) => new URL(url).origin));
    expect([...origins]).toEqual([app.url]);
    expect(seen.requests).toContain(`${app.url}/api/openapi.json`);
    expect(seen.requests).toContain(`${app.url}/api/user/me`);
    expect(seen.violations).toEqual([]);
    expect(seen.errors).toEqual([]);
  });
});
