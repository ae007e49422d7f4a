import { BLOG_YAML, domainOf } from "@domain-auth/test-support/domains";
import { describe, expect, it } from "vitest";
import type { EntityModel } from "../config/index.js";
import { ERROR_CODES } from "../http/errors.js";
import { mayPerform } from "./authorize.js";
import { changesOwnCredentials, checkCredentialWriter, checkCurrentPassword } from "./credentials.js";
import { checkFieldGuards } from "./field-guards.js";
import { checkOwnership } from "./ownership.js";
import { checkSessionRevoker } from "./sessions.js";
import {
  checkLastAdmin,
  checkSetupRoleOnly,
  checkSetupRoleUser,
  holdsSetupRole,
  removesSetupRoleHolder,
  type UserWrite,
} from "./setup-role.js";
import type { Caller, PolicyRecord } from "./subjects.js";
import type { Verdict } from "./verdict.js";

// The README's blog: Admin is the setup role; a Post is owned through `author`.
const model = domainOf(BLOG_YAML);
const auth = (() => {
  if (!model.auth) throw new Error("the blog has an auth block");
  return model.auth;
})();
const entityNamed = (name: string): EntityModel => model.entities.find((entity) => entity.name === name) as EntityModel;
const user = entityNamed("User");
const post = entityNamed("Post");

/** The callers of every table, in the order of its columns. */
const CALLERS: readonly [string, Caller][] = [
  ["anonymous", null],
  ["member", { id: "u-member", role: "Reader" }],
  ["owner", { id: "u-owner", role: "Editor" }],
  ["setup role", { id: "u-admin", role: "Admin" }],
  ["self", { id: "u-target", role: "Reader" }],
];

const A_POST: PolicyRecord = { id: "p1", title: "Hello", author: "u-owner" };
const TARGET: PolicyRecord = { id: "u-target", email: "target@example.com", role: "Reader" };
const ADMIN_TARGET: PolicyRecord = { ...TARGET, role: "Admin" };

/** A verdict as the tables write it: "ok", or the status of the refusal. */
function outcome(verdict: Verdict): string {
  if (verdict.allowed) return "ok";
  // Every refusal answers with the status the API's error table gives its code.
  expect(verdict.status).toBe(ERROR_CODES[verdict.code].status);
  return String(verdict.status);
}

/** One row of a table: what `decide` answers for each caller, in the order of {@link CALLERS}. */
function row(decide: (caller: Caller) => Verdict | boolean): string {
  return CALLERS.map(([, caller]) => {
    const verdict = decide(caller);
    return typeof verdict === "boolean" ? (verdict ? "yes" : "no") : outcome(verdict);
  }).join(" ");
}

describe("the guard matrix (columns: anonymous, member, owner, setup role, self)", () => {
  it.each([
    ["create or update a post", post, { title: "T" }, "ok ok ok ok ok"],
    ["…naming its author", post, { title: "T", author: "u-x" }, "403 403 403 ok 403"],
    ["…with author: null", post, { author: null }, "403 403 403 ok 403"],
    ["create or update a user's name", user, { name: "N" }, "ok ok ok ok ok"],
    ["…its role", user, { role: "Editor" }, "403 403 403 ok 403"],
    ["…its role: null", user, { role: null }, "403 403 403 ok 403"],
  ] as const)("field guards: %s", (_label, entity, values, expected) => {
    expect(row((caller) => checkFieldGuards(auth, entity, caller, values))).toBe(expected);
  });

  it("field guards: nothing is guarded under auth.type none", () => {
    expect(row((caller) => checkFieldGuards(null, post, caller, { author: "u-x" }))).toBe("ok ok ok ok ok");
  });

  it.each([
    ["read", "own", "403 403 ok 403 403"],
    ["update", "own", "403 403 ok 403 403"],
    ["delete", "own", "403 403 ok 403 403"],
    ["update", "all", "ok ok ok ok ok"],
  ] as const)("ownership of a post: %s with scope %s", (operation, scope, expected) => {
    expect(row((caller) => checkOwnership(post, { operation, caller, scope }, A_POST))).toBe(expected);
  });

  it.each([
    ["create", undefined, "no no yes yes no"],
    ["read", A_POST, "yes yes yes yes yes"],
    ["update", undefined, "no yes yes yes yes"],
    ["update", A_POST, "no no yes yes no"],
    ["delete", A_POST, "no no no yes no"],
  ] as const)("may perform on a post: %s on %o", (operation, record, expected) => {
    expect(row((caller) => mayPerform(post, operation, caller, record ? { record } : {}))).toBe(expected);
  });

  it.each([
    [{ name: "N" }, "ok ok ok ok ok", "no no no no no"],
    [{ password: "a new password" }, "403 403 403 ok ok", "no no no no yes"],
    [{ email: "target@example.com" }, "403 403 403 ok ok", "no no no no no"],
    [{ email: "new@example.com" }, "403 403 403 ok ok", "no no no no yes"],
    [{ email: "new@example.com", password: "a new password" }, "403 403 403 ok ok", "no no no no yes"],
  ])("credentials: updating a user with %o (writers; needs the current password)", (values, writers, needsCurrent) => {
    expect(row((caller) => checkCredentialWriter(auth, caller, TARGET, values))).toBe(writers);
    expect(row((caller) => changesOwnCredentials(caller, TARGET, values))).toBe(needsCurrent);
  });

  it.each([
    ["update", TARGET, "ok ok ok ok ok"],
    ["delete", TARGET, "ok ok ok ok ok"],
    ["update", ADMIN_TARGET, "403 403 403 ok 403"],
    ["delete", ADMIN_TARGET, "403 403 403 ok 403"],
  ] as const)("setup-role protection: %s %o", (operation, target, expected) => {
    expect(row((caller) => checkSetupRoleUser(auth, caller, target, operation))).toBe(expected);
  });

  it("signing a user out everywhere (DELETE sessions?userId=)", () => {
    expect(row((caller) => checkSessionRevoker(auth, caller))).toBe("403 403 403 ok 403");
    expect(checkSessionRevoker(auth, { id: "u-member", role: "Reader" })).toMatchObject({
      message: "Only the Admin role may sign a user out everywhere",
    });
  });

  it("an operation only the setup role may call (setupRoleOnly: GET events/summary)", () => {
    expect(row((caller) => checkSetupRoleOnly(auth, caller))).toBe("403 403 403 ok 403");
    expect(checkSetupRoleOnly(auth, { id: "u-member", role: "Reader" })).toMatchObject({ message: "Only the Admin role may do this" });
  });
});

