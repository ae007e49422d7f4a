import { describe, expect, it } from "vitest";
import { initialProviders, registerRoleToOffer, unattendedChoices } from "./auth-choices.js";
import { readDomainState } from "./domain-state.js";

describe("the role register gives, as the question offers it", () => {
  const candidates = ["Editor", "Reader"]; // Admin, Editor, Reader less the setup role

  it("starts on the least privileged role, the last listed, when the roles do not hold the file's", () => {
    expect(registerRoleToOffer("Member", candidates)).toBe("Reader");
  });

  it("keeps the file's role while the roles hold it, and no role when the file gives none", () => {
    expect(registerRoleToOffer("Editor", candidates)).toBe("Editor");
    expect(registerRoleToOffer(null, candidates)).toBe("");
    expect(registerRoleToOffer("Member", [])).toBe("");
  });
});

describe("the providers to start from", () => {
  const state = readDomainState(
    [
      "name: x",
      "entities:",
      "  User: { fields: { email: string, password: string } }",
      "auth:",
      "  type: jwt",
      "  providers:",
      "    github: { type: github, url: https://git.example.com }",
      "    acme: { type: oidc, issuer: https://id.acme.example }",
      "    work: { type: microsoft, tenant: contoso.onmicrosoft.com }",
      "    gl: { type: gitlab }",
      "    google: { type: google }",
      "",
    ].join("\n"),
  );
  if (!state) throw new Error("the test's domain.yaml is not YAML");

  it("are the presets the file declares under their own id, in its order", () => {
    expect(state.providers.map(({ id }) => id)).toEqual(["github", "acme", "work", "gl", "google"]);
    expect(initialProviders(state, { disabledEndpoints: [] })).toEqual(["github", "google"]);
    expect(unattendedChoices(state, { disabledEndpoints: [] }, { isNewFile: false }).providers).toEqual(["github", "google"]);
  });

  it("are the flag's when it is given", () => {
    expect(initialProviders(state, { disabledEndpoints: [], providers: ["gitlab"] })).toEqual(["gitlab"]);
    expect(initialProviders(state, { disabledEndpoints: [], providers: [] })).toEqual([]);
  });
});
