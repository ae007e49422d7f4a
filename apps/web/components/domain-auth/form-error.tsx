import type { ErrorBody } from "@domain-auth/core/policy";

/** The message of a failed request, announced to screen readers; nothing when there is none. */
export function FormError({ error }: { readonly error: ErrorBody | string | null }) {
  if (!error) return null;
  const message = typeof error === "string" ? error : error.message;
  return (
    <p className="da-form-error" role="alert">
      {message}
    </p>
  );
}
