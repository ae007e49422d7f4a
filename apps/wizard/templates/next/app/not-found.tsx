import Link from "next/link";

/** 404: unknown paths, and the pages a domain turns off (disabled endpoints, `auth.type: none`). */
export default function NotFound() {
  return (
    <section className="page-narrow">
      <h1>Page not found</h1>
      <p>This page does not exist in this service.</p>
      <p>
        <Link href="/">Go to the home page</Link>
      </p>
    </section>
  );
}
