import type { Metadata } from "next";
import { StatusPage } from "@/components/domain-auth/status-page";
import { VisitorWaysOn } from "@/components/domain-auth/visitor-ways";

/** Completed with the service's name once the page is on screen ("Page not found · blog"). */
export const metadata: Metadata = { title: "Page not found" };

/**
 * The sample's 404 page, for any address no page answers (a project keeps its own), in the auth pages'
 * styles. Next.js prerenders it and renders it into every page, so it reads nothing of the request
 * itself (see status-page.tsx): who is there, and the service's name, are asked once it is on screen.
 */
export default function NotFound() {
  return (
    <StatusPage title="Page not found" ways={<VisitorWaysOn title="Page not found" />}>
      <p>There is no page at this address. The link may be out of date, or the address mistyped.</p>
    </StatusPage>
  );
}
