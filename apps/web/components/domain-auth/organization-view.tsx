"use client";

import { actorOf, checkFirstRole, checkManages } from "@domain-auth/core/policy";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useCurrentUser } from "@/lib/domain-auth/current-user";
import type { AuthView, EntityView } from "@/lib/domain-auth/domain-view";
import { announceOrganizationsChanged, type MembershipAnswer, readOrganization } from "@/lib/domain-auth/organizations";
import { useLoaded } from "@/lib/domain-auth/use-loaded";
import { EntityRecords } from "./entity-records";
import { FormError } from "./form-error";
import { OrganizationInvitations } from "./organization-invitations";
import { OrganizationMembers } from "./organization-members";
import { OrganizationSettings } from "./organization-settings";
import { SignedOutNotice } from "./signed-out-notice";

/** Props of {@link OrganizationView}. */
export interface OrganizationViewProps {
  readonly auth: AuthView;
  /** The tenant entities: their records in this organization are shown. */
  readonly entities: readonly EntityView[];
  readonly organizationId: string;
  /** The organization and the signed-in user's role in it, as the server rendered the page; `null` when it did not know them. */
  readonly rendered: (MembershipAnswer & { readonly userId: string }) | null;
}

/**
 * An organization's page: its name and the caller's role, its members, its pending invitations and
 * the invite form (managers), its records of each tenant entity, and its settings (the first role).
 * Read again from the API for the user signed in to the tab; an organization they are not in is not found.
 */
export function OrganizationView(props: OrganizationViewProps) {
  const current = useCurrentUser(props.auth);
  if (current.status === "signed-out") return <SignedOutNotice auth={props.auth} expired={current.expired} />;
  const { user } = current;
  return <OrganizationPage key={`${user.id}:${props.organizationId}`} {...props} user={{ id: user.id, role: user.role }} />;
}

function OrganizationPage({
  auth,
  entities,
  organizationId,
  rendered,
  user,
}: OrganizationViewProps & { readonly user: { readonly id: string; readonly role: string | null } }) {
  const router = useRouter();
  const [version, setVersion] = useState(0);
  const loaded = useLoaded(JSON.stringify([organizationId, version]), () => readOrganization(organizationId));
  const answer = loaded.value;
  const shown: MembershipAnswer | null = answer?.ok ? answer.data : rendered?.userId === user.id ? rendered : null;
  const rules = auth.organizations;

  if (answer && !answer.ok) {
    return (
      <div className="da-notice" role="alert">
        <h1>Organization not found</h1>
        {answer.status === 404 ? (
          <p>There is no such organization, or you are not one of its members.</p>
        ) : (
          <FormError error={answer.error} />
        )}
        <p>
          <Link href="/orgs">Your organizations</Link>
        </p>
      </div>
    );
  }
  if (!shown || !rules) return <p>Loading…</p>;

  const { organization, role } = shown;
  const membership = role === null ? null : { role };
  const actor = actorOf(auth, user, membership);
  const manages = checkManages(rules, actor).allowed;
  const leave = () => {
    announceOrganizationsChanged();
    router.push("/orgs");
  };

  return (
    <>
      <div className="da-org-head">
        <h1>{organization.name}</h1>
        <p className="da-lead">
          <code>{organization.slug}</code> ·{" "}
          {role === null ? `You see it with support access (${auth.setupRole}), not as a member.` : `Your role: ${role}`}
        </p>
      </div>
      <OrganizationMembers
        organizationId={organization.id}
        organizationName={organization.name}
        rules={rules}
        actor={actor}
        userId={user.id}
        onOwnRoleChanged={() => {
          announceOrganizationsChanged();
          setVersion((count) => count + 1);
        }}
        onLeft={leave}
      />
      {manages ? (
        <OrganizationInvitations key={`invitations-${role}`} organizationId={organization.id} rules={rules} actor={actor} />
      ) : null}
      {entities.map((entity) => (
        <EntityRecords
          key={`${organization.id}:${entity.segment}:${role}`}
          entity={entity}
          caller={user}
          organization={{ id: organization.id, membership }}
        />
      ))}
      {checkFirstRole(rules, actor).allowed ? (
        <OrganizationSettings
          key={organization.id}
          organization={organization}
          onRenamed={() => {
            announceOrganizationsChanged();
            setVersion((count) => count + 1);
          }}
          onDeleted={leave}
        />
      ) : null}
    </>
  );
}
