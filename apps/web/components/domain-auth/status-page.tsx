import Link from "next/link";
import type { ReactNode } from "react";
import { loadPageState } from "@/lib/domain-auth/page-access";
import { readSession } from "@/lib/domain-auth/session-server";
import { DocumentTitle } from "./document-title";
import "./domain-auth.css";

// Next.js renders the element of every `not-found` and `forbidden` file into each page of its segment,
// shown or not: what these pages render at the root of an app must read nothing of the request, or
// every page under it would render per request. Their tab title comes from the file's
// `generateMetadata`, which runs only when the page is shown, and in a browser from
// {@link DocumentTitle} (Next.js streams it the metadata of the page that was asked for).

/** Props of {@link StatusMessage} and {@link StatusPage}. */
export interface StatusMessageProps {
  /** What happened, in a few words: the heading. */
  readonly title: string;
  /** What happened, in a sentence or two. */
  readonly children: ReactNode;
  /** The ways on, after "Go to the home page" (links styled `da-button`). */
  readonly ways?: ReactNode;
}

/** A page that cannot be shown (404, 403): what happened, and where to go from here, the home page first. */
export function StatusMessage({ title, children, ways }: StatusMessageProps) {
  return (
    <section className="da-page-narrow da-status-page">
      <h1>{title}</h1>
      {children}
      <p className="da-actions da-status-actions">
        <Link className="da-button da-button-primary" href="/">
          Go to the home page
        </Link>
        {ways}
      </p>
    </section>
  );
}

/** The same page at the root of the app, outside the auth pages' layout: on its own in their frame and styles. */
export function StatusPage(props: StatusMessageProps) {
  return (
    <div className="da-frame">
      <main id="main" className="da-container da-main">
        <StatusMessage {...props} />
      </main>
    </div>
  );
}

/**
 * The ways on for a page under the auth pages' layout, whose frame reads the request already: sign-in
 * for a visitor (where the domain has it), the profile for someone signed in.
 */
export async function SessionWaysOn() {
  const { view } = await loadPageState();
  if (!view.auth) return null;
  const signedIn = (await readSession(view.auth)).status === "signed-in";
  if (signedIn) {
    return (
      <Link className="da-button" href="/profile">
        Your profile
      </Link>
    );
  }
  return view.auth.endpoints.login ? (
    <Link className="da-button" href="/login">
      Sign in
    </Link>
  ) : null;
}

/** The tab's title of such a page: what happened, then the service's name ("Page not found · blog"). */
export async function statusTitle(title: string): Promise<string> {
  const { view } = await loadPageState();
  return `${title} · ${view.name}`;
}

/** The tab's title of such a page under the auth pages' layout, kept while it is on screen. */
export async function StatusTabTitle({ title }: { readonly title: string }) {
  return <DocumentTitle title={await statusTitle(title)} />;
}
