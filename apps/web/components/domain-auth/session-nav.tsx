"use client";

import { holdsSetupRole } from "@domain-auth/core/policy";
import Link from "next/link";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { useSession } from "@/lib/domain-auth/session";
import { OrganizationSwitcher } from "./organization-switcher";
import { SignOutButton } from "./sign-out-button";

/**
 * The header's links: the organization switcher (where the domain has organizations), profile, admin
 * and sign-out when signed in; sign-in and register otherwise.
 */
export function SessionNav({ auth }: { readonly auth: AuthView }) {
  const session = useSession();
  if (session.status === "signed-out") {
    return (
      <>
        {auth.endpoints.login ? <Link href="/login">Sign in</Link> : null}
        {auth.endpoints.register ? <Link href="/register">Register</Link> : null}
      </>
    );
  }
  return (
    <>
      {auth.endpoints.organizations ? <OrganizationSwitcher key={session.user.id} userId={session.user.id} /> : null}
      <Link href="/profile">Profile</Link>
      {holdsSetupRole(auth, session.user.role) ? <Link href="/admin">Admin</Link> : null}
      <span className="da-nav-user">{session.user.email}</span>
      <SignOutButton auth={auth} />
    </>
  );
}
