import type { ReactNode } from "react";
import { AdminShell } from "@/components/domain-auth/admin-shell";
import { openPage } from "@/lib/domain-auth/page-access";

/**
 * The admin's pages, each at its own address beside a navigation of those the caller may open: for
 * the setup role the overview, users, each entity's records, API keys, activity and organizations;
 * for a role that may create or update an entity's records, those pages; under `auth.type: none`,
 * every entity's records, open to all.
 */
export default async function AdminLayout({ children }: { readonly children: ReactNode }) {
  const { view } = await openPage("admin");
  return <AdminShell view={view}>{children}</AdminShell>;
}
