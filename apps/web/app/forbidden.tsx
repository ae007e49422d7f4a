import type { Metadata } from "next";
import { StatusPage, statusTitle } from "@/components/domain-auth/status-page";
import { VisitorWaysOn } from "@/components/domain-auth/visitor-ways";

/** The tab's title, read only when the page is shown: "Not allowed · blog" (kept in a browser by {@link VisitorWaysOn}). */
export async function generateMetadata(): Promise<Metadata> {
  return { title: await statusTitle("Not allowed") };
}

/**
 * The 403 page: what a signed-in user without one of the roles a page asks for sees, from
 * `requireUser({ roles })` of `@domain-auth/core/next` (`forbidden()`, with `experimental.authInterrupts`
 * in next.config). The page's content never renders; this one says so in the auth pages' styles and
 * leads home, or to the profile. Next.js renders it into every page of the app, so it reads nothing of
 * the request itself (see status-page.tsx). The wizard writes it into a project without a 403 page of
 * its own.
 */
export default function Forbidden() {
  return (
    <StatusPage title="Not allowed" ways={<VisitorWaysOn title="Not allowed" />}>
      <p>This page could not be accessed. Your account does not have a role that may open it.</p>
    </StatusPage>
  );
}
