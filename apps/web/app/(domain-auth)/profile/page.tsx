import type { Metadata } from "next";
import { ProfileView } from "@/components/domain-auth/profile-view";
import { openAuthPage } from "@/lib/domain-auth/page-access";
import { firstParam, type SearchParams } from "@/lib/domain-auth/search-params";
import { readTwoStepStatus } from "@/lib/domain-auth/second-factor-server";

export const metadata: Metadata = { title: "Your profile" };

/**
 * The signed-in user's profile, their two-step verification, their connected accounts and their
 * signed-in devices. A provider's callback comes back here after a link (`?connected=` or `?error=`).
 */
export default async function ProfilePage({ searchParams }: { readonly searchParams: Promise<SearchParams> }) {
  const { auth } = await openAuthPage("profile");
  const twoStep = await readTwoStepStatus(auth);
  const query = await searchParams;
  const returned = { connected: firstParam(query.connected), error: firstParam(query.error) };
  return (
    <section className="da-page-narrow">
      <h1>Your profile</h1>
      <ProfileView auth={auth} twoStep={twoStep} returned={returned} />
    </section>
  );
}
