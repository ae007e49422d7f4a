import type { Metadata } from "next";
import { SetupForm } from "@/components/domain-auth/setup-form";
import { SignInLink } from "@/components/domain-auth/sign-in-link";
import { openAuthPage } from "@/lib/domain-auth/page-access";

export const metadata: Metadata = { title: "First-run setup" };

/** First run: create the first administrator; afterwards, say that setup is complete. */
export default async function SetupPage() {
  const { view, auth, setupRequired, setupTokenRequired } = await openAuthPage("setup");
  if (!setupRequired) {
    return (
      <section className="da-page-narrow">
        <h1>Setup is complete</h1>
        <p>The first administrator of {view.name} has already been created.</p>
        <SignInLink auth={auth} />
      </section>
    );
  }
  return (
    <section className="da-page-narrow">
      <h1>Welcome to {view.name}</h1>
      <p className="da-lead">
        Create the first administrator. This account gets the <strong>{auth.setupRole}</strong> role and can manage every user and record.
      </p>
      <SetupForm auth={auth} tokenRequired={setupTokenRequired} />
    </section>
  );
}
