import { describe, expect, it } from "vitest";
import { formatPath } from "./diagnostics.js";
import { validateDomainText } from "./validate.js";

/**
 * The rules of `auth.organizations` and `tenant: true` (docs/organizations.md#domainyaml), each
 * reported at its place in the file.
 */

interface Options {
  readonly organizations?: string;
  readonly project?: string;
  readonly permissions?: string;
  readonly extra?: string;
  readonly roles?: string;
  readonly type?: string;
}

function domain(options: Options = {}): string {
  const {
    organizations = "{ roles: [Owner, Manager, Member], manage: [Owner, Manager] }",
    project = "tenant: true",
    permissions = '{ create: ["@Member(Owner, Manager)"], read: ["@Member", Admin], update: ["@Owner"] }',
    extra = "",
    roles = "[Admin, Editor]",
    type = "jwt",
  } = options;
  return [
    "name: teams",
    "entities:",
    "  User:",
    "    fields:",
    "      email: { type: string, required: true, unique: true }",
    "      password: { type: string, required: true }",
    "  Project:",
    `    ${project}`,
    "    fields:",
    "      title: string",
    `    permissions: ${permissions}`,
    ...(extra ? [extra] : []),
    "auth:",
    `  type: ${type}`,
    `  roles: ${roles}`,
    ...(organizations ? [`  organizations: ${organizations}`] : []),
    "",
  ].join("\n");
}

/** Line and column (1-based) of the first occurrence of `needle` in `text`, from `after`. */
function at(text: string, needle: string, after = ""): { line: number; column: number } {
  const start = after ? text.indexOf(after) : 0;
  const index = text.indexOf(needle, start);
  if (index < 0) throw new Error(`'${needle}' is not in the text`);
  const before = text.slice(0, index).split("\n");
  return { line: before.length, column: (before.at(-1) ?? "").length + 1 };
}

function errors(text: string) {
  return validateDomainText(text).diagnostics.filter((diagnostic) => diagnostic.severity === "error");
}

function expectError(text: string, expected: { path: string; says: string; where: { line: number; column: number } }): void {
  const found = errors(text).map((diagnostic) => ({
    path: formatPath(diagnostic.path),
    message: diagnostic.message,
    line: diagnostic.line,
    column: diagnostic.column,
  }));
  expect(found).toContainEqual({ path: expected.path, message: expect.stringContaining(expected.says), ...expected.where });
}

describe("auth.organizations and tenant entities", () => {
  it("accepts the documented example, and resolves the defaults", () => {
    const { model, diagnostics } = validateDomainText(domain({ organizations: "{ roles: [Owner, Manager, Member] }" }));
    expect(diagnostics).toEqual([]);
    expect(model?.auth?.organizations).toEqual({ roles: ["Owner", "Manager", "Member"], manage: ["Owner"], create: ["@Authenticated"] });
    const project = model?.entities.find((entity) => entity.name === "Project");
    expect(project?.tenant).toBe(true);
    // An operation without an entry is the members', never every signed-in user's.
    expect(project?.permissions.delete).toEqual(["@Member"]);
    expect(model?.entities.find((entity) => entity.name === "User")?.tenant).toBe(false);
  });

  it("needs organization roles: identifiers, at least one, each once, none named like a global role", () => {
    for (const roles of ["[]", "[owner-1]"]) {
      const text = domain({ organizations: `{ roles: ${roles} }` });
      expect(errors(text).map((diagnostic) => formatPath(diagnostic.path).startsWith("auth.organizations.roles"))).toContain(true);
    }
    const twice = domain({ organizations: "{ roles: [Owner, Member, Owner] }" });
    expectError(twice, { path: "auth.organizations.roles[2]", says: "declared twice", where: at(twice, "Owner]") });
    const shared = domain({ organizations: "{ roles: [Owner, Editor] }" });
    expectError(shared, {
      path: "auth.organizations.roles[1]",
      says: "also a role of auth.roles",
      where: at(shared, "Editor]", "organizations"),
    });
  });

  it("makes manage name organization roles, and create global roles or @Authenticated", () => {
    const manage = domain({ organizations: "{ roles: [Owner, Manager, Member], manage: [Boss] }" });
    expectError(manage, { path: "auth.organizations.manage[0]", says: "'Boss' is not an organization role", where: at(manage, "Boss") });
    const create = domain({ organizations: '{ roles: [Owner, Manager], create: [Owner, "@Authenticated", Admin] }', permissions: "{}" });
    expectError(create, {
      path: "auth.organizations.create[0]",
      says: "neither a role of auth.roles nor @Authenticated",
      where: at(create, "Owner,", "create"),
    });
    expect(errors(create)).toHaveLength(1);
  });

  it("refuses organizations under auth.type none, and tenant: true without them or on the auth entity", () => {
    const none = domain({ type: "none", roles: "[]", permissions: "{}", project: "tenant: true" });
    expectError(none, { path: "auth.organizations", says: "auth.type is none", where: at(none, "organizations") });
    const without = domain({ organizations: "", permissions: "{}" });
    expectError(without, { path: "entities.Project.tenant", says: "needs auth.organizations", where: at(without, "true", "Project") });
    const users = domain({ extra: "" }).replace("  User:\n", "  User:\n    tenant: true\n");
    expectError(users, { path: "entities.User.tenant", says: "the auth entity cannot be a tenant", where: at(users, "true", "User") });
  });

  it("keeps @Member to tenant entities, naming known organization roles only", () => {
    const plain = domain({ project: "owner: null" }).replace("    owner: null\n", "");
    expectError(plain, {
      path: "entities.Project.permissions.create[0]",
      says: "tenant entities only",
      where: at(plain, '"@Member(Owner'),
    });
    const unknown = domain({ permissions: '{ create: ["@Member(Owner, Boss)"] }' });
    expectError(unknown, {
      path: "entities.Project.permissions.create[0]",
      says: "'Boss' is not an organization role",
      where: at(unknown, '"@Member('),
    });
    const empty = domain({ permissions: '{ create: ["@Member()"] }' });
    expectError(empty, { path: "entities.Project.permissions.create[0]", says: "names organization roles", where: at(empty, '"@Member(') });
  });

  it("keeps the segments of /api/orgs free, and organizationId the server's", () => {
    const orgs = domain({ extra: "  Org:\n    fields: { name: string }" }).replace("  Org:", "  Orgs:");
    expectError(orgs, { path: "entities.Orgs", says: "/api/orgs", where: at(orgs, "Orgs:") });
    const members = domain({ extra: "  Members:\n    tenant: true\n    fields: { name: string }" });
    expectError(members, { path: "entities.Members", says: "cannot take the segment 'members'", where: at(members, "Members:") });
    const declared = domain().replace("      title: string", "      title: string\n      organizationId: string");
    expectError(declared, {
      path: "entities.Project.fields.organizationId",
      says: "managed by the service",
      where: at(declared, "organizationId"),
    });
  });

  it("lets only a tenant entity refer to a tenant entity's records", () => {
    const text = domain({ extra: "  Invoice:\n    fields:\n      project: { type: ref, to: Project }" });
    expectError(text, {
      path: "entities.Invoice.fields.project.to",
      says: "only another tenant entity",
      where: at(text, "Project }", "Invoice"),
    });
    const tenant = domain({ extra: "  Task:\n    tenant: true\n    fields:\n      project: { type: ref, to: Project }" });
    expect(errors(tenant)).toEqual([]);
  });
});
