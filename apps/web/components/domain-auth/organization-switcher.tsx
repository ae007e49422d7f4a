"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useRef } from "react";
import { organizationPagePath, useOrganizations } from "@/lib/domain-auth/organizations";

/**
 * The header's organization switcher, for a signed-in user where the domain has organizations:
 * their organizations (each links to its page, the one on show marked), and "Create one" on `/orgs`.
 * A disclosure that works before the page's scripts run; choosing a link closes it.
 */
export function OrganizationSwitcher({ userId }: { readonly userId: string }) {
  const pathname = usePathname();
  const organizations = useOrganizations(userId);
  const disclosure = useRef<HTMLDetailsElement>(null);
  const items = organizations.items ?? [];
  const current = items.find((organization) => pathname === organizationPagePath(organization.id));
  const close = () => disclosure.current?.removeAttribute("open");

  return (
    <details ref={disclosure} className="da-switcher">
      <summary>
        <span className="da-visually-hidden">Organization: </span>
        <span className="da-switcher-label">{current ? current.name : "Organizations"}</span>
      </summary>
      <div className="da-switcher-menu">
        {organizations.items === null ? (
          <p className="da-field-hint">{organizations.error ? organizations.error.message : "Loading…"}</p>
        ) : null}
        {organizations.items?.length === 0 ? <p className="da-field-hint">You are in no organization yet.</p> : null}
        {items.length > 0 ? (
          <ul aria-label="Your organizations">
            {items.map((organization) => (
              <li key={organization.id}>
                <Link
                  href={organizationPagePath(organization.id)}
                  aria-current={organization === current ? "page" : undefined}
                  onClick={close}
                >
                  <span>{organization.name}</span>
                  <span className="da-switcher-role">{organization.role}</span>
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
        <Link className="da-switcher-create" href="/orgs" onClick={close}>
          Create one
        </Link>
      </div>
    </details>
  );
}
