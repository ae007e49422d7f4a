"use client";

import { type InputHTMLAttributes, useState } from "react";
import { useHydrated } from "@/lib/domain-auth/hydrated";

/** Props of {@link PasswordInput}: a password input's attributes (its `type` is the toggle's). */
export interface PasswordInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "type"> {
  readonly id: string;
  /** The id of the input's label, which describes the toggle: "Show", then the input it shows. */
  readonly labelId: string;
}

/**
 * A password input with a "Show"/"Hide" toggle beside it, for every password the pages ask for:
 * the button's name is its visible word (as speech input users say it), `aria-pressed` says whether
 * the password is shown, and the input's label describes it. Shown, the input is plain text; its
 * `autocomplete` stays as it is, so password managers still fill and save it.
 */
export function PasswordInput({ id, labelId, ...input }: PasswordInputProps) {
  const [shown, setShown] = useState(false);
  const hydrated = useHydrated();
  return (
    <div className="da-password">
      <input id={id} autoCapitalize="none" autoCorrect="off" spellCheck={false} {...input} type={shown ? "text" : "password"} />
      <button
        type="button"
        className="da-button da-password-toggle"
        aria-pressed={shown}
        aria-controls={id}
        aria-describedby={labelId}
        disabled={!hydrated}
        onClick={() => setShown((was) => !was)}
      >
        {shown ? "Hide" : "Show"}
      </button>
    </div>
  );
}
