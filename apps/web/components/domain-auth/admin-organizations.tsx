"use client";

import { useAdmin } from "./admin-shell";
import { OrganizationRecords } from "./organization-records";

/** Organizations: the tenant entities' records, one organization at a time. */
export function AdminOrganizations() {
  const admin = useAdmin();
  const tenants = admin.view.entities.filter((entity) => entity.tenant);
  return (
    <>
      <h1>Organizations</h1>
      {admin.user && tenants.length > 0 ? (
        <OrganizationRecords key={admin.user.id} entities={tenants} user={{ id: admin.user.id, role: admin.user.role }} />
      ) : (
        <p>No entity of this domain belongs to organizations (`tenant: true`).</p>
      )}
    </>
  );
}
