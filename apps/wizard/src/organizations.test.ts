import { validateDomainText } from "@domain-auth/core/config";
import { describe, expect, it } from "vitest";
import { initialOrganizationRoles, unattendedChoices } from "./auth-choices.js";
import { type DomainState, readDomainState } from "./domain-state.js";
import {
  checkOrganizationsFlag,
  DEFAULT_ORGANIZATION_ROLES,
  organizationRolesProblem,
  organizationsNeededBy,
  validateOrganizationRolesCoverUses,
} from "./organizations.js";

function stateOf(text: string): DomainState {
  const state = readDomainState(text);
  if (!state) throw new Error("the test's domain.yaml is not YAML");
  return state;
}

const USERS = "name: x\nentities:\n  User:\n    fields:\n      email: string\n      password: string\n";
const TEAMS = `${USERS}  Project:
    tenant: true
    fields:
      title: string
    permissions:
      read: ["@Member", Admin]
      update: ["@Member(Manager, Lead)", "@Owner"]
  Note:
    fields:
      text: string
auth:
  type: jwt
  roles: [Admin, Reader]
  organizations:
    roles: [Owner, Manager, Lead]
    manage: [Owner, Manager]
`;

describe("organization roles, by the core's rules", () => {
  const problem = (roles: readonly string[], globalRoles: readonly string[] = ["Admin", "Editor", "Reader"]) =>
    organizationRolesProblem(validateDomainText, roles, globalRoles);

  it("accepts identifiers, each once, none named like a role of auth.roles", () => {
    expect(problem(["Owner", "Manager", "Member"])).toBeUndefined();
    expect(problem(["Owner"], [])).toBeUndefined();
    expect(problem(["team_lead", "Member2"])).toBeUndefined();
  });

  it("says what is wrong as the core says it", () => {
    expect(problem(["Owner", "2nd"])).toBe("'2nd' is not a valid role name: use letters, digits and _, and do not start with a digit");
    expect(problem(["Owner", "Member", "Owner"])).toBe("organization role 'Owner' is declared twice");
    expect(problem(["Owner", "Editor"])).toBe("'Editor' is also a role of auth.roles: name organization roles apart");
    expect(problem(["Admin"], ["Admin"])).toBe("'Admin' is also a role of auth.roles: name organization roles apart");
    expect(problem([])).toBe("name at least one role");
  });

  it("reads only the organization roles' problems, whatever the global roles are", () => {
    expect(problem(["Owner"], ["Admin", "Admin", "1x"])).toBeUndefined();
  });

  it("offers Owner, Manager, Member by default, which the core accepts beside the usual roles", () => {
    expect(DEFAULT_ORGANIZATION_ROLES).toEqual(["Owner", "Manager", "Member"]);
    expect(problem(DEFAULT_ORGANIZATION_ROLES, ["Admin", "Editor", "Reader"])).toBeUndefined();
  });
});

describe("what domain.yaml says of organizations", () => {
  it("reads the roles, the roles the file names elsewhere, and the tenant entities", () => {
    const state = stateOf(TEAMS);
    expect(state.organizationRoles).toEqual(["Owner", "Manager", "Lead"]);
    expect(state.usedOrganizationRoles).toEqual(["Manager", "Lead", "Owner"]);
    expect(state.tenants).toEqual(["Project"]);
  });

  it("has no organization roles without an auth.organizations map", () => {
    const state = stateOf(`${USERS}auth:\n  type: jwt\n`);
    expect(state.organizationRoles).toBeUndefined();
    expect(state.usedOrganizationRoles).toEqual([]);
    expect(state.tenants).toEqual([]);
    expect(stateOf(`${USERS}auth:\n  type: jwt\n  organizations:\n`).organizationRoles).toBeUndefined();
    expect(stateOf(`${USERS}auth:\n  type: jwt\n  organizations: { manage: [Owner] }\n`).organizationRoles).toEqual([]);
  });

  it("starts the question from the flag, else the file's roles, else Owner, Manager, Member less the global roles' names", () => {
    const state = stateOf(TEAMS);
    const globalRoles = ["Admin", "Reader"];
    expect(initialOrganizationRoles(state, { disabledEndpoints: [] }, globalRoles)).toEqual(["Owner", "Manager", "Lead"]);
    expect(initialOrganizationRoles(state, { disabledEndpoints: [], organizations: ["Chief"] }, globalRoles)).toEqual(["Chief"]);
    const none = stateOf(`${USERS}auth:\n  type: jwt\n`);
    expect(initialOrganizationRoles(none, { disabledEndpoints: [] }, globalRoles)).toEqual(["Owner", "Manager", "Member"]);
    expect(initialOrganizationRoles(none, { disabledEndpoints: [], organizations: [] }, globalRoles)).toEqual([
      "Owner",
      "Manager",
      "Member",
    ]);
    // The starter's roles are Admin and Member.
    expect(initialOrganizationRoles(none, { disabledEndpoints: [] }, ["Admin", "Member"])).toEqual(["Owner", "Manager"]);
    expect(initialOrganizationRoles(none, { disabledEndpoints: [] }, ["Owner", "Manager", "Member"])).toEqual([
      "Owner",
      "Manager",
      "Member",
    ]);
  });

  it("unattended, takes the flag, and without it leaves auth.organizations as the file has it", () => {
    const state = stateOf(TEAMS);
    expect(unattendedChoices(state, { disabledEndpoints: [] }, { isNewFile: false }).organizations).toBeUndefined();
    expect(unattendedChoices(state, { disabledEndpoints: [], organizations: ["Owner"] }, { isNewFile: false }).organizations).toEqual([
      "Owner",
    ]);
    expect(unattendedChoices(state, { disabledEndpoints: [], organizations: [] }, { isNewFile: false }).organizations).toEqual([]);
  });
});

