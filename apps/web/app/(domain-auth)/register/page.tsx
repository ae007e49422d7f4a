import { afterSignIn, signInPath } from "@domain-auth/core/policy";
import type { Metadata } from "next";
import Link from "next/link";
import { ProviderButtons } from "@/components/domain-auth/provider-buttons";
import { RegisterForm } from "@/components/domain-auth/register-form";
import { openAuthPage } from "@/lib/domain-auth/page-access";
import { firstParam, type SearchParams } from "@/lib/domain-auth/search-params";

export const metadata: Metadata = { title: "Create an account" };

/** Create an account; it gets the schema's default role. Then back to `?next=` (a path of this app), else the profile. */
export default async function RegisterPage({ searchParams }: { readonly searchParams: Promise<SearchParams> }) {
  const { view, auth } = await openAuthPage("register");
  const next = firstParam((await searchParams).next);
  const destination = afterSignIn(next);
  return (
    <section className="da-page-narrow">
      <h1>Create an account on {view.name}</h1>
      <RegisterForm auth={auth} destination={destination} />
      <ProviderButtons auth={auth} destination={destination} />
      {auth.endpoints.login ? (
        <p>
          Already registered? <Link href={next === undefined ? "/login" : signInPath(destination)}>Sign in</Link>
        </p>
      ) : null}
    </section>
  );
}
