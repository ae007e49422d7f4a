import { type InputHTMLAttributes, useId } from "react";
import { PasswordInput } from "./password-input";

/** Props of {@link TextField}: an input's attributes plus its label and error. */
export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  readonly label: string;
  readonly name: string;
  /** Shown under the input and announced with it. */
  readonly error?: string | undefined;
  readonly hint?: string | undefined;
}

/** A labelled input whose error is tied to it with `aria-describedby`; a password's has a "Show" toggle ({@link PasswordInput}). */
export function TextField({ label, error, hint, type, ...input }: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={type === "checkbox" || type === "radio" ? "da-field da-field-checkbox" : "da-field"}>
      <label id={`${id}-label`} htmlFor={id}>
        {label}
      </label>
      {type === "password" ? (
        <PasswordInput id={id} labelId={`${id}-label`} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      ) : (
        <input id={id} type={type} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      )}
      {hint ? (
        <p id={hintId} className="da-field-hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="da-field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
