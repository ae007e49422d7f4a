import type { PasskeySummary } from "@domain-auth/core/policy";
import { apiPaths, passkeyPath } from "@domain-auth/core/policy";
import {
  type AuthenticationResponseJSON,
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from "@simplewebauthn/browser";
import type { ApiFailure, ApiResult } from "./api-request";
import type { EnrolmentOptions, SecondFactorAuth, SecondFactorClient } from "./second-factor";
import { bearerOf, verifySecondFactor } from "./second-factor";
import type { SignedInAnswer } from "./session-client";

/** A passkey of the signed-in user, as `GET passkeys` lists it: never its key. */
export type Passkey = PasskeySummary;

/** The passkey prompt of the browser did not give an answer: closed, timed out, or not possible here. */
export interface PromptFailure {
  readonly ok: false;
  readonly prompt: true;
  readonly message: string;
}

/** What a passkey ceremony ends with: the server's answer, or the browser's prompt that gave none. */
export type PasskeyResult<T> = ApiResult<T> | PromptFailure;

/** What the browser's refusal of a passkey prompt means to the user. */
function promptFailure(error: unknown): PromptFailure {
  const code = error instanceof WebAuthnError ? error.code : null;
  const message =
    code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED"
      ? "This device already holds a passkey of your account."
      : browserSupportsWebAuthn()
        ? "The passkey prompt was closed or timed out. Try again when you are ready."
        : "This browser cannot use passkeys.";
  return { ok: false, prompt: true, message };
}

/** Runs the browser's passkey prompt; its refusal becomes a {@link PromptFailure}. */
async function prompt<T>(ceremony: () => Promise<T>): Promise<{ ok: true; value: T } | PromptFailure> {
  try {
    return { ok: true, value: await ceremony() };
  } catch (error) {
    return promptFailure(error);
  }
}

/**
 * Adds a passkey: options from the server, the browser's prompt, its answer stored as `name`. With
 * a required enrolment's token, the answer also signs in (`transport: "cookie"`), and the tab takes
 * its user. Other sessions of the user end (docs/mfa.md). A session that signed in too long ago
 * gets 403 `REAUTHENTICATION_REQUIRED` until `currentPassword` is sent.
 */
export async function addPasskey(
  client: SecondFactorClient,
  auth: SecondFactorAuth,
  name: string,
  options: EnrolmentOptions & { readonly currentPassword?: string } = {},
): Promise<PasskeyResult<Passkey>> {
  const paths = apiPaths(auth);
  const bearer = options.enrolmentToken;
  const send = <T>(path: string, body?: unknown) =>
    bearer === undefined
      ? client.call<T>(path, { method: "POST", ...(body ? { body } : {}) })
      : client.request<T>(path, { method: "POST", ...bearerOf(bearer), ...(body ? { body } : {}) });
  const proof = options.currentPassword === undefined ? undefined : { currentPassword: options.currentPassword };
  const creation = await send<PublicKeyCredentialCreationOptionsJSON>(paths.passkeyOptions, proof);
  if (!creation.ok) return creation;
  const answer = await prompt(() => startRegistration({ optionsJSON: creation.data }));
  if (!answer.ok) return answer;
  const body = { response: answer.value, ...(name ? { name } : {}), ...(bearer === undefined ? {} : { transport: "cookie" }) };
  const added = await send<Passkey & Partial<SignedInAnswer>>(paths.passkeys, body);
  if (!added.ok || bearer === undefined) return added;
  const { id, name: named, createdAt, ...signedIn } = added.data;
  client.signedIn(signedIn as SignedInAnswer);
  return { ...added, data: { id, name: named, createdAt, lastUsedAt: null } };
}

/** `GET passkeys`: the signed-in user's passkeys, oldest first. */
export async function listPasskeys(client: SecondFactorClient, auth: SecondFactorAuth): Promise<ApiResult<readonly Passkey[]>> {
  const result = await client.call<{ items: Passkey[] }>(apiPaths(auth).passkeys);
  return result.ok ? { ...result, data: result.data.items } : result;
}

/** `DELETE passkeys/<id>`: removes one; the user's other sessions end. */
export function removePasskey(client: SecondFactorClient, auth: SecondFactorAuth, id: string): Promise<ApiResult<null>> {
  return client.call<null>(passkeyPath(auth, id), { method: "DELETE" });
}

/** The browser's answer to sign-in options: of any passkey of this site, or (with an `mfaToken`) of the user's. */
async function signInAnswer(client: SecondFactorClient, auth: SecondFactorAuth, mfaToken?: string | null) {
  // `null`: the second step after a provider, whose token is in its HttpOnly cookie.
  const options = await client.request<PublicKeyCredentialRequestOptionsJSON>(apiPaths(auth).loginPasskeyOptions, {
    method: "POST",
    body: mfaToken === undefined ? {} : mfaToken === null ? { secondStep: true } : { mfaToken },
  });
  if (!options.ok) return options;
  return prompt<AuthenticationResponseJSON>(() => startAuthentication({ optionsJSON: options.data }));
}

/**
 * "Sign in with a passkey": the browser offers this site's passkeys; the answer signs in with the
 * session cookies, and the tab takes the user. Resolves to the failure, or `null` once signed in.
 */
export async function signInWithPasskey(client: SecondFactorClient, auth: SecondFactorAuth): Promise<ApiFailure | PromptFailure | null> {
  const answer = await signInAnswer(client, auth);
  if (!answer.ok) return answer;
  const result = await client.request<SignedInAnswer>(apiPaths(auth).loginPasskey, {
    method: "POST",
    body: { response: answer.value, transport: "cookie" },
  });
  if (!result.ok) return result;
  client.signedIn(result.data);
  return null;
}

/** The second step of a sign-in with one of the user's passkeys; the failure, or `null` once signed in. */
export async function passkeySecondStep(
  client: SecondFactorClient,
  auth: SecondFactorAuth,
  mfaToken: string | null,
): Promise<ApiFailure | PromptFailure | null> {
  const answer = await signInAnswer(client, auth, mfaToken);
  if (!answer.ok) return answer;
  return verifySecondFactor(client, auth, mfaToken, { passkey: answer.value });
}
