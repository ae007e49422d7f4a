import type { Metadata } from "next";
import { AdminActivity } from "@/components/domain-auth/admin-activity";

export const metadata: Metadata = { title: "Activity" };

/** Sign-ins and failed attempts over time, and everyone's security events. */
export default function AdminSectionPage() {
  return <AdminActivity />;
}
