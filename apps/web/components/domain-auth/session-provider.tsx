"use client";

import type { ReactNode } from "react";
import { useEffect } from "react";
import { RenderedSession, sessionClient } from "@/lib/domain-auth/session";
import type { SessionState } from "@/lib/domain-auth/session-client";

/**
 * Hands the rendered session to the tab's session client. It comes before the page in the tree, so
 * its effect runs before theirs: the client knows the tab is signed in before the page's first call.
 */
function SessionSeed({ rendered }: { readonly rendered: SessionState }) {
  useEffect(() => sessionClient().seed(rendered), [rendered]);
  return null;
}

/**
 * The session the server rendered the page with (`readSession`), for the client components below:
 * their HTML shows the user at once, and `useSession` follows the tab's changes from there.
 */
export function SessionProvider({ rendered, children }: { readonly rendered: SessionState; readonly children: ReactNode }) {
  return (
    <RenderedSession.Provider value={rendered}>
      <SessionSeed rendered={rendered} />
      {children}
    </RenderedSession.Provider>
  );
}
