"use client";

import { holdsSetupRole } from "@domain-auth/core/policy";
import { useState } from "react";
import { useCurrentUser } from "@/lib/domain-auth/current-user";
import type { AuthView, EntityView } from "@/lib/domain-auth/domain-view";
import { ActivityLog } from "./activity-log";
import { EntityRecords } from "./entity-records";
import { InviteUserForm } from "./invite-user-form";
import { OrganizationRecords } from "./organization-records";
import { SignedOutNotice } from "./signed-out-notice";
import { UserApiKeys } from "./user-api-keys";
import { UsersTable } from "./users-table";

/**
 * The admin page under `auth.type: jwt`: users, records (a tenant entity's one organization at a
 * time), API keys and the activity log for the setup role, "not allowed" for anyone else.
 */
export function AdminPanel({ auth, entities }: { readonly auth: AuthView; readonly entities: readonly EntityView[] }) {
  const current = useCurrentUser(auth);
  // Bumped by an invitation: the users table reloads with the new user.
  const [invitations, setInvitations] = useState(0);
  if (current.status === "signed-out") return <SignedOutNotice auth={auth} expired={current.expired} />;

  const { user } = current;
  if (!holdsSetupRole(auth, user.role)) {
    return (
      <div className="da-notice da-notice-denied" role="alert">
        <h2>Not allowed</h2>
        <p>
          This page is for the {auth.setupRole} role. You are signed in as {user.email} with{" "}
          {user.role ? `the role ${user.role}` : "no role"}.
        </p>
      </div>
    );
  }
  return (
    <>
      <UsersTable key={`${user.id}:${invitations}`} auth={auth} />
      {auth.endpoints.passwordReset ? <InviteUserForm auth={auth} onInvited={() => setInvitations((count) => count + 1)} /> : null}
      {entities
        .filter((entity) => !entity.tenant)
        .map((entity) => (
          <EntityRecords key={`${user.id}:${entity.segment}`} entity={entity} caller={{ id: user.id, role: user.role }} />
        ))}
      {auth.endpoints.organizations && entities.some((entity) => entity.tenant) ? (
        <OrganizationRecords
          key={`organizations-${user.id}`}
          entities={entities.filter((entity) => entity.tenant)}
          user={{ id: user.id, role: user.role }}
        />
      ) : null}
      <UserApiKeys key={`api-keys-${user.id}`} auth={auth} />
      <ActivityLog key={`activity-${user.id}`} auth={auth} />
    </>
  );
}
