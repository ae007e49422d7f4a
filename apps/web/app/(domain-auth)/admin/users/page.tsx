import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AdminUsers } from "@/components/domain-auth/admin-users";
import { loadPageState } from "@/lib/domain-auth/page-access";

export const metadata: Metadata = { title: "Users" };

/** Every user: search, role, invitations. */
export default async function AdminSectionPage() {
  const { view } = await loadPageState();
  // Users exist only under auth.type: jwt.
  if (!view.auth) notFound();
  return <AdminUsers />;
}
