"use client";

import { usePathname } from "next/navigation";
import { SignInLink } from "@/components/domain-auth/sign-in-link";
import type { AuthView } from "@/lib/domain-auth/domain-view";

/** What a page that needs a session shows without one; signing in comes back to the page. */
export function SignedOutNotice({ auth, expired }: { readonly auth: AuthView; readonly expired: boolean }) {
  const pathname = usePathname();
  return (
    <div className="da-notice" role="status">
      <p>{expired ? "Your session is no longer valid. Please sign in again." : "You are not signed in."}</p>
      <SignInLink auth={auth} next={pathname} />
    </div>
  );
}
