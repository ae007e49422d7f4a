import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import type { Reply } from "../http/responses.js";
import { createApiKey, listApiKeys, revokeApiKey } from "../routes/api-keys.js";
import { listEvents } from "../routes/events.js";
import { forgotPassword } from "../routes/forgot-password.js";
import { login } from "../routes/login.js";
import { loginMfa } from "../routes/login-mfa.js";
import { loginPasskey, loginPasskeyOptions } from "../routes/login-passkey.js";
import { logout } from "../routes/logout.js";
import { me } from "../routes/me.js";
import { confirmTotp, disableTotp, startTotp } from "../routes/mfa-totp.js";
import { addPasskey, listPasskeys, passkeyOptions, removePasskey } from "../routes/passkeys.js";
import { regenerateRecoveryCodes } from "../routes/recovery-codes.js";
import { refresh } from "../routes/refresh.js";
import { register } from "../routes/register.js";
import { resetPassword } from "../routes/reset-password.js";
import { listSessions, revokeSession, revokeSessions } from "../routes/sessions.js";
import { setup, setupStatus } from "../routes/setup.js";
import { resendVerification, verifyEmail } from "../routes/verify-email.js";
import type { AuthOperationId, PathParametersOf } from "./catalog.js";

/** The path parameters of a request, by the names its entry's path gives them (`{id}`). */
export type PathParameters = Readonly<Record<string, string>>;

/** The handler of one auth operation: the request and the path's parameters in, the reply out. */
export type AuthHandler<Parameters = PathParameters> = (
  context: RouteContext,
  services: AuthServices,
  request: ApiRequest,
  parameters: Parameters,
) => Promise<Reply>;

/** The handler of every auth operation of the catalog, by operation id (server only: they reach the store). */
export const AUTH_HANDLERS: { readonly [Id in AuthOperationId]: AuthHandler<PathParametersOf<Id>> } = {
  login,
  loginMfa,
  loginPasskeyOptions,
  loginPasskey,
  register,
  me,
  setupStatus,
  setup,
  logout,
  refresh,
  listSessions,
  revokeSessions,
  revokeSession,
  forgotPassword,
  resetPassword,
  verifyEmail,
  resendVerification,
  startTotp,
  disableTotp,
  confirmTotp,
  regenerateRecoveryCodes,
  passkeyOptions,
  listPasskeys,
  addPasskey,
  removePasskey,
  listEvents,
  listApiKeys,
  createApiKey,
  revokeApiKey,
};
