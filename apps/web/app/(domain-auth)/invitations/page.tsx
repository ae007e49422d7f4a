import type { Metadata } from "next";
import { AcceptInvitation } from "@/components/domain-auth/accept-invitation";
import { openAuthPage } from "@/lib/domain-auth/page-access";
import { firstParam, type SearchParams } from "@/lib/domain-auth/search-params";

export const metadata: Metadata = { title: "Join an organization" };

/**
 * An invitation's link (`/invitations?token=…`, docs/organizations.md): signed out, the way to sign
 * in or register that comes back here; signed in, the button that accepts it.
 */
export default async function InvitationPage({ searchParams }: { readonly searchParams: Promise<SearchParams> }) {
  const { auth } = await openAuthPage("invitations");
  const token = firstParam((await searchParams).token);
  return (
    <section className="da-page-narrow">
      <h1>Join an organization</h1>
      <AcceptInvitation auth={auth} token={token ?? null} />
    </section>
  );
}
