import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { jsonWithToken, type Reply } from "../http/responses.js";
import type { MfaChallenge, MfaEnrollment } from "../mfa/second-step-view.js";
import { MFA_TOKEN_TTL_SECONDS, mustEnrolSecondFactor, type SecondFactorMethod } from "../policy/second-factor.js";
import type { StoredUser } from "../store/rows.js";
import type { Transport } from "./auth-body-schemas.js";
import type { SignInMethod } from "./security-events.js";
import { signedInBody, signedInReply } from "./signed-in-body.js";

/**
 * What follows a right password (docs/mfa.md): the second factor of a user who has one, the
 * enrolment of one whose role requires a factor, or nothing: a session starts.
 */
export type SecondStep =
  | { readonly kind: "challenge"; readonly methods: readonly SecondFactorMethod[] }
  | { readonly kind: "enrolment" }
  | { readonly kind: "none" };

/**
 * The methods that finish a sign-in of a user: each factor they have that `domain.yaml` keeps on
 * (a factor turned off there has no endpoint to take it).
 */
export async function secondFactorMethods(services: AuthServices, userId: string): Promise<SecondFactorMethod[]> {
  const { totp, passkeys } = services.auth.mfa;
  const [codes, keys] = await Promise.all([totp ? services.mfa.methodsOf(userId) : [], passkeys && services.passkeys.store.hasAny(userId)]);
  return keys ? [...codes, "passkey"] : codes;
}

/** The step after a right password for this user. */
export async function secondStepOf(services: AuthServices, user: Pick<StoredUser, "id" | "role">): Promise<SecondStep> {
  const methods = await secondFactorMethods(services, user.id);
  if (methods.length > 0) return { kind: "challenge", methods };
  return mustEnrolSecondFactor(services.auth, user.role) ? { kind: "enrolment" } : { kind: "none" };
}

/** How {@link answerSignIn} answers. */
export interface SignInAnswerOptions {
  readonly step: SecondStep;
  /** The status of a session's or an enrolment's answer (201 for setup); a second step is always 200. */
  readonly status: number;
  readonly transport: Transport;
  /** How the session is started, for its event. @default "password" */
  readonly method?: SignInMethod;
}

/**
 * The answer to a right password (login, setup, reset-password): a session and its tokens (in the
 * body or as cookies); or, starting none, `{ mfaRequired, mfaToken, methods, expiresIn }` for a
 * user with a second factor (`login/mfa` finishes), or `{ mfaEnrollmentRequired, mfaToken }` for
 * one who must enrol (the token opens only `mfa/totp` and `mfa/totp/confirm`).
 */
export async function answerSignIn(
  context: RouteContext,
  services: AuthServices,
  request: ApiRequest,
  user: StoredUser,
  options: SignInAnswerOptions,
): Promise<Reply> {
  const { step } = options;
  if (step.kind === "challenge") {
    const mfaToken = await services.mfa.issueToken(user, "challenge");
    const challenge: MfaChallenge = { mfaRequired: true, mfaToken, methods: [...step.methods], expiresIn: MFA_TOKEN_TTL_SECONDS };
    return jsonWithToken(200, challenge);
  }
  if (step.kind === "enrolment") {
    const enrolment: MfaEnrollment = { mfaEnrollmentRequired: true, mfaToken: await services.mfa.issueToken(user, "enrolment") };
    return jsonWithToken(options.status, enrolment);
  }
  const body = await signedInBody(context, services, user, request, options.method ? { method: options.method } : {});
  return signedInReply(services, options.status, body, options.transport);
}
