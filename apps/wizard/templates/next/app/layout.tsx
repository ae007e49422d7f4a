import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { SessionNav } from "@/components/session-nav";
import { loadPageState } from "@/lib/page-access";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "domain-auth", template: "%s · domain-auth" },
  description: "Sign-in, users and records for an API described in domain.yaml.",
};

/** The frame of every page: header with the session's links, main content, footer. */
export default async function RootLayout({ children }: { readonly children: ReactNode }) {
  const { view, setupRequired } = await loadPageState();
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="site-header">
          <div className="container header-inner">
            <Link className="brand" href="/">
              {view.name}
            </Link>
            {setupRequired ? null : (
              <nav className="site-nav" aria-label="Main">
                {view.auth ? <SessionNav auth={view.auth} /> : <Link href="/admin">Records</Link>}
              </nav>
            )}
          </div>
        </header>
        <main id="main" className="container">
          {children}
        </main>
        <footer className="site-footer container">Served by domain-auth from domain.yaml.</footer>
      </body>
    </html>
  );
}
