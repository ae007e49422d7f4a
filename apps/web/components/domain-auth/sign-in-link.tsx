import Link from "next/link";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import styles from "./ui.module.css";

/** The "Sign in" button, where the domain has a login endpoint. */
export function SignInLink({ auth }: { readonly auth: AuthView }) {
  if (!auth.endpoints.login) return null;
  return (
    <p>
      <Link className={styles.buttonPrimary} href="/login">
        Sign in
      </Link>
    </p>
  );
}
