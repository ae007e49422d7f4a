"use client";

import type { AuthView } from "@/lib/domain-auth/domain-view";
import type { SecondStep } from "@/lib/domain-auth/second-factor";
import { EnrolmentStep } from "./enrolment-step";
import { SecondFactorForm } from "./second-factor-form";

/** Props of {@link SecondStepView}. */
export interface SecondStepViewProps {
  readonly auth: Pick<AuthView, "segment" | "endpoints">;
  /** What the password answered instead of a session. */
  readonly step: SecondStep;
  /** Signed in (after the recovery codes, for an enrolment). */
  readonly onSignedIn: () => void;
  /** The `mfaToken` died: the sign-in starts again, with this message. */
  readonly onExpired: (message: string) => void;
}

/** The step after a right password that opened no session (docs/mfa.md): a code to enter, or a factor to set up. */
export function SecondStepView({ auth, step, onSignedIn, onExpired }: SecondStepViewProps) {
  if (step.kind === "enrolment") {
    return <EnrolmentStep auth={auth} enrolmentToken={step.mfaToken} onDone={onSignedIn} onExpired={onExpired} />;
  }
  return <SecondFactorForm auth={auth} challenge={step} onSignedIn={onSignedIn} onExpired={onExpired} />;
}
