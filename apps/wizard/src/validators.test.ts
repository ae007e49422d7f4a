import { describe, expect, it } from "vitest";
import {
  errorsBeyondAnswers,
  parseRoleList,
  validateAuthType,
  validateDefaultRole,
  validateEntityChoice,
  validateMfaRequired,
  validateRoleList,
  validateRolesCoverPermissions,
} from "./validators.js";

describe("role lists", () => {
  it("splits on commas and spaces", () => {
    expect(parseRoleList(" Admin,Editor  Reader, ")).toEqual(["Admin", "Editor", "Reader"]);
    expect(parseRoleList("")).toEqual([]);
  });

  it("accepts identifiers and the empty list", () => {
    expect(validateRoleList("Admin, Editor, _staff2")).toBeUndefined();
    expect(validateRoleList(undefined)).toBeUndefined();
  });

  it("names the first invalid role", () => {
    expect(validateRoleList("Admin, 2nd, Edi-tor")).toBe(
      "'2nd' is not a valid role name: use letters, digits and _, not starting with a digit",
    );
    expect(validateRoleList("Admin, @Owner")).toMatch(/^'@Owner' is not a valid role name/);
  });

  it("rejects duplicates", () => {
    expect(validateRoleList("Admin, Editor, Admin")).toBe("'Admin' is listed twice");
  });

  it("keeps the roles that permissions use", () => {
    expect(validateRolesCoverPermissions(["Admin"], ["Admin"])).toBeUndefined();
    expect(validateRolesCoverPermissions(["Admin"], ["Admin", "Editor"])).toBe("'Editor' is used in permissions; keep it in the list");
    expect(validateRolesCoverPermissions([], ["A", "B"])).toBe("'A', 'B' are used in permissions; keep them in the list");
  });
});

describe("flag values", () => {
  it("auth types: jwt and none, planned ones explained", () => {
    expect(validateAuthType("jwt")).toBeUndefined();
    expect(validateAuthType("none")).toBeUndefined();
    expect(validateAuthType("cookie")).toBe("auth.type 'cookie' is planned but not implemented; use jwt or none");
    expect(validateAuthType("basic")).toBe("--type must be jwt or none, not 'basic'");
  });

  it("default role: never the setup role", () => {
    expect(validateDefaultRole("Reader", ["Admin", "Reader"])).toBeUndefined();
    expect(validateDefaultRole("", ["Admin"])).toBeUndefined();
    expect(validateDefaultRole("Admin", ["Admin", "Reader"])).toBe(
      "'Admin' is the setup role; register must never create an administrator",
    );
    expect(validateDefaultRole("Owner", ["Owner", "Staff"])).toMatch(/'Owner' is the setup role/);
    expect(validateDefaultRole("Guest", ["Admin"])).toBe("'Guest' is not one of the roles (Admin)");
  });

  it("roles that must use a second factor: declared ones, named as validate names them", () => {
    expect(validateMfaRequired(["Admin", "Editor"], ["Admin", "Editor", "Reader"])).toBeUndefined();
    expect(validateMfaRequired([], [])).toBeUndefined();
    expect(validateMfaRequired(["Admin", "Edtor"], ["Admin", "Editor"])).toBe(
      "role 'Edtor' is not declared in auth.roles (did you mean 'Editor'?)",
    );
    expect(validateMfaRequired(["Owner"], ["Admin", "Editor"])).toBe(
      "role 'Owner' is not declared in auth.roles (declared: Admin, Editor)",
    );
    expect(validateMfaRequired(["Admin"], [])).toBe("role 'Admin' is not declared in auth.roles");
  });

  it("entity: one of the file's", () => {
    expect(validateEntityChoice("User", ["User", "Post"])).toBeUndefined();
    expect(validateEntityChoice("Usr", ["User", "Post"])).toBe("'Usr' is not an entity of domain.yaml (entities: User, Post)");
  });
});

describe("errorsBeyondAnswers", () => {
  it("keeps the errors no answer can fix, and leaves the rest to the result", () => {
    const typo = { severity: "error", path: ["entities", "User", "fields", "email", "type"], message: "… (did you mean 'string'?)" };
    const diagnostics = [
      typo,
      {
        severity: "error",
        path: ["entities", "User", "fields", "email", "type"],
        message: "the auth entity's 'email' must be a string field",
      },
      { severity: "error", path: ["entities", "Post", "permissions", "create", 0], message: "role 'Editor' is not declared in auth.roles" },
      { severity: "error", path: ["auth", "type"], message: "'cookie' is planned" },
      { severity: "warning", path: ["entities", "Post"], message: "no permissions" },
    ];
    expect(errorsBeyondAnswers(diagnostics)).toEqual([typo]);
  });
});
