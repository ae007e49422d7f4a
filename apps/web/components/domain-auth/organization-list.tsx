"use client";

import { checkCreateOrganization, firstRoleOf } from "@domain-auth/core/policy";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCurrentUser } from "@/lib/domain-auth/current-user";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { announceOrganizationsChanged, organizationPagePath, useOrganizations } from "@/lib/domain-auth/organizations";
import { CreateOrganizationForm } from "./create-organization-form";
import { FormError } from "./form-error";
import { SignedOutNotice } from "./signed-out-notice";

/** `/orgs`: the signed-in user's organizations with their role in each, and the form that creates one. */
export function OrganizationList({ auth }: { readonly auth: AuthView }) {
  const current = useCurrentUser(auth);
  if (current.status === "signed-out") return <SignedOutNotice auth={auth} expired={current.expired} />;
  return <SignedInOrganizations key={current.user.id} auth={auth} user={{ id: current.user.id, role: current.user.role }} />;
}

function SignedInOrganizations({
  auth,
  user,
}: {
  readonly auth: AuthView;
  readonly user: { readonly id: string; readonly role: string | null };
}) {
  const router = useRouter();
  const organizations = useOrganizations(user.id);
  const creation = auth.organizations ? checkCreateOrganization(auth.organizations, user) : null;

  return (
    <>
      <section className="da-card" aria-labelledby="organizations-heading">
        <h2 id="organizations-heading">Your organizations</h2>
        <FormError error={organizations.error} />
        {organizations.items === null && !organizations.error ? <p>Loading…</p> : null}
        {organizations.items?.length === 0 ? (
          <p>You are not in any organization yet. Create one below, or follow the link of an invitation e-mailed to you.</p>
        ) : null}
        {organizations.items && organizations.items.length > 0 ? (
          <div className="da-table-wrap">
            <table>
              <caption className="da-visually-hidden">Your organizations and your role in each</caption>
              <thead>
                <tr>
                  <th scope="col">Organization</th>
                  <th scope="col">Slug</th>
                  <th scope="col">Your role</th>
                </tr>
              </thead>
              <tbody>
                {organizations.items.map((organization) => (
                  <tr key={organization.id}>
                    <td>
                      <Link href={organizationPagePath(organization.id)}>{organization.name}</Link>
                    </td>
                    <td>
                      <code>{organization.slug}</code>
                    </td>
                    <td>{organization.role}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
      <section className="da-card" aria-labelledby="create-organization-heading">
        <h2 id="create-organization-heading">Create an organization</h2>
        {auth.organizations === null ? null : creation && !creation.allowed ? (
          <p>{creation.message}.</p>
        ) : (
          <>
            <p>You become its first member, with the role {firstRoleOf(auth.organizations)}.</p>
            <CreateOrganizationForm
              onCreated={(created) => {
                announceOrganizationsChanged();
                router.push(organizationPagePath(created.organization.id));
              }}
            />
          </>
        )}
      </section>
    </>
  );
}