describe("the roles the file names elsewhere stay", () => {
  it("asks to keep the roles of @Member(…) and manage", () => {
    expect(validateOrganizationRolesCoverUses(["Owner", "Manager", "Lead"], ["Manager", "Lead", "Owner"])).toBeUndefined();
    expect(validateOrganizationRolesCoverUses(["Owner", "Lead"], ["Manager", "Lead", "Owner"])).toBe(
      "'Manager' is used in @Member(…) permissions or auth.organizations.manage; keep it in the list",
    );
    expect(validateOrganizationRolesCoverUses(["Owner"], ["Manager", "Lead"])).toBe(
      "'Manager', 'Lead' are used in @Member(…) permissions or auth.organizations.manage; keep them in the list",
    );
  });

  it("needs organizations while an entity is a tenant", () => {
    expect(organizationsNeededBy([])).toBeUndefined();
    expect(organizationsNeededBy(["Project"])).toBe(
      "Project is a tenant entity (tenant: true), whose records belong to an organization: take tenant: true out of domain.yaml first",
    );
    expect(organizationsNeededBy(["Project", "Task"])).toMatch(/^Project, Task are tenant entities \(tenant: true\)/);
  });
});

describe("--organizations against the file", () => {
  const check = (text: string, flags: Parameters<typeof checkOrganizationsFlag>[1], interactive = false) =>
    checkOrganizationsFlag(stateOf(text), flags, { validate: validateDomainText, interactive });
  const plain = `${USERS}auth:\n  type: jwt\n  roles: [Admin, Editor, Reader]\n`;

  it("accepts roles the core accepts beside the file's roles, or those of --roles", () => {
    expect(check(plain, {})).toBeUndefined();
    expect(check(plain, { organizations: ["Owner", "Manager", "Member"] })).toBeUndefined();
    expect(check(plain, { organizations: [] })).toBeUndefined();
    expect(check(plain, { organizations: ["Owner", "Reader"], roles: ["Admin"] })).toBeUndefined();
  });

  it("refuses roles the core refuses, saying why with the flag's name", () => {
    expect(check(plain, { organizations: ["Owner", "Reader"] })).toBe(
      "--organizations: 'Reader' is also a role of auth.roles: name organization roles apart (auth.roles: Admin, Editor, Reader; --roles changes them)",
    );
    expect(check(plain, { organizations: ["Owner"], roles: ["Owner", "Admin"] })).toBe(
      "--organizations: 'Owner' is also a role of auth.roles: name organization roles apart (auth.roles: Owner, Admin, from --roles)",
    );
    expect(check(plain, { organizations: ["Owner", "Owner"] })).toBe("--organizations: organization role 'Owner' is declared twice");
    expect(check(plain, { organizations: ["co-owner", "Reader"] })).toBe(
      "--organizations: 'co-owner' is not a valid role name: use letters, digits and _, and do not start with a digit",
    );
  });

  it("refuses to drop a role the file uses, or organizations a tenant entity needs", () => {
    expect(check(TEAMS, { organizations: ["Owner", "Manager"] })).toBe(
      "--organizations: 'Lead' is used in @Member(…) permissions or auth.organizations.manage; keep it in the list",
    );
    expect(check(TEAMS, { organizations: ["Owner", "Manager", "Lead", "Guest"] })).toBeUndefined();
    expect(check(TEAMS, { organizations: [] })).toBe(
      "no organizations, but Project is a tenant entity (tenant: true), whose records belong to an organization: take tenant: true out of domain.yaml first",
    );
  });

  it("refuses roles for a file under auth.type none that an unattended run keeps", () => {
    const open = `${USERS}auth:\n  type: none\n`;
    expect(check(open, { organizations: ["Owner"] })).toBe(
      "--organizations: domain.yaml says auth.type none, where nobody signs in, so nobody is a member; add --type jwt",
    );
    expect(check(open, { organizations: ["Owner"], type: "jwt" })).toBeUndefined();
    // Asked, the type question can still turn jwt on.
    expect(check(open, { organizations: ["Owner"] }, true)).toBeUndefined();
  });
});
