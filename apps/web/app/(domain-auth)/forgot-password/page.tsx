import type { Metadata } from "next";
import Link from "next/link";
import { ForgotPasswordForm } from "@/components/domain-auth/forgot-password-form";
import { openAuthPage } from "@/lib/domain-auth/page-access";

export const metadata: Metadata = { title: "Forgot password" };

/** Asks for a password reset link by e-mail. */
export default async function ForgotPasswordPage() {
  const { view, auth } = await openAuthPage("forgot-password");
  return (
    <section className="da-page-narrow">
      <h1>Forgot your {view.name} password?</h1>
      <ForgotPasswordForm auth={auth} />
      {auth.endpoints.login ? (
        <p>
          Remembered it? <Link href="/login">Sign in</Link>
        </p>
      ) : null}
    </section>
  );
}
