import Link from "next/link";

/** 404 of the auth pages a domain turns off (disabled endpoints, `auth.type: none`); unknown paths get the project's own. */
export default function NotFound() {
  return (
    <section className="da-page-narrow">
      <h1>Page not found</h1>
      <p>This page does not exist in this service.</p>
      <p>
        <Link href="/">Go to the home page</Link>
      </p>
    </section>
  );
}
