import Link from "next/link";

/** Stands for the project's own home page: any page of the project can link to the auth pages. */
export default function HomePage() {
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", maxWidth: "40rem", margin: "0 auto", padding: "2rem 1rem" }}>
      <h1>domain-auth</h1>
      <p>This page is the project&apos;s own; the sign-in pages live in their own route group.</p>
      <ul>
        <li>
          <Link href="/login">Sign in</Link>
        </li>
        <li>
          <Link href="/profile">Your profile</Link>
        </li>
        <li>
          <Link href="/admin">Admin</Link>
        </li>
      </ul>
    </main>
  );
}