describe("the refusals' messages", () => {
  const member: Caller = { id: "u-member", role: "Reader" };

  it("say which field only the setup role may set", () => {
    expect(checkFieldGuards(auth, post, member, { author: "u-x" })).toMatchObject({ message: "Only the Admin role may set 'author'" });
    expect(checkFieldGuards(auth, user, member, { role: null })).toMatchObject({ message: "Only the Admin role may set 'role'" });
  });

  it.each([
    ["read", "You can only read your own records"],
    ["update", "You can only change your own records"],
    ["delete", "You can only delete your own records"],
  ] as const)("say what a caller may do only to its own records: %s", (operation, message) => {
    expect(checkOwnership(post, { operation, caller: member, scope: "own" }, A_POST)).toMatchObject({ code: "FORBIDDEN", message });
  });

  it("say who may change credentials and that the current password is needed", () => {
    expect(checkCredentialWriter(auth, member, TARGET, { email: "x@example.com" })).toMatchObject({
      message: "Only the user or an administrator may change this",
    });
    expect(checkCurrentPassword(true)).toEqual({ allowed: true });
    expect(checkCurrentPassword(false)).toMatchObject({
      code: "FORBIDDEN",
      message: "Changing your password or email needs your current password in 'currentPassword'",
    });
  });

  it("say who may change or delete a setup-role user", () => {
    expect(checkSetupRoleUser(auth, member, ADMIN_TARGET, "update")).toMatchObject({ message: "Only the Admin role may change this user" });
    expect(checkSetupRoleUser(auth, member, ADMIN_TARGET, "delete")).toMatchObject({ message: "Only the Admin role may delete this user" });
  });
});

describe("the last admin", () => {
  it.each([
    [ADMIN_TARGET, "delete", true],
    [ADMIN_TARGET, { values: { role: "Editor" } }, true],
    [ADMIN_TARGET, { values: { role: null } }, true],
    [ADMIN_TARGET, { values: { role: "Admin" } }, false],
    [ADMIN_TARGET, { values: { name: "N" } }, false],
    [TARGET, "delete", false],
    [TARGET, { values: { role: "Editor" } }, false],
  ] as [PolicyRecord, UserWrite, boolean][])("removesSetupRoleHolder(%o, %o) is %s", (target, write, removes) => {
    expect(removesSetupRoleHolder(auth, target, write)).toBe(removes);
  });

  it.each([
    [0, "409"],
    [1, "409"],
    [2, "ok"],
  ])("with %i holders of the setup role: %s", (holders, expected) => {
    expect(outcome(checkLastAdmin(holders))).toBe(expected);
    if (expected !== "ok") expect(checkLastAdmin(holders)).toMatchObject({ code: "LAST_ADMIN", message: "This is the last administrator" });
  });
});

describe("holdsSetupRole", () => {
  it("names the setup role's holders, and nobody under auth.type none", () => {
    expect(holdsSetupRole(auth, "Admin")).toBe(true);
    expect(holdsSetupRole(auth, "Editor")).toBe(false);
    expect(holdsSetupRole(auth, null)).toBe(false);
    expect(holdsSetupRole(null, "Admin")).toBe(false);
  });
});
