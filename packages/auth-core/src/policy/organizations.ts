import type { OrganizationsModel } from "../config/index.js";
import { parseMemberToken } from "../config/vocabulary.js";
import type { Caller, PolicyAuth } from "./subjects.js";
import { ALLOWED, forbidden, type Verdict } from "./verdict.js";

/** An organization's slug (docs/organizations.md): lower-case letters, digits and dashes, 2 to 39 of them. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{1,38}$/;
/** The longest organization name. */
export const MAX_ORGANIZATION_NAME_LENGTH = 100;

/** The caller's place in one organization: their organization role, or `null` when they are not a member. */
export interface Membership {
  readonly role: string;
}

/** What the organization rules read of `auth.organizations` (the core's `OrganizationsModel` fits). */
export type OrganizationRules = Pick<OrganizationsModel, "roles" | "manage" | "create">;

/** The first organization role: its creator's, the one that renames and deletes it. */
export function firstRoleOf(rules: OrganizationRules): string {
  return rules.roles[0] as string;
}

/**
 * Whether a permission list grants a member holding `role` (docs/organizations.md#permissions):
 * `@Member` any member, `@Member(R, …)` a member holding one of those roles.
 * @example grantsMember(["@Member(Owner, Manager)"], "Manager") // true
 */
export function grantsMember(list: readonly string[], role: string): boolean {
  return list.some((item) => {
    const token = parseMemberToken(item);
    return token !== null && (token.roles === null || token.roles.includes(role));
  });
}

/** Whether `caller` may create an organization: `auth.organizations.create` names their role, or `@Authenticated`. */
export function checkCreateOrganization(rules: OrganizationRules, caller: Caller): Verdict {
  if (caller && (rules.create.includes("@Authenticated") || (caller.role !== null && rules.create.includes(caller.role)))) return ALLOWED;
  return forbidden("You are not allowed to create an organization");
}

/** Whether `caller` sees an organization at all (else it is 404 to them): a member, or the setup role (support). */
export function seesOrganization(auth: PolicyAuth, caller: Caller, membership: Membership | null): boolean {
  return membership !== null || caller?.role === auth.setupRole;
}

/** Who acts on an organization's members: their role there (`null` for the setup role's support access, which outranks every role). */
interface Actor {
  readonly support: boolean;
  readonly role: string | null;
}

/** The actor of a request: the setup role acts as support even where it is also a member. */
export function actorOf(auth: PolicyAuth, caller: Caller, membership: Membership | null): Actor {
  return { support: caller?.role === auth.setupRole, role: membership?.role ?? null };
}

function rankOf(rules: OrganizationRules, role: string | null): number {
  const rank = role === null ? -1 : rules.roles.indexOf(role);
  return rank === -1 ? rules.roles.length : rank;
}

/** Whether `role` ranks below `than` in the order of `organizations.roles` (a demotion). */
export function rankBelow(rules: OrganizationRules, role: string, than: string): boolean {
  return rankOf(rules, role) > rankOf(rules, than);
}

/** Managing members and invitations: `auth.organizations.manage` roles, and the setup role. */
export function checkManages(rules: OrganizationRules, actor: Actor): Verdict {
  if (actor.support || (actor.role !== null && rules.manage.includes(actor.role))) return ALLOWED;
  return forbidden("Only the organization's managers may do this");
}

/** Renaming or deleting the organization: the first role, and the setup role. */
export function checkFirstRole(rules: OrganizationRules, actor: Actor): Verdict {
  if (actor.support || actor.role === firstRoleOf(rules)) return ALLOWED;
  return forbidden(`Only the organization's ${firstRoleOf(rules)} may do this`);
}

/** Granting `role` (an invitation, a role change): never above the actor's own, and the first role only by the first role. */
export function checkGrant(rules: OrganizationRules, actor: Actor, role: string): Verdict {
  if (actor.support) return ALLOWED;
  if (role === firstRoleOf(rules) && actor.role !== role) return forbidden(`Only a ${role} may make someone ${role}`);
  if (rankOf(rules, role) < rankOf(rules, actor.role)) return forbidden(`You cannot grant a role above your own (${actor.role})`);
  return ALLOWED;
}

/** Changing or removing a member: never one whose role is above the actor's own. */
export function checkActOnMember(rules: OrganizationRules, actor: Actor, memberRole: string): Verdict {
  if (actor.support || rankOf(rules, memberRole) >= rankOf(rules, actor.role)) return ALLOWED;
  return forbidden(`You cannot change a member whose role is above your own (${actor.role})`);
}

/**
 * The last holder of the first role keeps it (409 `LAST_OWNER`): a change that takes it from a
 * member (`next`: their new role, `null` when they leave) while `holders` members hold it.
 */
export function checkLastOwner(rules: OrganizationRules, memberRole: string, next: string | null, holders: number): Verdict {
  const first = firstRoleOf(rules);
  if (memberRole !== first || next === first || holders > 1) return ALLOWED;
  return {
    allowed: false,
    status: 409,
    code: "LAST_OWNER",
    message: `This is the organization's last ${first}: make another member ${first} first`,
  };
}
