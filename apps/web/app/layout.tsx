import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: "domain-auth",
  description: "Sign-in, users and records for an API described in domain.yaml.",
};

/**
 * Stands for the project's own root layout: the auth pages bring their frame and styles in
 * `app/(domain-auth)/layout.tsx`, so they need nothing from this file.
 */
export default function RootLayout({ children }: { readonly children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
