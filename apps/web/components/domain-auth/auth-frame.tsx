import Link from "next/link";
import type { ReactNode } from "react";
import { loadPageState } from "@/lib/domain-auth/page-access";
import { SIGNED_OUT } from "@/lib/domain-auth/session-client";
import { readSession } from "@/lib/domain-auth/session-server";
import { SessionKeeper } from "./session-keeper";
import { NavLink, SessionNav } from "./session-nav";
import { SessionProvider } from "./session-provider";
import "./domain-auth.css";

/**
 * The frame of the auth pages: header with the session's links, main content, footer, all under the
 * scope of their styles. It reads the request's state (the domain, whether setup is pending, who is
 * signed in), so the pages render per request: their Content-Security-Policy nonce is new on each
 * one, and their HTML shows the signed-in user. A page of the project's own may use it with
 * `keepSessionAlive={false}`: it then shows the session without renewing its token.
 */
export async function AuthFrame({
  children,
  keepSessionAlive = true,
}: {
  readonly children: ReactNode;
  readonly keepSessionAlive?: boolean;
}) {
  const { view, setupRequired } = await loadPageState();
  // After loadPageState's connection(): read per request, also in a build with cacheComponents.
  const session = view.auth ? await readSession(view.auth) : SIGNED_OUT;
  return (
    <SessionProvider rendered={session}>
      <div className="da-frame">
        {view.auth && keepSessionAlive ? <SessionKeeper auth={view.auth} /> : null}
        <a className="da-skip-link" href="#main">
          Skip to content
        </a>
        <header className="da-site-header">
          <div className="da-container da-header-inner">
            <Link className="da-brand" href="/">
              {view.name}
            </Link>
            {setupRequired ? null : (
              <nav className="da-site-nav" aria-label="Main">
                {view.auth ? <SessionNav view={view} auth={view.auth} /> : <NavLink href="/admin">Records</NavLink>}
                <NavLink href="/docs">API</NavLink>
              </nav>
            )}
          </div>
        </header>
        <main id="main" className="da-container da-main">
          {children}
        </main>
        <footer className="da-container da-site-footer">Served by domain-auth from domain.yaml.</footer>
      </div>
    </SessionProvider>
  );
}
