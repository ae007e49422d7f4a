import { describe, expect, it } from "vitest";
import type { Operation } from "../config/vocabulary.js";
import { summarizePermission } from "./permission-summary.js";
import type { PolicyEntity } from "./subjects.js";

const post = (permissions: PolicyEntity["permissions"]): PolicyEntity => ({ isAuthEntity: false, ownerField: "author", permissions });

describe("summarizePermission", () => {
  it.each<[PolicyEntity["permissions"], Operation, readonly string[], string]>([
    [{ update: ["Editor", "Admin", "@Owner"] }, "update", ["Editor", "Admin", "@Owner"], "Editor, Admin; the record's owner"],
    [{ read: ["*", "Admin"] }, "read", ["*", "Admin"], "anyone, signed in or not"],
    [{}, "delete", ["@Authenticated"], "any signed-in user"],
    [{ create: ["Admin", "@Authenticated"] }, "create", ["Admin", "@Authenticated"], "any signed-in user"],
    [{ delete: [] }, "delete", [], "nobody"],
    [{ delete: ["@Friends"] }, "delete", ["@Friends"], "nobody"],
    [{ read: ["@Owner"] }, "read", ["@Owner"], "the record's owner (a list shows them only their own records)"],
    [{ create: ["@Owner"] }, "create", ["@Owner"], "any signed-in user, who becomes the record's owner"],
  ])("%j %s → %j, %s", (permissions, operation, list, sentence) => {
    expect(summarizePermission(post(permissions), operation)).toEqual({ permissions: list, sentence });
  });

  it("names the members of the organization on a tenant entity", () => {
    const project: PolicyEntity = { isAuthEntity: false, ownerField: "ownerId", tenant: true, permissions: {} };
    const summary = (permissions: PolicyEntity["permissions"], operation: Operation) =>
      summarizePermission({ ...project, permissions }, operation).sentence;
    expect(summary({ create: ["@Member(Owner, Manager)"] }, "create")).toBe("members holding Owner, Manager");
    expect(summary({ read: ["@Member", "Admin"] }, "read")).toBe("Admin; members of the organization");
    expect(summary({ update: ["@Member(Owner)", "@Owner"] }, "update")).toBe("members holding Owner; the record's owner");
    // Off a tenant entity the token grants nothing, and says nothing.
    expect(summarizePermission(post({ read: ["@Member"] }), "read").sentence).toBe("nobody");
  });

  it("says 'the user themself' on the auth entity, and 'anyone' for an open domain whatever the list", () => {
    const user: PolicyEntity = { isAuthEntity: true, ownerField: null, permissions: { read: ["Admin", "@Owner"] } };
    expect(summarizePermission(user, "read").sentence).toBe("Admin; the user themself");
    expect(summarizePermission(post({ delete: [] }), "delete", { open: true })).toEqual({
      permissions: ["*"],
      sentence: "anyone, signed in or not",
    });
  });
});
