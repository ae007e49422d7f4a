"use client";

import { type AuthorizeOptions, type Caller, holdsSetupRole } from "@domain-auth/core/policy";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { createContext, type ReactNode, useContext } from "react";
import { type AdminSection, adminSections, sectionOf } from "@/lib/domain-auth/admin-sections";
import type { AuthView, DomainView } from "@/lib/domain-auth/domain-view";
import { shownProfile, type UserProfile } from "@/lib/domain-auth/profile";
import { useSession } from "@/lib/domain-auth/session";
import { SignedOutNotice } from "./signed-out-notice";

/** Who is working in the admin, and what they may open there. */
export interface AdminContextValue {
  readonly view: DomainView;
  /** The signed-in user; `null` under `auth.type: none`. */
  readonly user: UserProfile | null;
  /** The user as the permission rules read them (`null` when anonymous). */
  readonly caller: Caller;
  /** `{ open: true }` under `auth.type: none`, where every record is everyone's. */
  readonly authorization: AuthorizeOptions;
  /** Whether the user holds the setup role: users, keys, activity and every record. */
  readonly setupRole: boolean;
  readonly sections: readonly AdminSection[];
}

const AdminContext = createContext<AdminContextValue | null>(null);

/** The admin's context, for the components of its pages (inside {@link AdminShell} only). */
export function useAdmin(): AdminContextValue {
  const value = useContext(AdminContext);
  if (value === null) throw new Error("useAdmin is for the pages under /admin (inside AdminShell)");
  return value;
}

/** The admin's auth block: the pages that need it exist only under `auth.type: jwt`. */
export function useAdminAuth(): AuthView {
  const { view } = useAdmin();
  if (!view.auth) throw new Error("this admin page exists only under auth.type: jwt");
  return view.auth;
}

/** The admin's navigation: a sidebar, a row that scrolls sideways on a phone. */
function AdminNav({ sections, current }: { readonly sections: readonly AdminSection[]; readonly current: AdminSection | null }) {
  return (
    <nav className="da-admin-nav" aria-label="Admin">
      <ul>
        {sections.map((section) => (
          <li key={section.href}>
            <Link href={section.href} aria-current={section === current ? "page" : undefined}>
              {section.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** What the admin shows someone signed in who may open none of its pages, or not this one. */
function NotAllowed({ view, user }: { readonly view: DomainView; readonly user: UserProfile | null }) {
  const setupRole = view.auth?.setupRole;
  return (
    <div className="da-notice da-notice-denied" role="alert">
      <h2>Not allowed</h2>
      <p>
        This page is for the {setupRole} role{view.entities.length > 0 ? " and the roles that may change records" : ""}. You are signed in
        as {user?.email} with {user?.role ? `the role ${user.role}` : "no role"}.
      </p>
    </div>
  );
}

/**
 * The frame of every admin page: the navigation of the pages the caller may open (`adminSections`)
 * beside the page, which reads who is working with {@link useAdmin}. Signed out, the way to sign in
 * and come back; a page the caller may not open is "Not allowed" (the API refuses it anyway).
 */
export function AdminShell({ view, children }: { readonly view: DomainView; readonly children: ReactNode }) {
  const session = useSession();
  const pathname = usePathname();
  const { auth } = view;
  if (auth && session.status === "signed-out") return <SignedOutNotice auth={auth} expired={session.expired} />;
  const user = auth && session.status === "signed-in" ? shownProfile(auth, session.user) : null;
  const caller: Caller = user ? { id: user.id, role: user.role } : null;
  const sections = adminSections(view, caller);
  const current = sectionOf(sections, pathname);
  // A page that exists for the setup role but not for this caller; any other path is the page's own (its 404).
  const everySection = auth ? adminSections(view, { id: "", role: auth.setupRole }) : sections;
  const refused = sections.length === 0 || (current === null && sectionOf(everySection, pathname) !== null);
  if (refused) return <NotAllowed view={view} user={user} />;
  const value: AdminContextValue = {
    view,
    user,
    caller,
    authorization: auth ? {} : { open: true },
    setupRole: auth !== null && user !== null && holdsSetupRole(auth, user.role),
    sections,
  };
  return (
    <AdminContext.Provider value={value}>
      <div className="da-admin">
        <AdminNav sections={sections} current={current} />
        <div className="da-admin-page">{children}</div>
      </div>
    </AdminContext.Provider>
  );
}
