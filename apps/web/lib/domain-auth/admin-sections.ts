import { authorize, type Caller, holdsSetupRole, mayPerform } from "@domain-auth/core/policy";
import type { DomainView, EntityView } from "./domain-view";

/** The root of the admin's pages. */
export const ADMIN_PATH = "/admin";

/** One page of the admin, as its navigation lists it. */
export interface AdminSection {
  /** `overview`, `users`, `entity`, `api-keys`, `activity` or `organizations`. */
  readonly kind: "overview" | "users" | "entity" | "api-keys" | "activity" | "organizations";
  readonly href: string;
  readonly label: string;
  /** The entity of an `entity` section. */
  readonly entity?: EntityView;
}

/** Where an entity's records are in the admin: `/admin/records/<segment>`, its record pages below. */
export function recordsHref(entity: Pick<EntityView, "segment">, id?: string): string {
  const base = `${ADMIN_PATH}/records/${encodeURIComponent(entity.segment)}`;
  return id === undefined ? base : `${base}/${encodeURIComponent(id)}`;
}

/** Where one user is in the admin: `/admin/users/<id>`. */
export function userHref(id: string): string {
  return `${ADMIN_PATH}/users/${encodeURIComponent(id)}`;
}

/** `Post` → `Posts`, `Category` → `Categories`: a section's name for an entity's records. */
export function pluralName(name: string): string {
  const spaced = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2");
  if (/[^aeiou]y$/i.test(spaced)) return `${spaced.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(spaced)) return `${spaced}es`;
  return `${spaced}s`;
}

/**
 * Whether the caller may work on an entity's records in the admin: the setup role always (it reads
 * every record); anyone else where the rules let them create records (an Editor who may create
 * posts, and then update their own), or update every record. Updating only one's own records is not
 * enough alone: the server sets the owner to whoever creates a record, so a role that may not
 * create owns none (a Reader). Tenant entities live in their organizations' pages.
 */
function mayWorkOn(entity: EntityView, caller: Caller, setupRole: boolean, open: boolean): boolean {
  if (entity.tenant) return false;
  if (open || setupRole) return true;
  const update = authorize(entity, "update", caller);
  return mayPerform(entity, "create", caller) || (update.allowed && update.scope === "all");
}

/**
 * The admin's pages a caller may open, in the navigation's order: the overview, users (setup role),
 * one page per entity in the `domain.yaml` order (those the caller may work on), API keys, activity and
 * organizations (setup role, the last where the domain has them). Under `auth.type: none` (`caller`
 * `null`, no `auth`), the overview and every entity, open to all. Empty: nothing here for the caller.
 */
export function adminSections(view: DomainView, caller: Caller): AdminSection[] {
  const open = view.auth === null;
  const setupRole = view.auth !== null && caller !== null && holdsSetupRole(view.auth, caller.role);
  const entities = view.entities.filter((entity) => mayWorkOn(entity, caller, setupRole, open));
  if (!setupRole && entities.length === 0) return [];
  const records = entities.map(
    (entity): AdminSection => ({ kind: "entity", href: recordsHref(entity), label: pluralName(entity.name), entity }),
  );
  const overview: AdminSection = { kind: "overview", href: ADMIN_PATH, label: "Overview" };
  if (!setupRole) return [overview, ...records];
  const organizations = view.auth?.endpoints.organizations === true;
  return [
    overview,
    { kind: "users", href: `${ADMIN_PATH}/users`, label: "Users" },
    ...records,
    { kind: "api-keys", href: `${ADMIN_PATH}/api-keys`, label: "API keys" },
    { kind: "activity", href: `${ADMIN_PATH}/activity`, label: "Activity" },
    ...(organizations ? [{ kind: "organizations", href: `${ADMIN_PATH}/organizations`, label: "Organizations" } as const] : []),
  ];
}

/** The section a path of the admin belongs to (`/admin/users/<id>` → Users), or `null` for a path no section holds. */
export function sectionOf(sections: readonly AdminSection[], pathname: string): AdminSection | null {
  const path = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  if (path === ADMIN_PATH) return sections.find((section) => section.kind === "overview") ?? null;
  return sections.find((section) => section.kind !== "overview" && (path === section.href || path.startsWith(`${section.href}/`))) ?? null;
}
