import { currentMembership, currentUser } from "@domain-auth/core/next";
import { holdsSetupRole } from "@domain-auth/core/policy";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { OrganizationView } from "@/components/domain-auth/organization-view";
import { openAuthPage } from "@/lib/domain-auth/page-access";

/** The route's parameters: the organization's id. */
type Params = Promise<{ readonly orgId: string }>;

export async function generateMetadata({ params }: { readonly params: Params }): Promise<Metadata> {
  const membership = await currentMembership((await params).orgId);
  return { title: membership?.organization.name ?? "Organization" };
}

/**
 * An organization's page (docs/organizations.md): its members, invitations, and records of each
 * tenant entity. Someone signed in who is not a member gets the 404 page, whether or not it
 * exists; the setup role sees it through support access.
 */
export default async function OrganizationPage({ params }: { readonly params: Params }) {
  const { view, auth } = await openAuthPage("orgs");
  const { orgId } = await params;
  const user = await currentUser();
  const membership = user ? await currentMembership(orgId) : null;
  if (user && !membership && !holdsSetupRole(auth, user.role)) notFound();
  const rendered = user && membership ? { organization: membership.organization, role: membership.role, userId: user.id } : null;
  return (
    <section>
      <OrganizationView auth={auth} entities={view.entities.filter((entity) => entity.tenant)} organizationId={orgId} rendered={rendered} />
    </section>
  );
}
