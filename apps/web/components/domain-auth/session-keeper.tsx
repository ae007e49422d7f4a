"use client";

import type { AuthView } from "@/lib/domain-auth/domain-view";
import { useSessionRefresh } from "@/lib/domain-auth/session-refresh";

/** Renders nothing: keeps the tab's session alive while an auth page is open (see `useSessionRefresh`). */
export function SessionKeeper({ auth }: { readonly auth: Pick<AuthView, "segment" | "endpoints"> }) {
  useSessionRefresh(auth);
  return null;
}
