import { BLOG_YAML, domainOf, TEAMS_YAML } from "@domain-auth/test-support/domains";
import { describe, expect, it } from "vitest";
import type { DomainModel, EntityModel } from "../config/index.js";
import type { Operation } from "../config/vocabulary.js";
import { authorize } from "./authorize.js";
import { ownsRecord } from "./ownership.js";
import type { Caller } from "./subjects.js";

const ANONYMOUS: Caller = null;
const READER: Caller = { id: "u-reader", role: "Reader" };
const EDITOR: Caller = { id: "u-editor", role: "Editor" };
const ADMIN: Caller = { id: "u-admin", role: "Admin" };
const NO_ROLE: Caller = { id: "u-none", role: null };

const ALL = { allowed: true, scope: "all" };
const OWN = { allowed: true, scope: "own" };
const DENY_401 = { allowed: false, status: 401 };
const DENY_403 = { allowed: false, status: 403 };

function entityOf(model: DomainModel, name: string): EntityModel {
  const found = model.entities.find((entity) => entity.name === name);
  if (!found) throw new Error(`no entity ${name}`);
  return found;
}

/** A domain whose `Thing` entity has the given `permissions` block (YAML flow map), or none. */
function thing(permissions: string | null, options: { type?: "jwt" | "none"; roles?: string } = {}): EntityModel {
  const model = domainOf(`name: app
entities:
  User:
    fields:
      email: { type: string, required: true }
      password: { type: string, required: true }
      role: { type: string, default: Reader }
  Thing:
    fields:
      title: string
${permissions === null ? "" : `    permissions: ${permissions}\n`}auth:
  type: ${options.type ?? "jwt"}
  roles: ${options.roles ?? "[Admin, Editor, Reader]"}
`);
  return entityOf(model, "Thing");
}

const OPERATIONS: readonly Operation[] = ["create", "read", "update", "delete"];

describe("authorize", () => {
  it("without a permissions block, allows any authenticated user and refuses anonymous callers", () => {
    const entity = thing(null);
    for (const operation of OPERATIONS) {
      expect(authorize(entity, operation, ANONYMOUS)).toEqual(DENY_401);
      expect(authorize(entity, operation, READER)).toEqual(ALL);
      expect(authorize(entity, operation, NO_ROLE)).toEqual(ALL);
    }
  });

  it("without an entry for the operation, allows any authenticated user", () => {
    const entity = thing("{ read: [Admin] }");
    expect(authorize(entity, "update", ANONYMOUS)).toEqual(DENY_401);
    expect(authorize(entity, "update", READER)).toEqual(ALL);
    expect(authorize(entity, "read", READER)).toEqual(DENY_403);
  });

  it('allows anyone, anonymous included, with "*"', () => {
    const entity = thing('{ read: ["*"], create: [Admin, "*"] }');
    expect(authorize(entity, "read", ANONYMOUS)).toEqual(ALL);
    expect(authorize(entity, "read", NO_ROLE)).toEqual(ALL);
    expect(authorize(entity, "create", ANONYMOUS)).toEqual(ALL);
  });

  it("allows any authenticated user, with or without a role, with @Authenticated", () => {
    const entity = thing('{ read: ["@Authenticated"] }');
    expect(authorize(entity, "read", ANONYMOUS)).toEqual(DENY_401);
    expect(authorize(entity, "read", NO_ROLE)).toEqual(ALL);
    expect(authorize(entity, "read", EDITOR)).toEqual(ALL);
  });

  it("allows the listed roles only", () => {
    const entity = thing("{ create: [Editor, Admin] }");
    expect(authorize(entity, "create", EDITOR)).toEqual(ALL);
    expect(authorize(entity, "create", ADMIN)).toEqual(ALL);
    expect(authorize(entity, "create", READER)).toEqual(DENY_403);
    expect(authorize(entity, "create", NO_ROLE)).toEqual(DENY_403);
    expect(authorize(entity, "create", ANONYMOUS)).toEqual(DENY_401);
  });

  it("grants @Owner as scope 'own' to authenticated callers only", () => {
    const entity = thing('{ update: ["@Owner"], read: ["@Owner"] }');
    expect(authorize(entity, "update", READER)).toEqual(OWN);
    expect(authorize(entity, "read", NO_ROLE)).toEqual(OWN);
    expect(authorize(entity, "update", ANONYMOUS)).toEqual(DENY_401);
  });

  it("lets the first matching rule decide: a listed role sees everything, not only its own records", () => {
    const entity = thing('{ read: ["@Owner", Admin], update: ["@Owner", "@Authenticated"] }');
    expect(authorize(entity, "read", ADMIN)).toEqual(ALL);
    expect(authorize(entity, "read", EDITOR)).toEqual(OWN);
    expect(authorize(entity, "update", EDITOR)).toEqual(ALL);
  });

  it("allows nobody with an empty list", () => {
    const entity = thing("{ delete: [] }");
    expect(authorize(entity, "delete", ANONYMOUS)).toEqual(DENY_401);
    expect(authorize(entity, "delete", ADMIN)).toEqual(DENY_403);
  });

  it("lets an unknown @ token grant nothing", () => {
    const entity = thing('{ read: ["@Everyone"] }');
    expect(authorize(entity, "read", ANONYMOUS)).toEqual(DENY_401);
    expect(authorize(entity, "read", ADMIN)).toEqual(DENY_403);
  });

  it("does not let a caller without a role match anything but *, @Authenticated and @Owner", () => {
    const entity = thing("{ read: [Reader], update: [] }");
    expect(authorize(entity, "read", NO_ROLE)).toEqual(DENY_403);
    expect(authorize(entity, "update", NO_ROLE)).toEqual(DENY_403);
  });

  it("opens every operation with { open: true } (auth.type none)", () => {
    const entity = thing("{ read: [Admin], delete: [] }", { type: "none" });
    for (const operation of OPERATIONS) expect(authorize(entity, operation, ANONYMOUS, { open: true })).toEqual(ALL);
  });

  it("guards the auth entity by default: the setup role creates and deletes, a user reads and updates itself", () => {
    const model = domainOf(`name: app
entities:
  Member:
    fields:
      email: { type: string, required: true }
      password: { type: string, required: true }
      role: { type: string, default: Member }
auth:
  type: jwt
  roles: [Owner, Member]
`);
    const member = entityOf(model, "Member");
    const owner: Caller = { id: "u-owner", role: "Owner" };
    const plain: Caller = { id: "u-member", role: "Member" };
    expect(model.auth?.setupRole).toBe("Owner");
    expect(authorize(member, "create", owner)).toEqual(ALL);
    expect(authorize(member, "create", plain)).toEqual(DENY_403);
    expect(authorize(member, "create", ANONYMOUS)).toEqual(DENY_401);
    expect(authorize(member, "delete", owner)).toEqual(ALL);
    expect(authorize(member, "delete", plain)).toEqual(DENY_403);
    for (const operation of ["read", "update"] as const) {
      expect(authorize(member, operation, owner)).toEqual(ALL);
      expect(authorize(member, operation, plain)).toEqual(OWN);
      expect(authorize(member, operation, ANONYMOUS)).toEqual(DENY_401);
    }
  });

  it("keeps the declared entries of the auth entity and guards only the missing ones", () => {
    const user = entityOf(domainOf(BLOG_YAML), "User");
    expect(authorize(user, "read", READER)).toEqual(OWN);
    expect(authorize(user, "delete", EDITOR)).toEqual(DENY_403);
    expect(authorize(user, "create", EDITOR)).toEqual(DENY_403);
    expect(authorize(user, "create", ADMIN)).toEqual(ALL);
  });
});

