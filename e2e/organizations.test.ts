import { mkdirSync } from "node:fs";
import { setUpAdmin, signIn as signInByApi } from "@domain-auth/test-support/accounts";
import { freePort, type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import { TEAMS_YAML } from "@domain-auth/test-support/domains";
import { linkOf, type MailServer, startMailServer } from "@domain-auth/test-support/mail-server";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { auditPage } from "./support/audit.js";
import { launchBrowser, openTab, saveScreenshot } from "./support/browser.js";
import { ADMIN, api, fillAccountForm, mainNav } from "./support/flows.js";

/**
 * Organizations in Chromium against the production server of a domain with them (TEAMS_YAML) and a
 * real SMTP server: one person creates an organization and a project in it and invites another by
 * e-mail; the other registers from the link, accepts, sees the project, and creates an organization
 * of their own. Each sees only their organization's records, in the pages and in the API.
 */

const ALICE = { email: "alice@example.com", password: "alice's long password", name: "Alice Acme" };
const BOB = { email: "bob@example.com", password: "bob's long password", name: "Bob Globex" };
const SHOTS = "/tmp/org-shots";

/** The id in an organization page's path. */
function organizationIdOf(page: Page): string {
  const match = /\/orgs\/([^/?#]+)$/.exec(new URL(page.url()).pathname);
  if (!match?.[1]) throw new Error(`not an organization's page: ${page.url()}`);
  return decodeURIComponent(match[1]);
}

/** The records table of an entity on the page (its caption names it). */
function recordsTable(page: Page, entity: string): Locator {
  return page.getByRole("main").getByRole("region", { name: entity, exact: true }).getByRole("table");
}

/** Creates a record of `entity` with its title through the page's records section; waits for its row. */
async function createRecord(page: Page, entity: string, title: string): Promise<void> {
  const section = page.getByRole("main").getByRole("region", { name: entity, exact: true });
  await section.getByRole("button", { name: `New ${entity}` }).click();
  const form = section.getByRole("form", { name: `New ${entity}` });
  await form.getByLabel("Title").fill(title);
  await form.getByRole("button", { name: "Create" }).click();
  await section.getByRole("status").getByText(`${entity} created.`).waitFor();
  await recordsTable(page, entity).getByRole("rowheader", { name: title, exact: true }).waitFor();
}

/** Creates an organization on `/orgs`; waits for its page and returns its id. */
async function createOrganization(page: Page, name: string): Promise<string> {
  const main = page.getByRole("main");
  await main.getByLabel("Organization name").fill(name);
  await main.getByRole("button", { name: "Create organization" }).click();
  await page.waitForURL(/\/orgs\/[^/]+$/);
  await main.getByRole("heading", { level: 1, name }).waitFor();
  return organizationIdOf(page);
}

/** Screenshots of the page as it is, at a phone's width and a desktop's, saved under /tmp/org-shots/. */
async function shoot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage });
  }
  await page.setViewportSize({ width: 1100, height: 760 });
  await saveScreenshot(page, `organizations-${name}`);
}

