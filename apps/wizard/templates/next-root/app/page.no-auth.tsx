import Link from "next/link";

export default function HomePage() {
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", maxWidth: "40rem", margin: "0 auto", padding: "2rem 1rem" }}>
      <h1>My app</h1>
      <p>
        The API of domain.yaml is served under /api. <Link href="/admin">Browse the records</Link>
      </p>
    </main>
  );
}
