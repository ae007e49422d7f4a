import { expect } from "vitest";
import type { Auth } from "../../src/index.js";
import { totpCodeAt } from "../../src/mfa/totp.js";
import type { ApiClient, ApiResult, CallOptions } from "./client.js";

/** A user's TOTP as a test holds it: the secret an authenticator app would, and the recovery codes. */
export interface TotpHolder {
  readonly secret: string;
  readonly recoveryCodes: readonly string[];
}

/** The instance's clock, in ms (tests move it to reach the next TOTP step). */
export function clockOf(auth: Auth): number {
  const sessions = auth.tools.sessions;
  if (!sessions) throw new Error("this instance has no auth");
  return sessions.now();
}

/** The code of `secret` on the instance's clock. */
export function currentCode(auth: Auth, secret: string): string {
  return totpCodeAt(secret, clockOf(auth));
}

/** A well-formed code that is none of the codes accepted now (a step either side included). */
export function wrongCode(auth: Auth, secret: string): string {
  const now = clockOf(auth);
  const accepted = new Set([-1, 0, 1].map((offset) => totpCodeAt(secret, now + offset * 30_000)));
  for (let candidate = 0; ; candidate++) {
    const code = String(candidate).padStart(6, "0");
    if (!accepted.has(code)) return code;
  }
}

/** Starts TOTP for the caller (a token, or an enrolment token) and confirms it with the current code. */
export async function enrolTotp(
  api: ApiClient,
  auth: Auth,
  token: string,
  confirm: { readonly body?: Record<string, unknown>; readonly options?: CallOptions } = {},
): Promise<TotpHolder & { readonly confirmed: ApiResult }> {
  const started = await api.post("/api/user/mfa/totp", undefined, { token });
  expect(started.status, started.text).toBe(200);
  const secret = String(started.body.secret);
  const confirmed = await api.post(
    "/api/user/mfa/totp/confirm",
    { code: currentCode(auth, secret), ...confirm.body },
    { token, ...confirm.options },
  );
  expect(confirmed.status, confirmed.text).toBe(200);
  return { secret, recoveryCodes: confirmed.body.recoveryCodes, confirmed };
}

/** Login's answer for a user with a second factor: its `mfaToken`, after checking that no session started. */
export async function passwordStep(api: ApiClient, email: string, password: string, options?: CallOptions): Promise<string> {
  const answer = await api.post("/api/user/login", { email, password }, options);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body).toEqual({ mfaRequired: true, mfaToken: expect.any(String), methods: ["totp", "recovery"], expiresIn: 300 });
  return answer.body.mfaToken;
}
