import { PEER_ADDRESS_HEADER } from "@domain-auth/core";
import { apiPaths } from "@domain-auth/core/policy";
import { afterEach, describe, expect, test } from "vitest";
import { type PageName, type PageState, pageOutcome, readPageState } from "../lib/domain-auth/page-guard";
import { sampleDomainText, startCore, type TestCore } from "./support";

const PAGES: readonly PageName[] = [
  "home",
  "setup",
  "login",
  "register",
  "profile",
  "admin",
  "forgot-password",
  "reset-password",
  "verify-email",
  "docs",
  "orgs",
  "invitations",
];

let core: TestCore | undefined;
afterEach(async () => {
  await core?.stop();
  core = undefined;
});

function outcomes(state: PageState, needsAuth = false): Record<string, string> {
  return Object.fromEntries(PAGES.map((page) => [page, pageOutcome(page, state, needsAuth && page !== "home")]));
}

async function setUp(instance: TestCore, body: Record<string, unknown> = {}): Promise<number> {
  const response = await instance.auth.handle(
    new Request(new URL(apiPaths(instance.view).setup, "http://localhost"), {
      method: "POST",
      headers: { "content-type": "application/json", [PEER_ADDRESS_HEADER]: "127.0.0.1" },
      body: JSON.stringify({ email: "admin@example.com", password: "correct horse battery", ...body }),
    }),
  );
  return response.status;
}

describe("which pages exist and where a visitor is sent", () => {
  test("while setup is open every page leads to /setup; afterwards each page opens", async () => {
    core = await startCore(await sampleDomainText());
    const pending = await readPageState(core.auth);
    expect([pending.setupRequired, pending.setupTokenRequired]).toEqual([true, false]);
    expect(outcomes(pending)).toEqual({
      // A home page opened with openPage("home") is sent on too; the sample's own `/` reads the state and links there.
      home: "setup",
      setup: "open",
      login: "setup",
      register: "setup",
      profile: "setup",
      admin: "setup",
      // No e-mail in the test instance: these pages do not exist, setup or not.
      "forgot-password": "not-found",
      "reset-password": "not-found",
      "verify-email": "not-found",
      docs: "setup",
      // The sample has no organizations.
      orgs: "not-found",
      invitations: "not-found",
    });

    expect(await setUp(core)).toBe(201);
    const done = await readPageState(core.auth);
    expect(done.setupRequired).toBe(false);
    expect(outcomes(done)).toEqual({
      home: "open",
      setup: "open",
      login: "open",
      register: "open",
      profile: "open",
      admin: "open",
      "forgot-password": "not-found",
      "reset-password": "not-found",
      "verify-email": "not-found",
      docs: "open",
      orgs: "not-found",
      invitations: "not-found",
    });
  });

  test("with auth.organizations, the organization pages open once setup is done", async () => {
    const yaml = await sampleDomainText((text) => text.replace(/^auth:\n/m, "auth:\n  organizations:\n    roles: [Owner, Member]\n"));
    core = await startCore(yaml);
    expect(core.view.endpoints.organizations).toBe(true);
    expect(outcomes(await readPageState(core.auth))).toMatchObject({ orgs: "setup", invitations: "setup" });
    expect(await setUp(core)).toBe(201);
    expect(outcomes(await readPageState(core.auth))).toMatchObject({ orgs: "open", invitations: "open" });
  });

  test("with SETUP_TOKEN, /setup asks for it until setup is done", async () => {
    core = await startCore(await sampleDomainText(), { setupToken: "a setup token of sixteen bytes or more" });
    expect((await readPageState(core.auth)).setupTokenRequired).toBe(true);
    expect(await setUp(core, { setupToken: "a setup token of sixteen bytes or more" })).toBe(201);
    expect(await readPageState(core.auth)).toMatchObject({ setupRequired: false, setupTokenRequired: false });
  });

  test("a disabled endpoint's page is 404 and setup disabled leads nowhere", async () => {
    const yaml = await sampleDomainText((text) =>
      text.replace(
        "endpoints: { login: true, register: true, me: true, setup: true }",
        "endpoints: { login: true, register: false, me: true, setup: false }",
      ),
    );
    core = await startCore(yaml);
    const state = await readPageState(core.auth);
    expect(state.setupRequired).toBe(false);
    expect(outcomes(state)).toMatchObject({ home: "open", setup: "not-found", register: "not-found", login: "open", profile: "open" });
  });

  test("under auth.type none only home, admin and docs exist", async () => {
    core = await startCore(
      [
        "name: notes",
        "entities:",
        "  Note:",
        "    fields:",
        "      title: { type: string, required: true }",
        "auth:",
        "  type: none",
        "",
      ].join("\n"),
    );
    const state = await readPageState(core.auth);
    expect(state.view.auth).toBeNull();
    expect(outcomes(state)).toEqual({
      home: "open",
      setup: "not-found",
      login: "not-found",
      register: "not-found",
      profile: "not-found",
      admin: "open",
      "forgot-password": "not-found",
      "reset-password": "not-found",
      "verify-email": "not-found",
      docs: "open",
      orgs: "not-found",
      invitations: "not-found",
    });
    expect(pageOutcome("admin", state, true)).toBe("not-found");
  });
});
