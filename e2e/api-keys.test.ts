import { addUser, setUpAdmin } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, openTab, saveScreenshot, WAIT_MS, watchPolicy } from "./support/browser.js";
import { ADMIN, signIn, signOut } from "./support/flows.js";

/**
 * API keys in the pages (docs/api-keys.md) in Chromium against the production server: a user creates a
 * key on /profile with a few scopes, copies it once and a Node program uses it; the administrator
 * sees and revokes a user's keys on /admin; /docs authorizes with a key.
 */

const EDITOR = { email: "eve@example.com", password: "correct horse battery" };

/** The profile's "API keys" section. */
function keysSection(page: Page): Locator {
  return page.getByRole("main").getByRole("region", { name: "API keys", exact: true });
}

/** Calls the app's API from Node with `key` as the bearer token, as a program would. */
async function withKey(app: RunningApp, key: string, path: string, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(`${app.url}/api${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${key}`, ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null, headers: response.headers };
}

/** Creates a key named `name` on /profile, ticking `scopes` (none: everything the role allows); resolves to the key shown once. */
async function createKeyOnProfile(page: Page, name: string, scopes: readonly string[]): Promise<string> {
  const section = keysSection(page);
  await section.getByRole("button", { name: "Create an API key" }).click();
  await section.getByLabel("Key name").fill(name);
  await section.getByLabel("Expires").selectOption({ label: "30 days" });
  if (scopes.length > 0) {
    await section.getByLabel("Only the operations ticked below").check();
    for (const scope of scopes) await section.getByRole("checkbox", { name: scope, exact: true }).check();
    await saveScreenshot(page, "api-keys-form");
  }
  await section.getByRole("button", { name: "Create key" }).click();
  const shown = section.getByTestId("new-api-key");
  await shown.waitFor();
  return (await shown.textContent()) ?? "";
}

describe("API keys in the browser", () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let policyReports: string[] = [];

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), launchBrowser()]);
    const admin = await setUpAdmin(app.url, ADMIN);
    await addUser(app.url, admin, { ...EDITOR, role: "Editor" });
    page = await openTab(browser, app.url);
    policyReports = await watchPolicy(page);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  test("a key created on /profile works from Node within its scopes, is shown once, and stops when revoked", async () => {
    await signIn(page, EDITOR);
    await keysSection(page).getByText("No API keys.").waitFor();
    const key = await createKeyOnProfile(page, "Nightly export", ["post:read", "post:create"]);
    expect(key).toMatch(/^da_[A-Za-z0-9_-]{43}$/);
    const row = keysSection(page).getByRole("listitem").filter({ hasText: "Nightly export" });
    await expect.poll(() => row.textContent(), { timeout: WAIT_MS }).toContain("post:read, post:create");
    await saveScreenshot(page, "api-keys-created");

    const me = await withKey(app, key, "/user/me");
    expect(me.status).toBe(200);
    expect(me.body?.user).toMatchObject({ email: EDITOR.email, role: "Editor" });
    const created = await withKey(app, key, "/post", { method: "POST", body: { title: "Posted by a program" } });
    expect(created.status).toBe(201);
    const id = String((created.body?.item as { id?: string } | undefined)?.id);
    expect((await withKey(app, key, `/post/${id}`, { method: "PATCH", body: { title: "Changed" } })).status).toBe(403);
    expect((await withKey(app, key, "/user/sessions")).status).toBe(403);

    // Done: the key is never shown again, in the page or by the API.
    await keysSection(page).getByRole("button", { name: "Done" }).click();
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(key);
    // Its use is noted: "Last used" is a time now.
    await expect.poll(() => row.locator('dt:text-is("Last used") + dd').textContent(), { timeout: WAIT_MS }).not.toBe("Never");

    await keysSection(page).getByRole("button", { name: "Revoke the API key Nightly export" }).click();
    await keysSection(page).getByRole("status").filter({ hasText: "was revoked" }).waitFor();
    const refused = await withKey(app, key, "/user/me");
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    await signOut(page);
  });

  test("/admin/api-keys lists a user's keys and revokes them", async () => {
    await signIn(page, EDITOR);
    const key = await createKeyOnProfile(page, "Deploy bot", []);
    expect((await withKey(app, key, "/user/me")).status).toBe(200);
    await signOut(page);

    await signIn(page, ADMIN);
    await page.goto("/admin/api-keys");
    const section = page.getByRole("main").getByRole("region", { name: "API keys", exact: true });
    await section.getByLabel("User").selectOption({ label: EDITOR.email });
    const row = section.getByRole("listitem").filter({ hasText: "Deploy bot" });
    await expect.poll(() => row.textContent(), { timeout: WAIT_MS }).toContain("Everything the role allows");
    await section.getByRole("button", { name: "Revoke the API key Deploy bot" }).click();
    await section
      .getByRole("status")
      .filter({ hasText: `“Deploy bot” of ${EDITOR.email} was revoked` })
      .waitFor();
    await section.getByText("No API keys.").waitFor();
    expect((await withKey(app, key, "/user/me")).status).toBe(401);
    await signOut(page);
  });

  test("/docs authorizes with an API key: the request carries it, and answers as its user", async () => {
    await signIn(page, EDITOR);
    const key = await createKeyOnProfile(page, "Explorer", []);
    await signOut(page);

    const docs = await openTab(browser, app.url);
    const sent: Promise<Record<string, string>>[] = [];
    docs.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/user/me") sent.push(request.allHeaders());
    });
    await docs.goto("/docs");
    await docs.getByRole("button", { name: "Authorize" }).first().click();
    const scheme = docs.locator(".dialog-ux form").filter({ hasText: "apiKey (http, Bearer)" });
    await scheme.locator("input").fill(key);
    // Swagger UI labels its submit button "Apply credentials" for assistive technology.
    await scheme.locator('button[type="submit"]').click();
    await scheme.getByText("Authorized").waitFor();
    await docs.locator(".dialog-ux button.close-modal").click();

    const me = docs.locator(".opblock-get", { has: docs.locator('[data-path="/api/user/me"]') });
    await me.locator(".opblock-summary").click();
    await me.getByRole("button", { name: "Execute" }).click();
    const response = me.locator(".responses-wrapper .live-responses-table .response");
    await expect.poll(() => response.locator(".response-col_status").first().textContent(), { timeout: WAIT_MS }).toContain("200");
    expect(await response.locator(".response-col_description").first().textContent()).toContain(EDITOR.email);
    const [headers] = await Promise.all(sent);
    expect(headers?.authorization).toBe(`Bearer ${key}`);
    await saveScreenshot(docs, "api-keys-docs");
    await docs.close();
    expect(policyReports).toEqual([]);
  });
});
