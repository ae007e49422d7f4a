import {
  apiPaths,
  MFA_TOKEN_TTL_SECONDS,
  type MfaChallenge,
  type MfaEnrollment,
  type RecoveryCodesAnswer,
  SECOND_FACTOR_METHODS,
  type SecondFactorMethod,
  type TotpEnrolment,
} from "@domain-auth/core/policy";
import type { ApiFailure, ApiResult } from "./api-request";
import type { AuthView } from "./domain-view";
import type { SessionClient, SignedInAnswer } from "./session-client";

/** What the second-factor calls need of the tab's session client (`sessionClient()`; a test's own). */
export type SecondFactorClient = Pick<SessionClient, "request" | "call" | "signedIn">;

/** What the calls need of the `auth` block: its segment, for the API's paths. */
export type SecondFactorAuth = Pick<AuthView, "segment">;

/**
 * What a right password answered instead of a session (docs/mfa.md): a code to ask for
 * (`mfaRequired`), or a factor the user's role must set up first (`mfaEnrollmentRequired`).
 * The `mfaToken` is the one token a page holds, in memory, for the five minutes it lives.
 */
export type SecondStep =
  | ({ readonly kind: "second-factor" } & Readonly<Pick<MfaChallenge, "methods" | "expiresIn">> & {
        /** `null` after a provider's sign-in: the token is then in an HttpOnly cookie, which the server reads. */
        readonly mfaToken: string | null;
      })
  | ({ readonly kind: "enrolment" } & {
      /** `null` after a provider's sign-in: the token is then in an HttpOnly cookie, which the server reads. */
      readonly mfaToken: MfaEnrollment["mfaToken"] | null;
    });

/** Where a sign-in stands once the password was accepted: signed in, or a second step to take. */
export type SignInStep = { readonly kind: "signed-in" } | SecondStep;

const SIGNED_IN: SignInStep = { kind: "signed-in" };

/** The second factor a sign-in presents: a code of the authenticator app, a recovery code, or a passkey's answer. */
export type SecondFactorProof = { readonly code: string } | { readonly recoveryCode: string } | { readonly passkey: unknown };

/** A pending TOTP secret (`POST mfa/totp`): the only answer that ever holds it. */
export type TotpSecret = TotpEnrolment;
export type { RecoveryCodesAnswer };

/** Whether a user has two-step verification on, as the server saw it when it rendered the page (`readTwoStepStatus`). */
export interface TwoStepStatus {
  /** The user it is about: a tab that signed in as someone else since knows nothing of theirs. */
  readonly userId: string;
  readonly enabled: boolean;
}

/** Who sets up TOTP: the signed-in user (the session cookie), or the holder of a required enrolment's `mfaToken`. */
export interface EnrolmentOptions {
  /**
   * The `mfaToken` of `mfaEnrollmentRequired`, sent as the bearer token; `null` after a provider's
   * sign-in, when it is in the second step's cookie. @default none: the session's own
   */
  readonly enrolmentToken?: string | null | undefined;
}

/** An answer as it came: any of its keys may be missing or of another type, so each is checked. */
type SecondStepAnswer = { readonly [Key in keyof (MfaChallenge & MfaEnrollment)]?: unknown };

const KNOWN_METHODS: readonly unknown[] = SECOND_FACTOR_METHODS;

/** The bearer of an enrolment token; none for one in the second step's cookie (`null`). */
export function bearerOf(enrolmentToken: string | null): { bearer?: string } {
  return enrolmentToken === null ? {} : { bearer: enrolmentToken };
}

/**
 * The second step a provider's sign-in left the browser at (`/login?step=second-factor&methods=…`, or
 * `step=enrolment`), its token in an HttpOnly cookie (docs/providers.md); `null` for any other page address.
 */
export function providerSecondStep(step: string | undefined, methods: string | undefined): SecondStep | null {
  if (step === "enrolment") return { kind: "enrolment", mfaToken: null };
  if (step !== "second-factor") return null;
  const listed = (methods ?? "").split(",").filter((method): method is SecondFactorMethod => KNOWN_METHODS.includes(method));
  return { kind: "second-factor", mfaToken: null, methods: listed.length > 0 ? listed : ["totp"], expiresIn: MFA_TOKEN_TTL_SECONDS };
}

/** The second step a sign-in answer asks for, or `null` when it signed in. */
export function secondStepOf(answer: unknown): SecondStep | null {
  const body = (answer ?? {}) as SecondStepAnswer;
  if (typeof body.mfaToken !== "string") return null;
  if (body.mfaEnrollmentRequired === true) return { kind: "enrolment", mfaToken: body.mfaToken };
  if (body.mfaRequired !== true) return null;
  const methods: SecondFactorMethod[] = Array.isArray(body.methods)
    ? body.methods.filter((method): method is SecondFactorMethod => KNOWN_METHODS.includes(method))
    : ["totp"];
  const expiresIn = typeof body.expiresIn === "number" ? body.expiresIn : MFA_TOKEN_TTL_SECONDS;
  return { kind: "second-factor", mfaToken: body.mfaToken, methods, expiresIn };
}

