import { signInPath } from "@domain-auth/core/policy";
import Link from "next/link";
import type { AuthView } from "@/lib/domain-auth/domain-view";

/** Props of {@link SignInLink}. */
export interface SignInLinkProps {
  readonly auth: AuthView;
  /** The page to come back to once signed in. @default the profile */
  readonly next?: string;
}

/** The "Sign in" button, where the domain has a login endpoint. */
export function SignInLink({ auth, next }: SignInLinkProps) {
  if (!auth.endpoints.login) return null;
  return (
    <p>
      <Link className="da-button da-button-primary" href={signInPath(next)}>
        Sign in
      </Link>
    </p>
  );
}
