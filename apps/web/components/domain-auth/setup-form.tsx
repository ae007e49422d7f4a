"use client";

import { useRouter } from "next/navigation";
import { AccountForm } from "@/components/domain-auth/account-form";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { NEW_PASSWORD_HINT } from "@/lib/domain-auth/password-hint";
import { signIn } from "@/lib/domain-auth/sign-in";

/** Asked only when the server was started with `SETUP_TOKEN`; the API's 403 names it, so its error shows beside it. */
const SETUP_TOKEN_FIELD = {
  name: "setupToken",
  label: "Setup token",
  hint: "Whoever runs this server set it as SETUP_TOKEN in the server's environment. It is never printed: ask them for it.",
} as const;

/** Props of {@link SetupForm}. */
export interface SetupFormProps {
  readonly auth: AuthView;
  /** The server needs `setupToken` in the body: ask for it. */
  readonly tokenRequired: boolean;
}

/** Creates the first administrator, signs them in and opens their profile. */
export function SetupForm({ auth, tokenRequired }: SetupFormProps) {
  const router = useRouter();
  return (
    <AccountForm
      secretField={tokenRequired ? SETUP_TOKEN_FIELD : undefined}
      fields={auth.profileFields}
      submitLabel="Create administrator"
      passwordAutoComplete="new-password"
      passwordHint={NEW_PASSWORD_HINT}
      onSubmit={async (body) => {
        const failure = await signIn(auth, "setup", body);
        if (failure?.error.code === "SETUP_COMPLETE") router.refresh();
        else if (!failure) {
          router.push("/profile");
          // The shared layout was rendered while setup was pending, without the header's links: render it anew.
          router.refresh();
        }
        return failure?.error ?? null;
      }}
    />
  );
}
