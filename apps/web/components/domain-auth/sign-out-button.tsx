"use client";

import { useRouter } from "next/navigation";
import { clearToken } from "@/lib/domain-auth/session";

/** Forgets the tab's token and opens the sign-in page (or home when sign-in is disabled). */
export function SignOutButton({ loginEnabled }: { readonly loginEnabled: boolean }) {
  const router = useRouter();
  return (
    <button
      type="button"
      className="da-button"
      onClick={() => {
        clearToken();
        router.push(loginEnabled ? "/login" : "/");
      }}
    >
      Sign out
    </button>
  );
}
