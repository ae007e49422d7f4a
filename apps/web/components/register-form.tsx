"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { AccountForm } from "@/components/account-form";
import { callApi } from "@/lib/api";
import type { AuthView } from "@/lib/domain-view";
import { requestToken } from "@/lib/sign-in";

/** Creates an account; signs it in and opens the profile when sign-in is enabled. */
export function RegisterForm({ auth }: { readonly auth: AuthView }) {
  const router = useRouter();
  const [registered, setRegistered] = useState(false);

  if (registered) {
    return (
      <p className="notice" role="status">
        Your account has been created. {auth.endpoints.login ? <Link href="/login">Sign in</Link> : null}
      </p>
    );
  }
  return (
    <AccountForm
      fields={auth.profileFields}
      submitLabel="Create account"
      passwordAutoComplete="new-password"
      passwordHint="At least 8 characters, at most 72 bytes (accented letters and emoji count 2 to 4)."
      onSubmit={async (body) => {
        const created = await callApi(`/${auth.segment}/register`, { method: "POST", body });
        if (!created.ok) return created.error;
        if (auth.endpoints.login && !(await requestToken(auth.segment, "login", body))) {
          router.push("/profile");
          return null;
        }
        setRegistered(true);
        return null;
      }}
    />
  );
}
