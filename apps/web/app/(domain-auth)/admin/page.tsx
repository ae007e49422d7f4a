import type { Metadata } from "next";
import { AdminOverview } from "@/components/domain-auth/admin-overview";

export const metadata: Metadata = { title: "Admin" };

/** The admin's overview: a card per page the caller may open, with how many users and records there are. */
export default function AdminPage() {
  return <AdminOverview />;
}
