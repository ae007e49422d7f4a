import type { ApiError } from "@/lib/domain-auth/api";
import styles from "./ui.module.css";

/** The message of a failed request, announced to screen readers; nothing when there is none. */
export function FormError({ error }: { readonly error: ApiError | string | null }) {
  if (!error) return null;
  const message = typeof error === "string" ? error : error.message;
  return (
    <p className={styles.formError} role="alert">
      {message}
    </p>
  );
}
