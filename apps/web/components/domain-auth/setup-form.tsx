"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { AccountForm } from "@/components/domain-auth/account-form";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { signIn } from "@/lib/domain-auth/sign-in";
import { EnrolmentStep } from "./enrolment-step";
import { SignInLink } from "./sign-in-link";

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

/**
 * Creates the first administrator, signs them in and opens their profile. Where the setup role must
 * use a second factor (`auth.mfa.required`), setup is complete at once but the session starts only
 * once the administrator has set up their authenticator app, on this page.
 */
export function SetupForm({ auth, tokenRequired }: SetupFormProps) {
  const router = useRouter();
  const [enrolmentToken, setEnrolmentToken] = useState<string | null>(null);
  const [expired, setExpired] = useState<string | null>(null);
  const openProfile = () => {
    router.push("/profile");
    // The shared layout was rendered while setup was pending, without the header's links: render it anew.
    router.refresh();
  };

  if (expired) {
    return (
      <div className="da-notice da-notice-denied" role="alert">
        <p>{expired}</p>
        <SignInLink auth={auth} />
      </div>
    );
  }
  if (enrolmentToken) {
    return <EnrolmentStep auth={auth} enrolmentToken={enrolmentToken} onDone={openProfile} onExpired={setExpired} />;
  }
  return (
    <AccountForm
      secretField={tokenRequired ? SETUP_TOKEN_FIELD : undefined}
      fields={auth.profileFields}
      submitLabel="Create administrator"
      passwordAutoComplete="new-password"
      onSubmit={async (body) => {
        const result = await signIn(auth, "setup", body);
        if (!result.ok) {
          if (result.error.code === "SETUP_COMPLETE") router.refresh();
          return result.error;
        }
        if (result.data.kind === "enrolment") setEnrolmentToken(result.data.mfaToken);
        // A new administrator has no factor to ask for; should one be asked, sign-in asks it.
        else if (result.data.kind === "second-factor") router.push("/login");
        else openProfile();
        return null;
      }}
    />
  );
}
