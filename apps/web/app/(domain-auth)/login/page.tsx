import { afterSignIn } from "@domain-auth/core/policy";
import type { Metadata } from "next";
import Link from "next/link";
import { LoginForm } from "@/components/domain-auth/login-form";
import { openAuthPage } from "@/lib/domain-auth/page-access";
import { firstParam, type SearchParams } from "@/lib/domain-auth/search-params";

export const metadata: Metadata = { title: "Sign in" };

/** Sign in with email and password; then back to `?next=` (a path of this app), else the profile. */
export default async function LoginPage({ searchParams }: { readonly searchParams: Promise<SearchParams> }) {
  const { view, auth } = await openAuthPage("login");
  const destination = afterSignIn(firstParam((await searchParams).next));
  return (
    <section className="da-page-narrow">
      <h1>Sign in to {view.name}</h1>
      <LoginForm auth={auth} destination={destination} />
      {auth.endpoints.passwordReset ? (
        <p>
          <Link href="/forgot-password">Forgot password?</Link>
        </p>
      ) : null}
      {auth.endpoints.register ? (
        <p>
          No account yet? <Link href="/register">Create one</Link>
        </p>
      ) : null}
    </section>
  );
}
