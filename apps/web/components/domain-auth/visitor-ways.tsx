"use client";

import Link from "next/link";
import { useLoaded } from "@/lib/domain-auth/use-loaded";
import { visitor } from "@/lib/domain-auth/visitor";
import { DocumentTitle } from "./document-title";

/**
 * The ways on besides home of a page at the root of the app that cannot be shown (the 403 page, a
 * 404), once it knows who is there: sign-in for a visitor (where the domain has it), the profile for
 * someone signed in. It also names the service in the tab's title ("Not allowed · blog").
 */
export function VisitorWaysOn({ title }: { readonly title: string }) {
  const { value } = useLoaded("visitor", visitor);
  if (!value) return null;
  return (
    <>
      <DocumentTitle title={`${title} · ${value.service}`} />
      {value.profile ? (
        <Link className="da-button" href="/profile">
          Your profile
        </Link>
      ) : null}
      {value.signIn ? (
        <Link className="da-button" href="/login">
          Sign in
        </Link>
      ) : null}
    </>
  );
}
