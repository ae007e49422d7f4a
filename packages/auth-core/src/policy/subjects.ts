import type { PermissionMap } from "../config/index.js";

/** Who is calling: an authenticated user, or `null` for anonymous. */
export type Caller = { readonly id: string; readonly role: string | null } | null;

/**
 * What the rules read of an entity. The core's `EntityModel` fits, and so does any view of one
 * that keeps these three fields (the web app's).
 */
export interface PolicyEntity {
  readonly isAuthEntity: boolean;
  /** The field holding the owning user's id, or `null`. */
  readonly ownerField: string | null;
  readonly permissions: PermissionMap;
  /** `tenant: true`: records belong to an organization and `@Member` applies (docs/organizations.md). @default false */
  readonly tenant?: boolean;
}

/** What the rules read of the `auth` block: the core's `AuthModel` fits, and so does a view of it. */
export interface PolicyAuth {
  /** The administrator's role. */
  readonly setupRole: string;
}

/** A record, or the values of a request body, as the rules read them. */
export type PolicyRecord = Readonly<Record<string, unknown>>;
