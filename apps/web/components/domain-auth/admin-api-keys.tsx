"use client";

import { useAdmin, useAdminAuth } from "./admin-shell";
import { UserApiKeys } from "./user-api-keys";

/** API keys: any user's keys, revoked here. */
export function AdminApiKeys() {
  const auth = useAdminAuth();
  const { user } = useAdmin();
  return (
    <>
      <h1>API keys</h1>
      <UserApiKeys key={user?.id} auth={auth} />
    </>
  );
}
