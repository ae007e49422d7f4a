import type { Metadata } from "next";
import { AdminPanel } from "@/components/domain-auth/admin-panel";
import { EntityRecords } from "@/components/domain-auth/entity-records";
import { openPage } from "@/lib/domain-auth/page-access";

export const metadata: Metadata = { title: "Admin" };

/** Users and records for the setup role; under `auth.type: none`, every entity's records, open to all. */
export default async function AdminPage() {
  const { view } = await openPage("admin");
  return (
    <section>
      <h1>{view.auth ? "Admin" : "Records"}</h1>
      {view.auth ? (
        <AdminPanel auth={view.auth} entities={view.entities} />
      ) : (
        view.entities.map((entity) => <EntityRecords key={entity.segment} entity={entity} caller={null} authorization={{ open: true }} />)
      )}
    </section>
  );
}
