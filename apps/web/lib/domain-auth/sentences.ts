import { fieldLabel } from "./format";

/** `text` as a sentence: its first letter capitalised, a full stop at the end unless it ends with one of its own. */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === "") return trimmed;
  const capitalised = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

/**
 * The API's word on one input as a sentence that names it: a predicate (`is required`, `must be at
 * most 200 characters`) gets the input's label in front ("Title is required."); a sentence of its
 * own ("The code is wrong, expired or already used") is kept as it is, with its full stop.
 */
export function fieldSentence(label: string, message: string): string {
  const trimmed = message.trim();
  return asSentence(/^[a-z]/.test(trimmed) ? `${label} ${trimmed}` : trimmed);
}

/** An input's name as the sentences of its errors call it: `currentPassword` → `Current password`; the body itself → `The request`. */
export function inputLabel(name: string): string {
  return name === "" ? "The request" : fieldLabel(name);
}
