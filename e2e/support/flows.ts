import { type Account, ADMIN as ADMIN_ACCOUNT } from "@domain-auth/test-support/accounts";
import { call } from "@domain-auth/test-support/http-client";
import type { Locator, Page } from "playwright-core";

/** The administrator every file creates first, with a name for the profile page to show. */
export const ADMIN: Account = { ...ADMIN_ACCOUNT, name: "Ada Admin" };

/** Fills the email, password and (when given) name inputs of a setup, register or sign-in form. */
export async function fillAccountForm(page: Page, account: Account): Promise<void> {
  // Visible ones only: Next.js may keep the page navigated away from in the DOM, hidden.
  await page.getByLabel("Email").filter({ visible: true }).fill(account.email);
  await page.getByLabel("Password", { exact: true }).filter({ visible: true }).fill(account.password);
  if (account.name !== undefined) await page.getByLabel("Name").filter({ visible: true }).fill(account.name);
}

/** Signs in through `/login` and waits for the profile page. */
export async function signIn(page: Page, account: Account): Promise<void> {
  await page.goto("/login");
  await fillAccountForm(page, { email: account.email, password: account.password });
  await page.getByRole("main").getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL("**/profile");
}

/** The header's navigation ("Main"): the session's links and the page's one "Sign out". */
export function mainNav(page: Page): Locator {
  return page.getByRole("navigation", { name: "Main" });
}

/** Signs out with the header's "Sign out" and waits for the sign-in page. */
export async function signOut(page: Page): Promise<void> {
  await mainNav(page).getByRole("button", { name: "Sign out", exact: true }).click();
  await page.waitForURL("**/login");
}

/** The profile card of `/profile`: the region named by the signed-in user's email, its heading. */
export function profileCard(page: Page, email: string): Locator {
  return page.getByRole("main").getByRole("region", { name: email, exact: true });
}

/** The text of a row (`Email`, `Role`, `Name`, …) of `email`'s profile card, once the profile has loaded. */
export async function profileValue(page: Page, email: string, label: string): Promise<string | null> {
  return profileCard(page, email).locator(`dl dt:text-is("${label}") + dd`).textContent();
}

/** The error shown with an input once it is marked invalid: the element its `aria-describedby` names last. */
export async function fieldErrorText(input: Locator): Promise<string | null> {
  await input.and(input.page().locator('[aria-invalid="true"]')).waitFor();
  const id = (await input.getAttribute("aria-describedby"))?.split(" ").at(-1) ?? "";
  return input.page().locator(`[id="${id}"]`).textContent();
}

/** Calls the app's API directly (for seeding data and for status checks); `path` is under `/api`. */
export async function api(
  baseURL: string,
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const { status, body } = await call(baseURL, { ...init, path: `/api${path}` });
  return { status, body: body as Record<string, unknown> };
}

/** The names of the session cookies (docs/api.md#cookie-sessions), `__Host-` prefixed over https. */
const SESSION_COOKIES = { token: /^(?:__Host-)?domain-auth\.token$/, refreshToken: /^(?:__Host-)?domain-auth\.refresh-token$/ };

/**
 * The session's tokens as the tab's browser keeps them: in its HttpOnly cookies, which no script of
 * the page can read (the test reads them from the browser context).
 */
export async function sessionCookies(page: Page): Promise<{ token: string | null; refreshToken: string | null }> {
  const cookies = await page.context().cookies();
  const value = (name: RegExp) => cookies.find((cookie) => name.test(cookie.name))?.value ?? null;
  return { token: value(SESSION_COOKIES.token), refreshToken: value(SESSION_COOKIES.refreshToken) };
}

/** Everything a script of the page could read a token from: `document.cookie`, `sessionStorage`, `localStorage`. */
export async function scriptStorage(page: Page): Promise<{ cookies: string; session: string[]; local: string[] }> {
  return page.evaluate(() => ({ cookies: document.cookie, session: Object.keys(sessionStorage), local: Object.keys(localStorage) }));
}

/** Counts the tab's `POST /api/<auth>/refresh` requests from now on. */
export function countRefreshes(page: Page): { readonly count: () => number } {
  let count = 0;
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname.endsWith("/refresh")) count++;
  });
  return { count: () => count };
}
