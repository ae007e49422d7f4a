"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { adminSections } from "@/lib/domain-auth/admin-sections";
import type { AuthView, DomainView } from "@/lib/domain-auth/domain-view";
import { useSession } from "@/lib/domain-auth/session";
import { OrganizationSwitcher } from "./organization-switcher";
import { SignOutButton } from "./sign-out-button";

/** A link of the header's navigation, marked `aria-current="page"` on the pages it opens (`/admin` and those under it). */
export function NavLink({ href, children }: { readonly href: string; readonly children: string }) {
  const pathname = usePathname();
  const current = pathname === href || pathname.startsWith(`${href}/`);
  return (
    <Link href={href} aria-current={current ? "page" : undefined}>
      {children}
    </Link>
  );
}

/**
 * The header's links for who is there: signed out, sign-in and register (those the domain has); signed
 * in, the organization switcher (where the domain has organizations), the profile, admin for the setup
 * role and for the roles that may create or change records (`adminSections`), the user's email and
 * sign-out. Never both: a signed-in user is not offered to sign in.
 */
export function SessionNav({ view, auth }: { readonly view: DomainView; readonly auth: AuthView }) {
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
      {adminSections(view, { id: session.user.id, role: session.user.role }).length > 0 ? <NavLink href="/admin">Admin</NavLink> : null}
      <span className="da-nav-user">{session.user.email}</span>
      <SignOutButton auth={auth} />
    </>
  );
}
