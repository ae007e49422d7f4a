import type { Metadata } from "next";
import { AdminOrganizations } from "@/components/domain-auth/admin-organizations";

export const metadata: Metadata = { title: "Organizations" };

/** The records of the tenant entities, one organization at a time. */
export default function AdminSectionPage() {
  return <AdminOrganizations />;
}