/**
 * Reads the answer of a cookie sign-in (login, setup, reset-password): the second step it asks for,
 * or, when it signed in, the tab (and every other one) takes the user it names.
 */
export function takeSignInAnswer(client: Pick<SessionClient, "signedIn">, answer: unknown): SignInStep {
  const step = secondStepOf(answer);
  if (step) return step;
  client.signedIn(answer as SignedInAnswer);
  return SIGNED_IN;
}

/**
 * `POST login/mfa` with `transport: "cookie"`: the second step of a sign-in. Resolves to the failure
 * (401 `INVALID_MFA_CODE`, 401 `INVALID_MFA_TOKEN`, 429 with `retryAfter`…), or `null` once signed in.
 */
export async function verifySecondFactor(
  client: SecondFactorClient,
  auth: SecondFactorAuth,
  mfaToken: string | null,
  proof: SecondFactorProof,
): Promise<ApiFailure | null> {
  const result = await client.request<SignedInAnswer>(apiPaths(auth).loginMfa, {
    method: "POST",
    body: { ...(mfaToken === null ? {} : { mfaToken }), ...proof, transport: "cookie" },
  });
  if (!result.ok) return result;
  client.signedIn(result.data);
  return null;
}

/**
 * `POST mfa/totp`: the pending secret (the same one for 5 minutes, then a new one; 409 while TOTP is
 * on; 403 `REAUTHENTICATION_REQUIRED` for a session that signed in too long ago, until `currentPassword` is sent).
 */
export function startTotp(
  client: SecondFactorClient,
  auth: SecondFactorAuth,
  options: EnrolmentOptions & { readonly currentPassword?: string } = {},
): Promise<ApiResult<TotpSecret>> {
  const path = apiPaths(auth).totp;
  const body = options.currentPassword === undefined ? {} : { body: { currentPassword: options.currentPassword } };
  if (options.enrolmentToken === undefined) return client.call<TotpSecret>(path, { method: "POST", ...body });
  // An enrolment token is no session: a 401 means it died, with nothing to refresh.
  return client.request<TotpSecret>(path, { method: "POST", ...bearerOf(options.enrolmentToken) });
}

/**
 * `POST mfa/totp/confirm`: a code of the pending secret turns TOTP on and answers the recovery
 * codes. With an enrolment token, the answer also signs in (`transport: "cookie"`), and the tab
 * takes its user.
 */
export async function confirmTotp(
  client: SecondFactorClient,
  auth: SecondFactorAuth,
  code: string,
  options: EnrolmentOptions = {},
): Promise<ApiResult<RecoveryCodesAnswer>> {
  const path = apiPaths(auth).confirmTotp;
  if (options.enrolmentToken === undefined) return client.call<RecoveryCodesAnswer>(path, { method: "POST", body: { code } });
  const result = await client.request<RecoveryCodesAnswer & SignedInAnswer>(path, {
    method: "POST",
    body: { code, transport: "cookie" },
    ...bearerOf(options.enrolmentToken),
  });
  if (!result.ok) return result;
  const { recoveryCodes, ...answer } = result.data;
  client.signedIn(answer);
  return { ...result, data: { recoveryCodes } };
}

/** `DELETE mfa/totp`: two-step verification off, with the current password and a current code. */
export function disableTotp(
  client: SecondFactorClient,
  auth: SecondFactorAuth,
  body: { readonly currentPassword: string; readonly code: string },
): Promise<ApiResult<null>> {
  return client.call<null>(apiPaths(auth).totp, { method: "DELETE", body });
}

/** `POST mfa/recovery-codes`: a new set of recovery codes in place of the old one, with the current password. */
export function regenerateRecoveryCodes(
  client: SecondFactorClient,
  auth: SecondFactorAuth,
  currentPassword: string,
): Promise<ApiResult<RecoveryCodesAnswer>> {
  return client.call<RecoveryCodesAnswer>(apiPaths(auth).recoveryCodes, { method: "POST", body: { currentPassword } });
}

/** The `src` of an `<img>` showing the server's QR code: a `data:` URL, so the SVG is an image, never markup of the page. */
export function qrImageSource(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** A secret in groups of four, easier to type: `JBSW Y3DP EHPK …`. */
export function groupSecret(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(" ") ?? secret;
}

/** The text of a downloaded or copied set of recovery codes, naming the account when known. */
export function recoveryCodesText(codes: readonly string[], options: { readonly account?: string | undefined } = {}): string {
  const title = options.account ? `Recovery codes for ${options.account}` : "Recovery codes";
  return [title, "Each code works once, in place of a code of your authenticator app.", "", ...codes, ""].join("\n");
}
