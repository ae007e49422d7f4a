import { afterSignIn, isProviderError, PROVIDER_ERRORS } from "@domain-auth/core/policy";
import type { Metadata } from "next";
import Link from "next/link";
import { LoginForm } from "@/components/domain-auth/login-form";
import { ProviderButtons } from "@/components/domain-auth/provider-buttons";
import { openAuthPage } from "@/lib/domain-auth/page-access";
import { firstParam, type SearchParams } from "@/lib/domain-auth/search-params";
import { providerSecondStep } from "@/lib/domain-auth/second-factor";

export const metadata: Metadata = { title: "Sign in" };

/**
 * Sign in with email and password, or with a provider; then back to `?next=` (a path of this app),
 * else the profile. A provider's callback comes back here with `?error=` (said in a sentence) or
 * `?step=second-factor` (the code it still needs, its token in a cookie).
 */
export default async function LoginPage({ searchParams }: { readonly searchParams: Promise<SearchParams> }) {
  const { view, auth } = await openAuthPage("login");
  const query = await searchParams;
  const destination = afterSignIn(firstParam(query.next));
  const error = firstParam(query.error);
  return (
    <section className="da-page-narrow">
      <h1>Sign in to {view.name}</h1>
      <LoginForm
        auth={auth}
        destination={destination}
        initialStep={providerSecondStep(firstParam(query.step), firstParam(query.methods))}
        initialNotice={isProviderError(error) ? PROVIDER_ERRORS[error] : null}
      />
      <ProviderButtons auth={auth} destination={destination} />
      {auth.endpoints.passwordReset ? (
        <p>
          <Link href="/forgot-password">Forgot password?</Link>
        </p>
      ) : null}
      {auth.endpoints.register ? (
        <p>
          No account yet?{" "}
          <Link href={query.next === undefined ? "/register" : `/register?${new URLSearchParams({ next: destination })}`}>Create one</Link>
        </p>
      ) : null}
    </section>
  );
}
