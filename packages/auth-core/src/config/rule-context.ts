import type { PathSegment } from "./diagnostics.js";
import { asRecord, type Loose } from "./loose-data.js";

/** What every cross-reference rule may need to know about the whole `domain.yaml`. */
export interface DomainScope {
  readonly entityNames: readonly string[];
  /** `auth.type` when it is a string. */
  readonly authType: string | undefined;
  /** The strings of `auth.roles`, duplicates kept. */
  readonly roles: readonly string[];
  readonly setupRole: string;
  /** The auth entity's name, when `auth.type` is `jwt` and it was found. */
  readonly authEntity: string | undefined;
  /** The strings of `auth.organizations.roles`; `undefined` without an `auth.organizations` block. */
  readonly organizationRoles: readonly string[] | undefined;
  /** The entities declared `tenant: true`. */
  readonly tenants: ReadonlySet<string>;
}

/** One entity under check. */
export interface EntityScope {
  readonly name: string;
  readonly entity: Loose;
  /** Its `fields` map (`{}` when malformed). */
  readonly fields: Loose;
  /** `["entities", name]`. */
  readonly path: readonly PathSegment[];
  readonly isAuthEntity: boolean;
  /** `tenant: true`. */
  readonly isTenant: boolean;
}

/** The scope of an entity whose declaration is a map. */
export function entityScopeOf(domain: DomainScope, name: string, entity: Loose): EntityScope {
  return {
    name,
    entity,
    fields: asRecord(entity.fields) ?? {},
    path: ["entities", name],
    isAuthEntity: domain.authEntity === name,
    isTenant: entity.tenant === true,
  };
}
