import type { Metadata } from "next";
import { ProfileView } from "@/components/domain-auth/profile-view";
import styles from "@/components/domain-auth/ui.module.css";
import { openAuthPage } from "@/lib/domain-auth/page-access";

export const metadata: Metadata = { title: "Your profile" };

/** The signed-in user's profile. */
export default async function ProfilePage() {
  const { auth } = await openAuthPage("profile");
  return (
    <section className={styles.pageNarrow}>
      <h1>Your profile</h1>
      <ProfileView auth={auth} />
    </section>
  );
}
