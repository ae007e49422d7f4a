import type { Metadata } from "next";
import { ApiReference } from "@/components/domain-auth/api-reference";
import { openPage } from "@/lib/domain-auth/page-access";

export const metadata: Metadata = { title: "API reference" };

/** The interactive reference of this domain's API, rendered from its OpenAPI document in the browser. */
export default async function DocsPage() {
  const { view } = await openPage("docs");
  return (
    <section>
      <h1>API reference</h1>
      <ApiReference auth={view.auth} />
    </section>
  );
}
