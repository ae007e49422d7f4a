import type { Metadata } from "next";
import type { ReactNode } from "react";
import { AuthFrame } from "@/components/domain-auth/auth-frame";
import { loadPageState } from "@/lib/domain-auth/page-access";

/** Every auth page's tab names the service: "Sign in · blog", the domain's `name` alone where a page has no title. */
export async function generateMetadata(): Promise<Metadata> {
  const { view } = await loadPageState();
  return {
    title: { default: view.name, template: `%s · ${view.name}` },
    description: `Sign-in, users and records of ${view.name}, described in domain.yaml.`,
  };
}

/** The auth pages' own layout, inside the project's root layout. */
export default function DomainAuthLayout({ children }: { readonly children: ReactNode }) {
  return <AuthFrame>{children}</AuthFrame>;
}
