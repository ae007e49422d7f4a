import type { Operation } from "../config/vocabulary.js";

/** The codes a refusal answers with: each is one of the API's error codes. */
export type RefusalCode = "FORBIDDEN" | "LAST_ADMIN" | "EMAIL_NOT_VERIFIED" | "LAST_OWNER";

/** A rule says no: the status and code to answer with, and the sentence that says why. */
export interface Refusal {
  readonly allowed: false;
  readonly status: 403 | 409;
  readonly code: RefusalCode;
  readonly message: string;
}

/** The outcome of a rule: allowed, or a {@link Refusal}. */
export type Verdict = { readonly allowed: true } | Refusal;

/** The verdict of a rule that lets the request through. */
export const ALLOWED: Verdict = Object.freeze({ allowed: true });

/** A 403 `FORBIDDEN` refusal that says why. */
export function forbidden(message: string): Refusal {
  return { allowed: false, status: 403, code: "FORBIDDEN", message };
}

const VERBS: Readonly<Record<Operation, string>> = { create: "create", read: "read", update: "change", delete: "delete" };

/** How refusals name an operation: "change" for `update`. */
export function verbOf(operation: Operation): string {
  return VERBS[operation];
}
