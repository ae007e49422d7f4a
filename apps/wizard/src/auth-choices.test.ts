import { describe, expect, it } from "vitest";
import { registerRoleToOffer } from "./auth-choices.js";

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
