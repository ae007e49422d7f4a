import type { ErrorBody } from "@domain-auth/core/policy";
import { type FormEvent, useState } from "react";

/** The value an input holds, as a form would send it (a checkbox: whether it is ticked). */
function inputValue(element: Element): string | null {
  if (element instanceof HTMLInputElement) return element.type === "checkbox" ? String(element.checked) : element.value;
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return element.value;
  return null;
}

/** The value of each named input of `form`. */
function inputValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const element of Array.from(form.elements)) {
    const name = element.getAttribute("name");
    const value = inputValue(element);
    if (name && value !== null) values[name] = value;
  }
  return values;
}

/**
 * `error` without the issues of the inputs in `fixed`; `null` when every issue it had is fixed (what
 * is left to say is nothing). An error without issues stays: it is about the attempt, not an input.
 */
export function withoutFixed(error: ErrorBody | null, fixed: ReadonlySet<string>): ErrorBody | null {
  const issues = error?.issues;
  if (!error || !issues || issues.length === 0) return error;
  const left = issues.filter((issue) => !fixed.has(String(issue.path[0] ?? "")));
  if (left.length === 0) return null;
  return left.length === issues.length ? error : { ...error, issues: left };
}

/** What {@link useFormErrors} gives a form. */
export interface FormErrors {
  /** The API's error still to show: the issues of inputs changed since it came are gone. */
  readonly error: ErrorBody | null;
  /** Records the API's answer to a submission of `form` (`null`: nothing to show), with the values it sent. */
  readonly fail: (error: ErrorBody | null, form?: HTMLFormElement | null) => void;
  /** For the form's `onChange`: an input whose value is no longer the one refused loses its error (it is back if the value is). */
  readonly onChange: (event: FormEvent<HTMLFormElement>) => void;
}

/**
 * The errors of a form, shown the same way everywhere: each input's issue beside it until the input
 * no longer holds the value the API refused, the sentence above the form while there is something
 * left to say. Put `onChange` on the form and call `fail` with each answer.
 */
export function useFormErrors(): FormErrors {
  const [answer, setAnswer] = useState<{ error: ErrorBody | null; sent: Readonly<Record<string, string>> }>({ error: null, sent: {} });
  const [fixed, setFixed] = useState<ReadonlySet<string>>(new Set());
  return {
    error: withoutFixed(answer.error, fixed),
    fail: (error, form) => {
      setAnswer({ error, sent: form ? inputValues(form) : {} });
      setFixed(new Set());
    },
    onChange: (event) => {
      const target = event.target as Element;
      const name = target.getAttribute("name");
      const value = inputValue(target);
      if (!name || value === null || !(name in answer.sent)) return;
      const changed = value !== answer.sent[name];
      if (changed === fixed.has(name)) return;
      const next = new Set(fixed);
      if (changed) next.add(name);
      else next.delete(name);
      setFixed(next);
    },
  };
}
