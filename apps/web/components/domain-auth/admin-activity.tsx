"use client";

import { useSearchParams } from "next/navigation";
import { ACTIVITY_USER_PARAMETER } from "@/lib/domain-auth/admin-user";
import { ActivitySummary } from "./activity-chart";
import { ActivityLog } from "./activity-log";
import { useAdmin, useAdminAuth } from "./admin-shell";

/**
 * Activity: sign-ins and failed attempts over the last 24 hours or 7 days, the addresses with the most
 * failures, then everyone's security events (one user's, from `?user=<id>`: a user's page links here).
 */
export function AdminActivity() {
  const auth = useAdminAuth();
  const { user } = useAdmin();
  const shownUser = useSearchParams().get(ACTIVITY_USER_PARAMETER) ?? "";
  return (
    <>
      <h1>Activity</h1>
      <ActivitySummary key={user?.id} auth={auth} />
      <ActivityLog key={`${user?.id}:${shownUser}`} auth={auth} title="Security events" initialUserId={shownUser} />
    </>
  );
}
