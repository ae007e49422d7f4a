import type { Metadata } from "next";
import { SessionWaysOn, StatusMessage, StatusTabTitle } from "@/components/domain-auth/status-page";

/** "Page not found · blog" (the layout's template adds the service's name). */
export const metadata: Metadata = { title: "Page not found" };

/** 404 of the auth pages a domain turns off (disabled endpoints, `auth.type: none`); unknown paths get the project's own. */
export default function NotFound() {
  return (
    <StatusMessage title="Page not found" ways={<SessionWaysOn />}>
      <StatusTabTitle title="Page not found" />
      <p>There is no page at this address in this service. The link may be out of date, or the feature turned off.</p>
    </StatusMessage>
  );
}
