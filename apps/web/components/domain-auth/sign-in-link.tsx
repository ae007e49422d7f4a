import Link from "next/link";
import type { AuthView } from "@/lib/domain-auth/domain-view";

/** The "Sign in" button, where the domain has a login endpoint. */
export function SignInLink({ auth }: { readonly auth: AuthView }) {
  if (!auth.endpoints.login) return null;
  return (
    <p>
      <Link className="da-button da-button-primary" href="/login">
        Sign in
      </Link>
    </p>
  );
}
