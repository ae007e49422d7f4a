import type { ErrorBody } from "@domain-auth/core/policy";
import { asSentence } from "@/lib/domain-auth/sentences";

/** The message of a failed request as a sentence, announced to screen readers; nothing when there is none. */
export function FormError({ error }: { readonly error: ErrorBody | string | null }) {
  if (!error) return null;
  const message = asSentence(typeof error === "string" ? error : error.message);
  return (
    <p className="da-form-error" role="alert">
      {message}
    </p>
  );
}
