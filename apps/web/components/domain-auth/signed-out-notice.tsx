import { SignInLink } from "@/components/domain-auth/sign-in-link";
import type { AuthView } from "@/lib/domain-auth/domain-view";

/** What a page that needs a session shows without one. */
export function SignedOutNotice({ auth, expired }: { readonly auth: AuthView; readonly expired: boolean }) {
  return (
    <div className="da-notice" role="status">
      <p>{expired ? "Your session is no longer valid. Please sign in again." : "You are not signed in."}</p>
      <SignInLink auth={auth} />
    </div>
  );
}
