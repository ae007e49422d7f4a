import { z } from "zod";
import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { readJsonObject } from "../http/body.js";
import { ApiError } from "../http/errors.js";
import type { LiveSessionRow } from "../sessions/session-store.js";
import { invalidTokenError } from "./authenticate.js";
import { checkPassword } from "./check-password.js";

/** Who asks for a sensitive action: their user, the session their token belongs to, and whether they hold an enrolment token instead. */
export interface SensitiveCaller {
  readonly user: { readonly id: string };
  /** `null` for the holder of a required enrolment's token (no session exists yet). */
  readonly session: LiveSessionRow | null;
  /** A required enrolment's token was presented: it counts as a recent sign-in. */
  readonly enrolment?: unknown;
}

/** The most of `currentPassword` compared, as everywhere a password is checked. */
const MAX_CURRENT_PASSWORD_LENGTH = 1024;

/** The body of a sensitive action that reads nothing else: `{ currentPassword? }`, which {@link requireRecentSignIn} takes out first. */
export const recentSignInBodySchema = z.strictObject({});

/** The 403 of a sensitive action asked for by a session that signed in too long ago. */
function reauthenticationRequired(issues?: { path: string[]; message: string }[]): ApiError {
  return new ApiError("REAUTHENTICATION_REQUIRED", issues ? { issues } : {});
}

/** Whether the request sends a body at all (a content type or a length): one without is not read. */
function sendsBody(request: ApiRequest): boolean {
  const length = request.headers.get("content-length");
  return request.headers.get("content-type") !== null || (length !== null && length !== "0");
}

/**
 * The recent sign-in a sensitive action needs (docs/security.md#sensitive-actions): the caller's
 * session signed in within `AUTH_REAUTH_WINDOW` seconds, or holds a required enrolment's token, or
 * `currentPassword` (as sent) is theirs, compared under login throttling (a wrong one is a failed login).
 *
 * @throws {ApiError} 403 `REAUTHENTICATION_REQUIRED` (with an issue on `currentPassword` when it is
 *   wrong), 429 `TOO_MANY_ATTEMPTS` while the email is locked.
 */
export async function checkRecentSignIn(
  context: RouteContext,
  services: AuthServices,
  request: ApiRequest,
  caller: SensitiveCaller,
  currentPassword: unknown,
): Promise<void> {
  if (caller.enrolment || (caller.session !== null && services.sessions.isRecent(caller.session))) return;
  if (typeof currentPassword !== "string" || currentPassword.length > MAX_CURRENT_PASSWORD_LENGTH) {
    throw reauthenticationRequired(
      currentPassword === undefined ? undefined : [{ path: ["currentPassword"], message: "must be a string" }],
    );
  }
  const stored = await context.store.findUser(services.auth.entity, caller.user.id);
  if (!stored) throw invalidTokenError();
  const attempt = { email: stored.email, password: currentPassword, user: stored };
  if (!(await checkPassword(context, services, request, attempt))) {
    throw reauthenticationRequired([{ path: ["currentPassword"], message: "is wrong" }]);
  }
}

/**
 * {@link checkRecentSignIn} for an endpoint that reads its body only after it: checked after
 * permission and before the body's other checks, reading the body when one is sent (a stale
 * session without one is refused before any is read).
 *
 * @returns the body (an empty object when none was sent), `currentPassword` taken out, for the handler's schema.
 * @throws {ApiError} as {@link checkRecentSignIn}, and the body's 415, 413 and 400.
 */
export async function requireRecentSignIn(
  context: RouteContext,
  services: AuthServices,
  request: ApiRequest,
  caller: SensitiveCaller,
): Promise<Record<string, unknown>> {
  const recent = Boolean(caller.enrolment) || (caller.session !== null && services.sessions.isRecent(caller.session));
  if (!recent && !sendsBody(request)) throw reauthenticationRequired();
  const { currentPassword, ...body } = sendsBody(request) ? await readJsonObject(request) : {};
  if (!recent) await checkRecentSignIn(context, services, request, caller, currentPassword);
  return body;
}
