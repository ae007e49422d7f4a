import type { Metadata } from "next";
import { ProfileView } from "@/components/domain-auth/profile-view";
import { openAuthPage } from "@/lib/domain-auth/page-access";

export const metadata: Metadata = { title: "Your profile" };

/** The signed-in user's profile. */
export default async function ProfilePage() {
  const { auth } = await openAuthPage("profile");
  return (
    <section className="da-page-narrow">
      <h1>Your profile</h1>
      <ProfileView auth={auth} />
    </section>
  );
}
