import type { Metadata } from "next";
import { ProfileView } from "@/components/domain-auth/profile-view";
import { openAuthPage } from "@/lib/domain-auth/page-access";
import { readTwoStepStatus } from "@/lib/domain-auth/second-factor-server";

export const metadata: Metadata = { title: "Your profile" };

/** The signed-in user's profile, their two-step verification and their signed-in devices. */
export default async function ProfilePage() {
  const { auth } = await openAuthPage("profile");
  const twoStep = await readTwoStepStatus(auth);
  return (
    <section className="da-page-narrow">
      <h1>Your profile</h1>
      <ProfileView auth={auth} twoStep={twoStep} />
    </section>
  );
}
