import type { Metadata } from "next";
import Link from "next/link";
import { LoginForm } from "@/components/domain-auth/login-form";
import { openAuthPage } from "@/lib/domain-auth/page-access";

export const metadata: Metadata = { title: "Sign in" };

/** Sign in with email and password. */
export default async function LoginPage() {
  const { view, auth } = await openAuthPage("login");
  return (
    <section className="da-page-narrow">
      <h1>Sign in to {view.name}</h1>
      <LoginForm auth={auth} />
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
