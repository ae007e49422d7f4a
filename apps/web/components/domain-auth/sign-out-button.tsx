"use client";

import { useState } from "react";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { signOut } from "@/lib/domain-auth/sign-out";

/** Signs the session out on the server (where `logout` exists), clears its cookies and opens the sign-in page (or home when sign-in is disabled). */
export function SignOutButton({ auth }: { readonly auth: Pick<AuthView, "segment" | "endpoints"> }) {
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      className="da-button"
      disabled={pending}
      onClick={async () => {
        setPending(true);
        await signOut(auth);
        // A page load, not a client navigation: with cacheComponents the router keeps the pages it
        // rendered before (a /login that led to /setup while setup was pending, the signed-in
        // user's pages) and would show them again.
        window.location.assign(auth.endpoints.login ? "/login" : "/");
      }}
    >
      Sign out
    </button>
  );
}
