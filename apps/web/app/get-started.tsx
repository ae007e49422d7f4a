"use client";

import { authPageExists } from "@domain-auth/core/vocabulary";
import Link from "next/link";
import { adminSections } from "@/lib/domain-auth/admin-sections";
import type { DomainView } from "@/lib/domain-auth/domain-view";
import { useSession } from "@/lib/domain-auth/session";

/**
 * The home page's next steps once setup is done, for who is there: a visitor gets sign-in and
 * registration (those the server has); someone signed in, who they are, their profile, the admin
 * page when their role may use it and their organizations (signing out is the header's); under
 * `auth.type: none`, the records. The API reference always.
 */
export function GetStarted({ view }: { readonly view: DomainView }) {
  const { auth } = view;
  const session = useSession();
  const exists = (page: Parameters<typeof authPageExists>[0]) => authPageExists(page, auth?.endpoints ?? null);
  const user = session.status === "signed-in" ? session.user : null;
  return (
    <div className="home-next">
      {auth && user ? (
        <p>
          You are signed in as <strong>{user.email}</strong>.
        </p>
      ) : null}
      <nav className="da-actions" aria-label="Get started">
        {!auth ? (
          <Link className="da-button da-button-primary" href="/admin">
            Records
          </Link>
        ) : user ? (
          <>
            <Link className="da-button da-button-primary" href="/profile">
              Your profile
            </Link>
            {adminSections(view, { id: user.id, role: user.role }).length > 0 ? (
              <Link className="da-button" href="/admin">
                Admin
              </Link>
            ) : null}
            {exists("orgs") ? (
              <Link className="da-button" href="/orgs">
                Your organizations
              </Link>
            ) : null}
          </>
        ) : (
          <>
            {exists("login") ? (
              <Link className="da-button da-button-primary" href="/login">
                Sign in
              </Link>
            ) : null}
            {exists("register") ? (
              <Link className="da-button" href="/register">
                Create an account
              </Link>
            ) : null}
          </>
        )}
        <Link className="da-button" href="/docs">
          API reference
        </Link>
      </nav>
    </div>
  );
}
