import Link from "next/link";

export default function HomePage() {
  return (
    <main className="home">
      <h1>My app</h1>
      <p>
        The API of domain.yaml is served under /api. <Link href="/admin">Browse the records</Link>
      </p>
    </main>
  );
}
