"use client";

import { useState } from "react";
import { useAdmin, useAdminAuth } from "./admin-shell";
import { InviteUserForm } from "./invite-user-form";
import { UsersTable } from "./users-table";

/** Users: every user, searched by e-mail, filtered by role and sorted, each opening their page; the invitation form. */
export function AdminUsers() {
  const auth = useAdminAuth();
  const { user } = useAdmin();
  // Bumped by an invitation: the users table reloads with the new user.
  const [invitations, setInvitations] = useState(0);
  return (
    <>
      <UsersTable key={`${user?.id}:${invitations}`} auth={auth} />
      {auth.endpoints.passwordReset ? <InviteUserForm auth={auth} onInvited={() => setInvitations((count) => count + 1)} /> : null}
    </>
  );
}
