import type { Metadata } from "next";
import { AdminUsers } from "@/components/domain-auth/admin-users";

export const metadata: Metadata = { title: "Users" };

/** Every user: search, role, invitations. */
export default function AdminSectionPage() {
  return <AdminUsers />;
}
