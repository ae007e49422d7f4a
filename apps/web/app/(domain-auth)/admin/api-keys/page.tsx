import type { Metadata } from "next";
import { AdminApiKeys } from "@/components/domain-auth/admin-api-keys";

export const metadata: Metadata = { title: "API keys" };

/** Any user's API keys. */
export default function AdminSectionPage() {
  return <AdminApiKeys />;
}
