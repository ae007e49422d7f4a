import { apiPaths } from "@domain-auth/core/policy";
import { useEffect, useState } from "react";
import { type ApiResult, callApi } from "./api";
import type { AuthView } from "./domain-view";
import { endRefusedSession, readToken, useSession, useSessionRefused } from "./session";

/** A user profile as the API returns it: `id`, `email`, `role`, declared fields and timestamps. */
export interface UserProfile {
  readonly id: string;
  readonly email: string;
  readonly role: string | null;
  readonly createdAt?: string;
  readonly updatedAt?: string;
  readonly [field: string]: unknown;
}

/** Who is signed in to this tab, as far as the page knows yet. */
export type CurrentUser =
  | { readonly status: "loading" }
  | { readonly status: "signed-out"; readonly expired: boolean }
  | { readonly status: "failed"; readonly message: string }
  | { readonly status: "signed-in"; readonly token: string; readonly user: UserProfile; readonly source: "me" | "token" };

type MeResult = ApiResult<{ user: UserProfile }>;

/**
 * The signed-in user: from `GET /api/<auth>/me`, or from the token's claims when `me` is disabled.
 * `me` is asked once per session: a refreshed token keeps the profile on show. A token the server
 * rejects (after one refresh attempt) signs the tab out.
 */
export function useCurrentUser(auth: AuthView): CurrentUser {
  const session = useSession();
  const [me, setMe] = useState<{ identity: string; result: MeResult } | null>(null);
  const refused = useSessionRefused();
  const meEnabled = auth.endpoints.me;
  const mePath = apiPaths(auth).me;
  const identity = session ? `${session.claims.sub}:${session.claims.sid ?? session.token}` : null;

  useEffect(() => {
    if (identity === null || !meEnabled) return;
    let current = true;
    callApi<{ user: UserProfile }>(mePath, { token: readToken() }).then((result) => {
      if (!current) return;
      if (result.status === 401) endRefusedSession();
      setMe({ identity, result });
    });
    return () => {
      current = false;
    };
  }, [identity, meEnabled, mePath]);

  if (session === undefined) return { status: "loading" };
  if (session === null) return { status: "signed-out", expired: refused };
  if (!meEnabled) {
    const { sub, email, role } = session.claims;
    return { status: "signed-in", token: session.token, user: { id: sub, email, role }, source: "token" };
  }
  if (me?.identity !== identity) return { status: "loading" };
  if (!me.result.ok) return { status: "failed", message: me.result.error.message };
  return { status: "signed-in", token: session.token, user: me.result.data.user, source: "me" };
}
