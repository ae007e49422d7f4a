import type { Metadata } from "next";
import Link from "next/link";
import { ProviderButtons } from "@/components/domain-auth/provider-buttons";
import { RegisterForm } from "@/components/domain-auth/register-form";
import { openAuthPage } from "@/lib/domain-auth/page-access";

export const metadata: Metadata = { title: "Create an account" };

/** Create an account; it gets the schema's default role. */
export default async function RegisterPage() {
  const { view, auth } = await openAuthPage("register");
  return (
    <section className="da-page-narrow">
      <h1>Create an account on {view.name}</h1>
      <RegisterForm auth={auth} />
      <ProviderButtons auth={auth} destination="/profile" />
      {auth.endpoints.login ? (
        <p>
          Already registered? <Link href="/login">Sign in</Link>
        </p>
      ) : null}
    </section>
  );
}
