"use client";

import { useCallback, useId, useState } from "react";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { AddPasskeyForm } from "./add-passkey-form";
import { RecoveryCodes } from "./recovery-codes";
import { TotpSetup } from "./totp-setup";

/** What the page says when the enrolment token died before the confirmation. */
export const ENROLMENT_EXPIRED =
  "Setting up two-step verification took longer than five minutes, or was finished elsewhere. Sign in again to set it up.";

/** Props of {@link EnrolmentStep}. */
export interface EnrolmentStepProps {
  /** Its `endpoints` say which factors can be set up: the authenticator app (`totp`), a passkey (`passkeys`), or either. */
  readonly auth: Pick<AuthView, "segment" | "endpoints">;
  /** The `mfaToken` of `mfaEnrollmentRequired`: it opens only the enrolment endpoints, for five minutes. */
  readonly enrolmentToken: string | null;
  /** The codes were shown and the user goes on, signed in. */
  readonly onDone: () => void;
  /** The enrolment token died: its message is {@link ENROLMENT_EXPIRED}. */
  readonly onExpired: (message: string) => void;
}

/**
 * A second factor the user's role requires (`auth.mfa.required`, docs/mfa.md), set up after the
 * password at sign-in or setup: the authenticator app, whose confirmation also signs in, then the
 * recovery codes, shown once; or a passkey, whose registration signs in. Where the domain offers
 * both, the app comes first and "Use a passkey instead" switches.
 */
export function EnrolmentStep({ auth, enrolmentToken, onDone, onExpired }: EnrolmentStepProps) {
  const headingId = useId();
  const [codes, setCodes] = useState<readonly string[] | null>(null);
  const [usePasskey, setUsePasskey] = useState(!auth.endpoints.totp);
  const expired = useCallback(() => onExpired(ENROLMENT_EXPIRED), [onExpired]);
  const both = auth.endpoints.totp && auth.endpoints.passkeys;

  if (codes) {
    return (
      <section aria-labelledby={headingId}>
        <h2 id={headingId}>Two-step verification is on</h2>
        <RecoveryCodes codes={codes} doneLabel="Continue" onDone={onDone} />
      </section>
    );
  }
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Set up two-step verification</h2>
      {usePasskey ? (
        <>
          <p>
            Your account must use a second factor. Add a passkey: your device’s screen lock (fingerprint, face or PIN) then signs you in.
            Adding it finishes signing in.
          </p>
          <AddPasskeyForm auth={auth} enrolmentToken={enrolmentToken} onAdded={onDone} onRefused={expired} />
        </>
      ) : (
        <>
          <p>
            Your account must use a second factor: after your password, a code from an authenticator app on your phone. Set it up now to
            finish signing in.
          </p>
          <TotpSetup auth={auth} enrolmentToken={enrolmentToken} onConfirmed={setCodes} onRefused={expired} />
        </>
      )}
      {both ? (
        <p>
          <button type="button" className="da-button" onClick={() => setUsePasskey((value) => !value)}>
            {usePasskey ? "Use an authenticator app instead" : "Use a passkey instead"}
          </button>
        </p>
      ) : null}
    </section>
  );
}
