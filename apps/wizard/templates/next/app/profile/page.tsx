import type { Metadata } from "next";
import { ProfileView } from "@/components/profile-view";
import { openAuthPage } from "@/lib/page-access";

export const metadata: Metadata = { title: "Your profile" };

/** The signed-in user's profile. */
export default async function ProfilePage() {
  const { auth } = await openAuthPage("profile");
  return (
    <section className="page-narrow">
      <h1>Your profile</h1>
      <ProfileView auth={auth} />
    </section>
  );
}
