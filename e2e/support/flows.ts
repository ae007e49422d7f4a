import type { Page } from "playwright-core";

/** Credentials and profile fields of a test account. */
export interface Account {
  readonly email: string;
  readonly password: string;
  readonly name?: string;
}

/** The administrator every file creates first. */
export const ADMIN: Account = { email: "admin@example.com", password: "correct horse battery", name: "Ada Admin" };

/** Fills the email, password and (when given) name inputs of a setup, register or sign-in form. */
export async function fillAccountForm(page: Page, account: Account): Promise<void> {
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  if (account.name !== undefined) await page.getByLabel("Name").fill(account.name);
}

/** Signs in through `/login` and waits for the profile page. */
export async function signIn(page: Page, account: Account): Promise<void> {
  await page.goto("/login");
  await fillAccountForm(page, { email: account.email, password: account.password });
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL("**/profile");
}

/** The text of a profile row (`Email`, `Role`, `Name`, …) once the profile has loaded. */
export async function profileValue(page: Page, label: string): Promise<string | null> {
  return page.locator(`.details dt:text-is("${label}") + dd`).textContent();
}

/** Calls the app's API directly (for seeding data and for status checks). */
export async function api(
  baseURL: string,
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const response = await fetch(`${baseURL}/api${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** Creates the first administrator through the API; returns their token. */
export async function setUpAdmin(baseURL: string, account: Account = ADMIN): Promise<string> {
  const { status, body } = await api(baseURL, "/user/setup", { body: account });
  if (status !== 201) throw new Error(`setup answered ${status}: ${JSON.stringify(body)}`);
  return String(body.token);
}
