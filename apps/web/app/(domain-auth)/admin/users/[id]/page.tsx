import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AdminUser } from "@/components/domain-auth/admin-user";
import { loadPageState } from "@/lib/domain-auth/page-access";

type Params = Promise<{ id: string }>;

export const metadata: Metadata = { title: "User" };

/** One user: the profile and role, sessions, second factors, API keys and latest security events. */
export default async function UserPage({ params }: { readonly params: Params }) {
  const { view } = await loadPageState();
  // Users exist only under auth.type: jwt.
  if (!view.auth) notFound();
  const { id } = await params;
  return <AdminUser key={id} id={id} />;
}
