import type { Metadata } from "next";
import { OrganizationList } from "@/components/domain-auth/organization-list";
import { openAuthPage } from "@/lib/domain-auth/page-access";

export const metadata: Metadata = { title: "Your organizations" };

/** The signed-in user's organizations (docs/organizations.md), with their role in each, and a form to create one. */
export default async function OrganizationsPage() {
  const { auth } = await openAuthPage("orgs");
  return (
    <section className="da-page-medium">
      <h1>Organizations</h1>
      <OrganizationList auth={auth} />
    </section>
  );
}
