import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AdminOrganizations } from "@/components/domain-auth/admin-organizations";
import { loadPageState } from "@/lib/domain-auth/page-access";

export const metadata: Metadata = { title: "Organizations" };

/** The records of the tenant entities, one organization at a time. */
export default async function AdminSectionPage() {
  const { view } = await loadPageState();
  // Only a domain with organizations has them.
  if (!view.auth?.endpoints.organizations) notFound();
  return <AdminOrganizations />;
}
