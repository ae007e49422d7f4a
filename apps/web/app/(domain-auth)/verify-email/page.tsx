import type { Metadata } from "next";
import { ResendVerification } from "@/components/domain-auth/resend-verification";
import { VerifyEmailForm } from "@/components/domain-auth/verify-email-form";
import { openAuthPage } from "@/lib/domain-auth/page-access";
import { firstParam, type SearchParams } from "@/lib/domain-auth/search-params";

export const metadata: Metadata = { title: "Confirm your email" };

/** Confirms an address with the link's token (one click: mail scanners that open links spend nothing); without one, sends a new link. */
export default async function VerifyEmailPage({ searchParams }: { readonly searchParams: Promise<SearchParams> }) {
  const { auth } = await openAuthPage("verify-email");
  const token = firstParam((await searchParams).token);
  return (
    <section className="da-page-narrow">
      <h1>Confirm your email address</h1>
      {token ? <VerifyEmailForm auth={auth} token={token} /> : <ResendVerification auth={auth} />}
    </section>
  );
}
