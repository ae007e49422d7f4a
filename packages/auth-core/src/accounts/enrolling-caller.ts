import type { Kysely } from "kysely";
import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import type { MfaTokenRow } from "../mfa/second-factor-store.js";
import { MFA_TOKEN_PREFIX } from "../mfa/secrets.js";
import type { LiveSessionRow } from "../sessions/session-store.js";
import type { AnyDB } from "../store/database.js";
import type { SignedInUser } from "../store/rows.js";
import { bearerToken, invalidTokenError, requireCaller } from "./authenticate.js";

/**
 * Who calls an enrolment endpoint (`mfa/totp`, `mfa/totp/confirm`): a signed-in user, or the
 * holder of the mfa token a required enrolment gave (docs/mfa.md), which no other endpoint accepts.
 */
export interface EnrollingCaller {
  readonly user: SignedInUser;
  /** The caller's session; `null` for an enrolment token (no session exists yet). */
  readonly session: LiveSessionRow | null;
  /** The enrolment token presented; `null` for a signed-in caller. */
  readonly enrolment: MfaTokenRow | null;
}

/**
 * The caller of an enrolment endpoint: an mfa token as the bearer token (or, with no session, in
 * the second step's cookie) must be a live enrolment token of an existing user, anything else is
 * checked as on every endpoint.
 *
 * @throws {ApiError} 401 `UNAUTHENTICATED` without a token, or with one that is not valid.
 */
export async function enrollingCaller(context: RouteContext, services: AuthServices, request: ApiRequest): Promise<EnrollingCaller> {
  const bearer = bearerToken(request);
  // After a provider's sign-in the enrolment token is an HttpOnly cookie (docs/providers.md): only the app's own pages may use it.
  const cookie = bearer === null && services.cookies.accessToken(request) === null ? services.cookies.mfaToken(request) : null;
  if (cookie !== null) services.cookies.checkOrigin(request);
  const token = bearer?.startsWith(MFA_TOKEN_PREFIX) ? bearer : cookie;
  if (token !== null) {
    const found = await services.mfa.findTokenOf(token, "enrolment", (id) => context.store.findUser(services.auth.entity, id));
    if (!found) throw invalidTokenError();
    return { user: found.user, session: null, enrolment: found.token };
  }
  const { user, session } = await requireCaller(context, request);
  return { user, session, enrolment: null };
}

/**
 * What commits with a factor the caller turns on (docs/mfa.md): their other sessions revoked, and
 * every enrolment token of theirs spent, the one they came with included (401 when another request
 * spent it first).
 */
export function factorAddedWork(services: AuthServices, caller: EnrollingCaller): (trx: Kysely<AnyDB>) => Promise<void> {
  return async (trx) => {
    const now = services.sessions.now();
    // Each was handed out to a user without a factor: with one on, another would add a factor and sign in without it.
    const spent = await services.mfa.store.spendEnrolmentTokens(trx, caller.user.id, now);
    if (caller.enrolment && !spent.includes(caller.enrolment.tokenHash)) throw invalidTokenError();
    await services.sessions.store.revokeAllOf(caller.user.id, now, { trx, ...(caller.session ? { except: caller.session.id } : {}) });
  };
}
