"use client";

import { holdsSetupRole } from "@domain-auth/core/policy";
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { useSession } from "@/lib/domain-auth/session";
import { OrganizationSwitcher } from "./organization-switcher";
import { SignOutButton } from "./sign-out-button";

/** A link of the header's navigation, marked `aria-current="page"` on the page it opens. */
export function NavLink({ href, children }: { readonly href: string; readonly children: string }) {
  const current = usePathname() === href;
  return (
    <Link href={href} aria-current={current ? "page" : undefined}>
      {children}
    </Link>
  );
}

/**
 * The header's links for who is there: signed out, sign-in and register (those the domain has); signed
 * in, the organization switcher (where the domain has organizations), the profile, admin for the setup
 * role, the user's email and sign-out. Never both: a signed-in user is not offered to sign in.
 */
export function SessionNav({ auth }: { readonly auth: AuthView }) {
  const session = useSession();
  if (session.status === "signed-out") {
    return (
      <>
        {auth.endpoints.login ? <NavLink href="/login">Sign in</NavLink> : null}
        {auth.endpoints.register ? <NavLink href="/register">Register</NavLink> : null}
      </>
    );
  }
  return (
    <>
      {auth.endpoints.organizations ? <OrganizationSwitcher key={session.user.id} userId={session.user.id} /> : null}
      <NavLink href="/profile">Profile</NavLink>
      {holdsSetupRole(auth, session.user.role) ? <NavLink href="/admin">Admin</NavLink> : null}
      <span className="da-nav-user">{session.user.email}</span>
      <SignOutButton auth={auth} />
    </>
  );
}
