import Link from "next/link";

export default function HomePage() {
  return (
    <main className="home">
      <h1>My app</h1>
      <p>The API of domain.yaml is served under /api.</p>
      <p>
        <Link href="/login">Sign in</Link> · <Link href="/profile">Your profile</Link> · <Link href="/admin">Records</Link>
      </p>
    </main>
  );
}
