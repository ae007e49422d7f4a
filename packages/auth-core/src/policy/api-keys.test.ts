import { describe, expect, it } from "vitest";
import { apiKeyScopes, checkKeyManager, checkKeyScope, checkKeyUserCreate, checkKeyUserUpdate, isApiKey } from "./api-keys.js";

const auth = { setupRole: "Admin" };
const admin = { id: "a1", role: "Admin" };
const user = { id: "u1", role: "Reader" };

describe("API key policy", () => {
  it("lists each entity's segment with each operation as the scopes of a domain", () => {
    expect(apiKeyScopes([{ segment: "post" }, { segment: "staff-member" }])).toEqual([
      "post:read",
      "post:create",
      "post:update",
      "post:delete",
      "staff-member:read",
      "staff-member:create",
      "staff-member:update",
      "staff-member:delete",
    ]);
  });

  it.each([
    [null, "post", "delete", true],
    [["post:read"], "post", "read", true],
    [["post:read"], "post", "update", false],
    [["post:read"], "user", "read", false],
    [[], "post", "read", false],
  ] as const)("scopes %j on %s:%s → allowed %s", (scopes, segment, operation, allowed) => {
    expect(checkKeyScope(scopes, segment, operation).allowed).toBe(allowed);
  });

  it.each([
    [admin, { id: "a1", email: "a@x.io", role: "Admin" }, { name: "A" }, true],
    [admin, { id: "a1", email: "a@x.io", role: "Admin" }, { role: "Reader" }, false],
    [admin, { id: "a1", email: "a@x.io", role: "Admin" }, { email: "b@x.io" }, false],
    [admin, { id: "a1", email: "a@x.io", role: "Admin" }, { email: "a@x.io" }, true],
    [admin, { id: "u1", email: "u@x.io", role: "Reader" }, { role: "Editor" }, false],
    [admin, { id: "u1", email: "u@x.io", role: "Reader" }, { role: "Reader", name: "U" }, true],
    [admin, { id: "u1", email: "u@x.io", role: "Reader" }, { email: "v@x.io" }, false],
    [admin, { id: "u1", email: "u@x.io", role: "Reader" }, { password: "new password" }, false],
  ] as const)("%j updating %j with %j through a key → allowed %s", (_caller, target, values, allowed) => {
    expect(checkKeyUserUpdate(target, values).allowed).toBe(allowed);
  });

  it.each([
    [{ email: "new@x.io", password: "a long password", role: "Admin" }, false],
    [{ email: "new@x.io" }, false],
    [{ password: "a long password" }, false],
    [{ role: "Reader" }, false],
    [{ name: "No credentials" }, true],
  ] as const)("creating a user with %j through a key → allowed %s", (body, allowed) => {
    expect(checkKeyUserCreate(body).allowed).toBe(allowed);
  });

  it("lets the setup role manage anyone's keys, others only their own", () => {
    expect(checkKeyManager(auth, admin, "u1").allowed).toBe(true);
    expect(checkKeyManager(auth, user, "u1").allowed).toBe(true);
    expect(checkKeyManager(auth, user, "a1")).toMatchObject({ allowed: false, code: "FORBIDDEN" });
  });

  it("tells a key from a token by its prefix", () => {
    expect(isApiKey("da_abc")).toBe(true);
    expect(isApiKey("eyJhbGciOi")).toBe(false);
  });
});
