import Link from "next/link";
import "@/components/domain-auth/domain-auth.css";

/**
 * The 403 page: what a signed-in user without one of the roles a page asks for sees, from
 * `requireUser({ roles })` of `@domain-auth/core/next` (`forbidden()`, with `experimental.authInterrupts`
 * in next.config). The page's content never renders.
 */
export default function Forbidden() {
  return (
    <div className="da-frame">
      <main id="main" className="da-container da-main">
        <section className="da-page-narrow" role="alert">
          <h1>Not allowed</h1>
          <p>Your account does not have access to this page.</p>
          <p>
            <Link href="/">Go to the home page</Link>
          </p>
        </section>
      </main>
    </div>
  );
}
