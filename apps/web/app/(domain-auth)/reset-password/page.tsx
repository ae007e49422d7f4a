import type { Metadata } from "next";
import { ResetPasswordForm } from "@/components/domain-auth/reset-password-form";
import { openAuthPage } from "@/lib/domain-auth/page-access";
import { firstParam, type SearchParams } from "@/lib/domain-auth/search-params";

export const metadata: Metadata = { title: "Choose a password" };

/** Sets a new password from the link of a reset or an invitation (`&invite=1`), then signs in. */
export default async function ResetPasswordPage({ searchParams }: { readonly searchParams: Promise<SearchParams> }) {
  const { auth } = await openAuthPage("reset-password");
  const params = await searchParams;
  const invite = firstParam(params.invite) === "1";
  return (
    <section className="da-page-narrow">
      <h1>{invite ? "Choose your password" : "Choose a new password"}</h1>
      <ResetPasswordForm auth={auth} token={firstParam(params.token) ?? ""} invite={invite} />
    </section>
  );
}
