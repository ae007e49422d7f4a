"use client";

import { apiPaths, DEFAULT_AFTER_SIGN_IN, signInPath } from "@domain-auth/core/policy";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { AccountForm } from "@/components/domain-auth/account-form";
import { callApi } from "@/lib/domain-auth/api";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { signIn } from "@/lib/domain-auth/sign-in";

/** Props of {@link RegisterForm}. */
export interface RegisterFormProps {
  readonly auth: AuthView;
  /** The page to open once signed in (`afterSignIn` of the page's `?next=`). @default the profile */
  readonly destination?: string;
}

/** Creates an account; signs it in and opens `destination` (the profile) when sign-in is enabled. */
export function RegisterForm({ auth, destination = DEFAULT_AFTER_SIGN_IN }: RegisterFormProps) {
  const router = useRouter();
  const [registered, setRegistered] = useState(false);

  if (registered) {
    return (
      <p className="da-notice" role="status">
        Your account has been created. {auth.endpoints.login ? <Link href={signInPath(destination)}>Sign in</Link> : null}
      </p>
    );
  }
  return (
    <AccountForm
      fields={auth.profileFields}
      submitLabel="Create account"
      passwordAutoComplete="new-password"
      onSubmit={async (body) => {
        const created = await callApi(apiPaths(auth).register, { method: "POST", body });
        if (!created.ok) return created.error;
        // A role that must set up a second factor first signs in on /login, which walks through it.
        const signedIn = auth.endpoints.login ? await signIn(auth, "login", { email: body.email, password: body.password }) : null;
        if (signedIn?.ok && signedIn.data.kind === "signed-in") {
          router.push(destination);
          return null;
        }
        setRegistered(true);
        return null;
      }}
    />
  );
}
