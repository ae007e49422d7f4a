"use client";

import { useCallback, useId, useState } from "react";
import type { SecondFactorAuth } from "@/lib/domain-auth/second-factor";
import { RecoveryCodes } from "./recovery-codes";
import { TotpSetup } from "./totp-setup";

/** What the page says when the enrolment token died before the confirmation. */
export const ENROLMENT_EXPIRED =
  "Setting up two-step verification took longer than five minutes, or was finished elsewhere. Sign in again to set it up.";

/** Props of {@link EnrolmentStep}. */
export interface EnrolmentStepProps {
  readonly auth: SecondFactorAuth;
  /** The `mfaToken` of `mfaEnrollmentRequired`: it opens only the enrolment endpoints, for five minutes. */
  readonly enrolmentToken: string;
  /** The codes were shown and the user goes on, signed in. */
  readonly onDone: () => void;
  /** The enrolment token died: its message is {@link ENROLMENT_EXPIRED}. */
  readonly onExpired: (message: string) => void;
}

/**
 * A second factor the user's role requires (`auth.mfa.required`, CONTRACT §15), set up after the
 * password at sign-in or setup: the authenticator app, whose confirmation also signs in, then the
 * recovery codes, shown once.
 */
export function EnrolmentStep({ auth, enrolmentToken, onDone, onExpired }: EnrolmentStepProps) {
  const headingId = useId();
  const [codes, setCodes] = useState<readonly string[] | null>(null);
  const expired = useCallback(() => onExpired(ENROLMENT_EXPIRED), [onExpired]);

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{codes ? "Two-step verification is on" : "Set up two-step verification"}</h2>
      {codes ? (
        <RecoveryCodes codes={codes} doneLabel="Continue" onDone={onDone} />
      ) : (
        <>
          <p>
            Your account must use a second factor: after your password, a code from an authenticator app on your phone. Set it up now to
            finish signing in.
          </p>
          <TotpSetup auth={auth} enrolmentToken={enrolmentToken} onConfirmed={setCodes} onRefused={expired} />
        </>
      )}
    </section>
  );
}
