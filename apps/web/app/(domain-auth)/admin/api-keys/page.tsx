import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AdminApiKeys } from "@/components/domain-auth/admin-api-keys";
import { loadPageState } from "@/lib/domain-auth/page-access";

export const metadata: Metadata = { title: "API keys" };

/** Any user's API keys. */
export default async function AdminSectionPage() {
  const { view } = await loadPageState();
  // API keys exist only under auth.type: jwt.
  if (!view.auth) notFound();
  return <AdminApiKeys />;
}
