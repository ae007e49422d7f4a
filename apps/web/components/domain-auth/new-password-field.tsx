"use client";

import type { PasswordScore } from "@domain-auth/core/password";
import { useId, useMemo, useState } from "react";
import { NEW_PASSWORD_HINT } from "@/lib/domain-auth/password-hint";
import { useLoaded } from "@/lib/domain-auth/use-loaded";
import { PasswordInput } from "./password-input";

/** How each score reads, 0 being refused by the server. */
const STRENGTH_WORDS: Readonly<Record<PasswordScore, string>> = {
  0: "too common",
  1: "weak",
  2: "fair",
  3: "good",
  4: "strong",
};

/** The server's password rules, as `@domain-auth/core/password` has them. */
type PasswordRules = Pick<typeof import("@domain-auth/core/password"), "passwordProblem" | "passwordScore">;

/**
 * The password rules, loaded once the field is on screen: their common-password dictionary is a
 * few hundred kilobytes that the pages without a new password (sign-in among them) never load.
 */
function usePasswordRules(): PasswordRules | null {
  const { value } = useLoaded("password-rules", () =>
    import("@domain-auth/core/password").then(({ passwordProblem, passwordScore }): PasswordRules => ({ passwordProblem, passwordScore })),
  );
  return value ?? null;
}

/** Props of {@link NewPasswordField}. */
export interface NewPasswordFieldProps {
  readonly label: string;
  /** The server's word on the password, once submitted. */
  readonly error?: string | undefined;
}

/**
 * The input of a password being set (setup, register, reset, a change on the profile), with its
 * strength as the person types: the server's own rules (`passwordProblem` of
 * `@domain-auth/core/password`), checked in the browser too, so what the meter says is what the
 * server will answer. Nothing is sent while typing. Its "Show" toggle shows what was typed
 * ({@link PasswordInput}).
 */
export function NewPasswordField({ label, error }: NewPasswordFieldProps) {
  const id = useId();
  const [value, setValue] = useState("");
  const rules = usePasswordRules();
  const verdict = useMemo(
    () => (value === "" || !rules ? null : { score: rules.passwordScore(value), problem: rules.passwordProblem(value) }),
    [value, rules],
  );
  const ids = { hint: `${id}-hint`, strength: `${id}-strength`, error: `${id}-error` };
  const describedBy = [ids.hint, verdict ? ids.strength : null, error ? ids.error : null].filter(Boolean).join(" ");
  return (
    <div className="da-field">
      <label id={`${id}-label`} htmlFor={id}>
        {label}
      </label>
      <PasswordInput
        id={id}
        labelId={`${id}-label`}
        name="password"
        autoComplete="new-password"
        required
        value={value}
        onChange={(event) => setValue(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      <p id={ids.hint} className="da-field-hint">
        {NEW_PASSWORD_HINT}
      </p>
      {verdict ? (
        <div className="da-strength">
          <meter min={0} max={4} low={2} high={3} optimum={4} value={verdict.score} aria-label="Strength" />
          <p id={ids.strength} className="da-field-hint" aria-live="polite">
            Strength: {STRENGTH_WORDS[verdict.score]}
            {verdict.problem ? `. It ${verdict.problem}.` : "."}
          </p>
        </div>
      ) : null}
      {error ? (
        <p id={ids.error} className="da-field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
