import { describe, expect, it } from "vitest";
import { DEV_ORIGIN, devCallbackUrl } from "./providers.js";
import { describeOrganizations, describeProviders, describeSecondFactors } from "./summary.js";

describe("describeSecondFactors", () => {
  it("names the roles that must use one, and the factors there are", () => {
    expect(describeSecondFactors({ totp: true, passkeys: true, required: ["Admin", "Editor"] })).toBe(
      "Second factors: required for Admin, Editor, who add an authenticator app or a passkey at their next sign-in (setup included); anyone else may add one on /profile.",
    );
    expect(describeSecondFactors({ totp: false, passkeys: true, required: ["Admin"] })).toContain(
      "who add a passkey at their next sign-in",
    );
  });

  it("says when they are optional, and when they are off", () => {
    expect(describeSecondFactors({ totp: true, passkeys: false, required: [] })).toBe(
      "Second factors: optional; users add an authenticator app on /profile.",
    );
    expect(describeSecondFactors({ totp: false, passkeys: false, required: [] })).toBe(
      "Second factors: off (auth.mfa); a password alone signs in.",
    );
  });
});

describe("describeProviders", () => {
  it("gives each provider's callback URL in development and its variables, and says what production uses", () => {
    const providers = [
      { id: "google", name: "Google" },
      { id: "acme-id", name: "Acme SSO" },
    ];
    expect(describeProviders(providers, { segment: "member" })).toEqual([
      "Sign-in with providers: register each callback URL at its provider,",
      "then fill in its client id and secret in .env.local:",
      "  Google    http://localhost:3000/api/member/oauth/google/callback",
      "            AUTH_PROVIDER_GOOGLE_CLIENT_ID",
      "            AUTH_PROVIDER_GOOGLE_CLIENT_SECRET",
      "  Acme SSO  http://localhost:3000/api/member/oauth/acme-id/callback",
      "            AUTH_PROVIDER_ACME_ID_CLIENT_ID",
      "            AUTH_PROVIDER_ACME_ID_CLIENT_SECRET",
      "In production, APP_URL takes the place of http://localhost:3000.",
    ]);
  });

  it("says nothing without providers", () => {
    expect(describeProviders([], { segment: "user" })).toEqual([]);
  });

  it("builds the callback URL from the endpoint catalog's path", () => {
    expect(devCallbackUrl({ segment: "user" }, "github")).toBe(`${DEV_ORIGIN}/api/user/oauth/github/callback`);
  });
});

describe("describeOrganizations", () => {
  it("names the roles, what tenant: true does and which entities have it, and where the pages are", () => {
    expect(describeOrganizations({ roles: ["Owner", "Manager", "Member"] }, ["Project"])).toEqual([
      "Organizations: members hold Owner, Manager or Member;",
      "whoever creates one is its Owner.",
      "tenant: true on an entity makes its records belong to an organization",
      "(so far: Project).",
      "Pages: /orgs (yours, create one), /orgs/<id> (members, invitations).",
    ]);
    const one = describeOrganizations({ roles: ["Lead"] }, []);
    expect(one.slice(0, 2)).toEqual(["Organizations: members hold Lead;", "whoever creates one is its Lead."]);
    expect(one[3]).toBe("(no entity has it yet: add it in domain.yaml).");
    expect(describeOrganizations({ roles: ["Owner", "Member"] }, ["Project", "Task"]).slice(0, 4)).toEqual([
      "Organizations: members hold Owner or Member;",
      "whoever creates one is its Owner.",
      "tenant: true on an entity makes its records belong to an organization",
      "(so far: Project, Task).",
    ]);
  });

  it("keeps each line short enough for a note in an 80-column terminal", () => {
    for (const line of describeOrganizations({ roles: ["Owner", "Manager", "Member"] }, [])) expect(line.length).toBeLessThanOrEqual(72);
  });

  it("says nothing without organizations", () => {
    expect(describeOrganizations(null, [])).toEqual([]);
  });
});