describe("organizations in the browser", () => {
  let appUrl: string;
  let app: RunningApp;
  let mail: MailServer;
  let browser: Browser;
  let alice: Page;
  let bob: Page;
  let acme: string;
  let globex: string;
  let bobsLink: string;

  beforeAll(async () => {
    mail = await startMailServer();
    const port = await freePort();
    appUrl = `http://127.0.0.1:${port}`;
    [app, browser] = await Promise.all([
      startApp({
        domain: TEAMS_YAML,
        env: { SMTP_URL: mail.url, APP_URL: appUrl, PORT: String(port), MAIL_FROM: "no-reply@app.example.com" },
      }),
      launchBrowser(),
    ]);
    await setUpAdmin(app.url, ADMIN);
    [alice, bob] = await Promise.all([openTab(browser, app.url), openTab(browser, app.url)]);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await mail?.close();
  });

  test("the organization pages carry the auth pages' security headers, /orgs/<id> too", async () => {
    for (const path of ["/orgs", "/orgs/some-id", "/invitations?token=t"]) {
      const response = await fetch(`${app.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-security-policy"), path).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
      expect(response.headers.get("referrer-policy"), path).toBe("no-referrer");
      await response.body?.cancel();
    }
  });

  test("A registers, creates an organization on /orgs and a project in it; the switcher lists it", async () => {
    await alice.goto("/register");
    await fillAccountForm(alice, ALICE);
    await alice.getByRole("main").getByRole("button", { name: "Create account" }).click();
    await alice.waitForURL("**/profile");

    await mainNav(alice).getByText("Organizations", { exact: true }).click();
    await mainNav(alice).getByText("You are in no organization yet.").waitFor();
    await mainNav(alice).getByRole("link", { name: "Create one" }).click();
    await alice.waitForURL("**/orgs");
    const main = alice.getByRole("main");
    await main.getByText("You are not in any organization yet.", { exact: false }).waitFor();

    // A slug of the wrong form is said in a sentence, before anything is sent.
    await main.getByLabel("Organization name").fill("Acme Rockets");
    await main.getByLabel("Slug (optional)").fill("-Bad Slug");
    await main.getByRole("button", { name: "Create organization" }).click();
    await main.getByText(/A slug is 2 to 39 lower-case letters/).waitFor();
    await main.getByLabel("Slug (optional)").fill("");
    acme = await createOrganization(alice, "Acme Rockets");
    await main.getByText("Your role: Owner").waitFor();

    await createRecord(alice, "Project", "Moon base");
    // The switcher shows the organization on show and lists it with the role.
    const switcher = mainNav(alice).locator("details");
    await switcher.locator("summary").getByText("Acme Rockets").waitFor();
    await switcher.locator("summary").click();
    expect(await switcher.getByRole("link", { name: /Acme Rockets/ }).getAttribute("href")).toBe(`/orgs/${acme}`);
    await shoot(alice, "switcher", { fullPage: false });
    await switcher.locator("summary").click();

    await alice.goto("/orgs");
    await main.getByRole("link", { name: "Acme Rockets" }).waitFor();
    expect(
      await main
        .getByRole("row", { name: /Acme Rockets/ })
        .getByRole("cell")
        .last()
        .textContent(),
    ).toBe("Owner");
    await shoot(alice, "orgs");
  });

  test("A invites B by e-mail on the organization's page; the invitation is pending", async () => {
    await alice.goto(`/orgs/${acme}`);
    const invitations = alice.getByRole("main").getByRole("region", { name: "Invitations" });
    await invitations.getByLabel("Email to invite").fill(BOB.email);
    expect(await invitations.getByLabel("Role").inputValue()).toBe("Member");
    await invitations.getByRole("button", { name: "Send invitation" }).click();
    await invitations.getByRole("status").getByText(`An invitation is on its way to ${BOB.email} as Member`, { exact: false }).waitFor();
    await invitations.getByRole("cell", { name: BOB.email, exact: true }).waitFor();

    const link = linkOf(await mail.waitFor(BOB.email));
    expect(link.origin).toBe(appUrl);
    expect(link.pathname).toBe("/invitations");
    bobsLink = `${link.pathname}${link.search}`;
    await shoot(alice, "org-page");
  });

  test("B opens the link signed out, registers from it, accepts, and sees A's project (read only)", async () => {
    await bob.goto(bobsLink);
    const main = bob.getByRole("main");
    await main.getByText("You have been invited to join an organization.", { exact: false }).waitFor();
    expect(await main.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe(`/login?next=${encodeURIComponent(bobsLink)}`);
    await shoot(bob, "invitations-signed-out");
    await main.getByRole("link", { name: "Create an account" }).click();
    await bob.waitForURL("**/register?next=*");
    await fillAccountForm(bob, BOB);
    await main.getByRole("button", { name: "Create account" }).click();
    await bob.waitForURL((url) => url.pathname === "/invitations" && url.searchParams.has("token"));

    await main.getByText(`You are signed in as ${BOB.email}`, { exact: false }).waitFor();
    await shoot(bob, "invitations-signed-in");
    await main.getByRole("button", { name: "Accept invitation" }).click();
    await bob.waitForURL(`**/orgs/${acme}`);
    await main.getByRole("heading", { level: 1, name: "Acme Rockets" }).waitFor();
    await main.getByText("Your role: Member").waitFor();
    await recordsTable(bob, "Project").getByRole("rowheader", { name: "Moon base", exact: true }).waitFor();
    // A Member may read the projects, not create them (`@Member(Owner, Manager)`), nor manage members.
    expect(await main.getByRole("button", { name: "New Project" }).count()).toBe(0);
    expect(await main.getByRole("region", { name: "Invitations" }).count()).toBe(0);
    const members = main.getByRole("region", { name: "Members" });
    await members.getByRole("cell", { name: ALICE.email, exact: true }).waitFor();
    await members.getByRole("button", { name: "Leave Acme Rockets" }).waitFor();
  });

  test("a spent link and a link sent to another address are refused in sentences", async () => {
    await bob.goto(bobsLink);
    const main = bob.getByRole("main");
    await main.getByRole("button", { name: "Accept invitation" }).click();
    await main.getByRole("alert").getByText("This invitation link no longer works", { exact: false }).waitFor();

    await alice.goto(`/orgs/${acme}`);
    const invitations = alice.getByRole("main").getByRole("region", { name: "Invitations" });
    await invitations.getByLabel("Email to invite").fill("carol@example.com");
    await invitations.getByRole("button", { name: "Send invitation" }).click();
    await invitations.getByRole("cell", { name: "carol@example.com", exact: true }).waitFor();
    const carols = linkOf(await mail.waitFor("carol@example.com"));
    await bob.goto(`${carols.pathname}${carols.search}`);
    await main.getByRole("button", { name: "Accept invitation" }).click();
    await main
      .getByRole("alert")
      .getByText(`This invitation was sent to another e-mail address than ${BOB.email}`, { exact: false })
      .waitFor();
    await main.getByRole("button", { name: "Sign out and use another account" }).waitFor();
    await shoot(bob, "invitations-refused");
  });

  test("B creates an organization of their own with a project; each sees only their organization's records", async () => {
    await bob.goto(`/orgs/${acme}`);
    await mainNav(bob).locator("details summary").click();
    await mainNav(bob).getByRole("link", { name: "Create one" }).click();
    await bob.waitForURL("**/orgs");
    globex = await createOrganization(bob, "Globex");
    await createRecord(bob, "Project", "Secret plan");
    expect(await recordsTable(bob, "Project").getByText("Moon base").count()).toBe(0);

    // B's other organization shows A's project and not B's.
    await bob.goto(`/orgs/${acme}`);
    await recordsTable(bob, "Project").getByRole("rowheader", { name: "Moon base", exact: true }).waitFor();
    expect(await recordsTable(bob, "Project").getByText("Secret plan").count()).toBe(0);

    // A's switcher lists Acme only; A's page of Acme shows nothing of B's project.
    await alice.goto(`/orgs/${acme}`);
    await recordsTable(alice, "Project").getByRole("rowheader", { name: "Moon base", exact: true }).waitFor();
    expect(await alice.getByRole("main").getByText("Secret plan").count()).toBe(0);
    await mainNav(alice).locator("details summary").click();
    const listed = mainNav(alice).getByRole("list", { name: "Your organizations" }).getByRole("link");
    expect(await listed.allTextContents()).toEqual(["Acme RocketsOwner"]);

    // B's organization is not found for A: the page is the 404 page, and the API answers 404 for it and its project.
    const response = await alice.goto(`/orgs/${globex}`);
    expect(response?.status()).toBe(404);
    expect(await alice.getByRole("main").getByText("Globex").count()).toBe(0);
    expect(await alice.getByRole("main").getByText("Secret plan").count()).toBe(0);
    const aliceToken = (await signInByApi(app.url, ALICE)).token;
    const bobToken = (await signInByApi(app.url, BOB)).token;
    const secret = await api(app.url, `/orgs/${globex}/project`, { token: bobToken });
    const secretId = (secret.body.items as { id: string; title: string }[]).find((item) => item.title === "Secret plan")?.id;
    expect(secretId).toBeTruthy();
    expect((await api(app.url, `/orgs/${globex}`, { token: aliceToken })).status).toBe(404);
    expect((await api(app.url, `/orgs/${globex}/project`, { token: aliceToken })).status).toBe(404);
    expect((await api(app.url, `/orgs/${globex}/project/${secretId}`, { token: aliceToken })).status).toBe(404);
    // Nor through her own organization's path.
    expect((await api(app.url, `/orgs/${acme}/project/${secretId}`, { token: aliceToken })).status).toBe(404);
  });

  test("the administrator sees an organization's records on /admin/organizations, by its id", async () => {
    const admin = await openTab(browser, app.url);
    await admin.goto("/login");
    await fillAccountForm(admin, { email: ADMIN.email, password: ADMIN.password });
    await admin.getByRole("main").getByRole("button", { name: "Sign in", exact: true }).click();
    await admin.waitForURL("**/profile");
    await admin.goto("/admin/organizations");
    const section = admin.getByRole("main").getByRole("region", { name: "Organization records" });
    await section.getByLabel("Or an organization id").fill(globex);
    await section.getByRole("button", { name: "Show its records" }).click();
    await section.getByText("Showing Globex (globex), with support access.").waitFor();
    await recordsTable(admin, "Project").getByRole("rowheader", { name: "Secret plan", exact: true }).waitFor();
    expect(await recordsTable(admin, "Project").getByText("Moon base").count()).toBe(0);
    await admin.context().close();
  });

  test("the organization pages fit a phone's width and a desktop's, and axe-core finds nothing serious", async () => {
    const pages: [path: string, heading: string, name: string][] = [
      ["/orgs", "Organizations", "orgs"],
      [`/orgs/${acme}`, "Acme Rockets", "org"],
      ["/invitations?token=not-a-token", "Join an organization", "invitation"],
    ];
    for (const [path, heading, name] of pages) {
      await alice.goto(path);
      const ready = () => alice.getByRole("main").getByRole("heading", { name: heading }).first().waitFor();
      for (const audit of await auditPage(alice, name, ready)) {
        expect(audit.overflow, `${path} at ${audit.width} px`).toBeLessThanOrEqual(0);
        expect(audit.violations, `${path} at ${audit.width} px`).toEqual([]);
      }
    }
    await alice.setViewportSize({ width: 1100, height: 760 });
  });
});
