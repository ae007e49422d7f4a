import Link from "next/link";
import type { ReactNode } from "react";
import { loadPageState } from "@/lib/domain-auth/page-access";
import { SessionNav } from "./session-nav";
import styles from "./ui.module.css";

/**
 * The frame of the auth pages: header with the session's links, main content, footer, all under the
 * scope of their styles. It reads the request's state (the domain, whether setup is pending), so the
 * pages render per request: their Content-Security-Policy nonce is new on each one.
 */
export async function AuthFrame({ children }: { readonly children: ReactNode }) {
  const { view, setupRequired } = await loadPageState();
  return (
    <div className={styles.frame}>
      <a className={styles.skipLink} href="#main">
        Skip to content
      </a>
      <header className={styles.siteHeader}>
        <div className={styles.headerInner}>
          <Link className={styles.brand} href="/">
            {view.name}
          </Link>
          {setupRequired ? null : (
            <nav className={styles.siteNav} aria-label="Main">
              {view.auth ? <SessionNav auth={view.auth} /> : <Link href="/admin">Records</Link>}
            </nav>
          )}
        </div>
      </header>
      <main id="main" className={styles.main}>
        {children}
      </main>
      <footer className={styles.siteFooter}>Served by domain-auth from domain.yaml.</footer>
    </div>
  );
}
