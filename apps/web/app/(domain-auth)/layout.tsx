import type { Metadata } from "next";
import type { ReactNode } from "react";
import { AuthFrame } from "@/components/domain-auth/auth-frame";

export const metadata: Metadata = {
  title: { default: "domain-auth", template: "%s · domain-auth" },
  description: "Sign-in, users and records for an API described in domain.yaml.",
};

/** The auth pages' own layout, inside the project's root layout. */
export default function DomainAuthLayout({ children }: { readonly children: ReactNode }) {
  return <AuthFrame>{children}</AuthFrame>;
}
