import type { validateDomainText } from "@domain-auth/core/config";
import type { ChoiceFlags } from "./auth-choices.js";
import type { DomainState } from "./domain-state.js";

/**
 * The core's validation of a `domain.yaml` text (`@domain-auth/core/config`). Passed in, not imported:
 * it loads (with zod) while the first question is on screen.
 */
export type ValidateDomainText = typeof validateDomainText;

/** The roles the organizations question starts from when the file declares none: highest first, the first the creator's. */
export const DEFAULT_ORGANIZATION_ROLES: readonly string[] = Object.freeze(["Owner", "Manager", "Member"]);

/** Where the organization pages are (docs/organizations.md#pages-and-server-code): yours, and one per organization. */
export const ORGANIZATION_PAGES = { list: "/orgs", item: "/orgs/<id>" } as const;

/**
 * What is wrong with `roles` as `auth.organizations.roles` beside the global roles `globalRoles`,
 * or `undefined`: none at all, else the first error the core's validation reports under
 * `auth.organizations` for a file that declares just those (one source of rules: identifiers, each
 * once, none named like a role of `auth.roles`).
 * @example organizationRolesProblem(validate, ["Owner", "Admin"], ["Admin"]) // "'Admin' is also a role of auth.roles: name organization roles apart"
 */
export function organizationRolesProblem(
  validate: ValidateDomainText,
  roles: readonly string[],
  globalRoles: readonly string[],
): string | undefined {
  if (roles.length === 0) return "name at least one role";
  // JSON is YAML: the core reads this as it reads domain.yaml.
  const probe = JSON.stringify({
    name: "organizations",
    entities: {},
    auth: { type: "jwt", roles: globalRoles, organizations: { roles } },
  });
  const problem = validate(probe).diagnostics.find(
    ({ severity, path }) => severity === "error" && path[0] === "auth" && path[1] === "organizations",
  );
  return problem?.message;
}

/**
 * Checks that the organization roles keep every one the file names elsewhere (`@Member(…)`
 * permissions, `auth.organizations.manage`), which the wizard leaves as they are.
 */
export function validateOrganizationRolesCoverUses(roles: readonly string[], usedRoles: readonly string[]): string | undefined {
  const missing = usedRoles.filter((role) => !roles.includes(role));
  if (missing.length === 0) return undefined;
  const names = missing.map((role) => `'${role}'`).join(", ");
  const one = missing.length === 1;
  return `${names} ${one ? "is" : "are"} used in @Member(…) permissions or auth.organizations.manage; keep ${one ? "it" : "them"} in the list`;
}

/** `Project is a tenant entity`, `Project, Task are tenant entities`. */
export function tenantEntitiesText(tenants: readonly string[]): string {
  return tenants.length === 1 ? `${tenants[0]} is a tenant entity` : `${tenants.join(", ")} are tenant entities`;
}

/** Why the file cannot do without organizations: its tenant entities, whose records belong to one; `undefined` when it has none. */
export function organizationsNeededBy(tenants: readonly string[]): string | undefined {
  if (tenants.length === 0) return undefined;
  return `${tenantEntitiesText(tenants)} (tenant: true), whose records belong to an organization: take tenant: true out of domain.yaml first`;
}

/** How the flags' organization roles fit the file, once it is read: what is wrong with them, or `undefined`. */
export function checkOrganizationsFlag(
  state: DomainState,
  flags: Pick<ChoiceFlags, "type" | "roles" | "organizations">,
  options: { readonly validate: ValidateDomainText; readonly interactive: boolean },
): string | undefined {
  const { organizations } = flags;
  if (organizations === undefined) return undefined;
  // Unattended, the file's `auth.type: none` stays: organizations would be written for nobody.
  if (organizations.length > 0 && flags.type === undefined && state.type === "none" && !options.interactive) {
    return "--organizations: domain.yaml says auth.type none, where nobody signs in, so nobody is a member; add --type jwt";
  }
  if (organizations.length === 0) {
    const needed = organizationsNeededBy(state.tenants);
    return needed && `no organizations, but ${needed}`;
  }
  const globalRoles = flags.roles ?? state.roles;
  const problem = organizationRolesProblem(options.validate, organizations, globalRoles);
  if (problem) {
    // Named like a global role: say which the global roles are, and where they come from.
    const clash = organizations.some((role) => globalRoles.includes(role) && problem.startsWith(`'${role}'`));
    return `--organizations: ${problem}${clash ? ` (auth.roles: ${globalRoles.join(", ")}${flags.roles ? ", from --roles" : "; --roles changes them"})` : ""}`;
  }
  const dropped = validateOrganizationRolesCoverUses(organizations, state.usedOrganizationRoles);
  return dropped && `--organizations: ${dropped}`;
}
