import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AdminActivity } from "@/components/domain-auth/admin-activity";
import { loadPageState } from "@/lib/domain-auth/page-access";

export const metadata: Metadata = { title: "Activity" };

/** Sign-ins and failed attempts over time, and everyone's security events. */
export default async function AdminSectionPage() {
  const { view } = await loadPageState();
  // Security events exist only under auth.type: jwt.
  if (!view.auth) notFound();
  return <AdminActivity />;
}