describe("ownsRecord", () => {
  const model = domainOf(BLOG_YAML);
  const post = entityOf(model, "Post");
  const user = entityOf(model, "User");

  it("compares the owner field with the caller's id", () => {
    expect(ownsRecord(post, { id: "p1", author: "u-editor" }, EDITOR)).toBe(true);
    expect(ownsRecord(post, { id: "p1", author: "u-other" }, EDITOR)).toBe(false);
    expect(ownsRecord(post, { id: "p1", author: null }, EDITOR)).toBe(false);
    expect(ownsRecord(post, { id: "p1", author: null }, ANONYMOUS)).toBe(false);
  });

  it("on the auth entity, means the record is the caller", () => {
    expect(ownsRecord(user, { id: "u-reader" }, READER)).toBe(true);
    expect(ownsRecord(user, { id: "u-editor" }, READER)).toBe(false);
  });

  it("uses the hidden ownerId when the entity has no owner field", () => {
    const model = domainOf(`name: app
entities:
  User:
    fields:
      email: { type: string, required: true }
      password: { type: string, required: true }
  Note:
    fields:
      text: string
    permissions:
      read: ["@Owner"]
auth:
  type: jwt
`);
    const note = entityOf(model, "Note");
    expect(note.ownerField).toBe("ownerId");
    expect(ownsRecord(note, { id: "n1", ownerId: "u1" }, { id: "u1", role: null })).toBe(true);
    expect(ownsRecord(note, { id: "n1", ownerId: "u2" }, { id: "u1", role: null })).toBe(false);
  });

  it("is false for an entity without an owner field", () => {
    expect(ownsRecord(thing(null), { id: "t1" }, READER)).toBe(false);
  });
});

describe("authorize on a tenant entity (docs/organizations.md#permissions)", () => {
  const project = entityOf(domainOf(TEAMS_YAML), "Project");
  const task = entityOf(domainOf(TEAMS_YAML), "Task");
  const OWNER = { role: "Owner" };
  const MANAGER = { role: "Manager" };
  const MEMBER = { role: "Member" };
  const DENY_404 = { allowed: false, status: 404 };

  it.each<[string, Operation, Caller, { role: string } | null, object]>([
    ["a Manager creates (@Member(Owner, Manager))", "create", READER, MANAGER, ALL],
    ["a Member may not create: 403", "create", READER, MEMBER, DENY_403],
    ["anyone not a member: 404, never 403", "create", READER, null, DENY_404],
    ["an anonymous caller: 401, whatever the membership", "read", ANONYMOUS, null, DENY_401],
    ["any member reads (@Member)", "read", READER, MEMBER, ALL],
    ["a global role the list names grants in every organization", "read", ADMIN, null, ALL],
    ["@Owner needs a member: a removed one owns nothing there", "update", READER, null, DENY_404],
    ["@Owner within the organization", "update", READER, MEMBER, OWN],
    ["only the Owner deletes", "delete", READER, MANAGER, DENY_403],
    ["the Owner deletes", "delete", READER, OWNER, ALL],
  ])("%s", (_case, operation, caller, membership, decision) => {
    expect(authorize(project, operation, caller, { membership })).toEqual(decision);
  });

  it("reads an operation without an entry as members only, never every signed-in user", () => {
    expect(task.permissions.read).toEqual(["@Member"]);
    expect(authorize(task, "read", READER, { membership: null })).toEqual(DENY_404);
    expect(authorize(task, "delete", READER, { membership: MEMBER })).toEqual(ALL);
  });
});
