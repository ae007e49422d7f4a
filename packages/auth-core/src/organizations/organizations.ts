import type { AuthModel, DomainModel, EntityModel, OrganizationsModel } from "../config/index.js";
import type { Database } from "../store/database.js";
import type { AddressThrottle } from "../throttle/address-throttle.js";
import { createInvitationThrottle } from "../throttle/invitation-throttle.js";
import { OrganizationStore } from "./organization-store.js";

/** The organizations of an instance (docs/organizations.md): their rules, tables, tenant entities and the invitations' limit. */
export interface Organizations {
  readonly rules: OrganizationsModel;
  readonly store: OrganizationStore;
  /** The entities whose records belong to an organization: an organization holding any cannot be deleted. */
  readonly tenants: readonly EntityModel[];
  /** Invitations sent, counted per inviting user (30 an hour). */
  readonly invitationThrottle: AddressThrottle;
}

/** The organizations of a domain over one database; `null` without `auth.organizations`. */
export function createOrganizations(model: DomainModel, auth: AuthModel, database: Database): Organizations | null {
  if (!auth.organizations) return null;
  return {
    rules: auth.organizations,
    store: new OrganizationStore(database, auth.entity),
    tenants: model.entities.filter((entity) => entity.tenant),
    invitationThrottle: createInvitationThrottle(database),
  };
}
