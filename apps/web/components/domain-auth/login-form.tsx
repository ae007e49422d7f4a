"use client";

import { useRouter } from "next/navigation";
import { AccountForm } from "@/components/domain-auth/account-form";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { describeSignInError, signIn } from "@/lib/domain-auth/sign-in";

/** Signs in with email and password and opens the profile. */
export function LoginForm({ auth }: { readonly auth: AuthView }) {
  const router = useRouter();
  return (
    <AccountForm
      fields={[]}
      submitLabel="Sign in"
      passwordAutoComplete="current-password"
      onSubmit={async (body) => {
        const failure = await signIn(auth, "login", body);
        if (failure) return describeSignInError(failure);
        router.push("/profile");
        return null;
      }}
    />
  );
}
